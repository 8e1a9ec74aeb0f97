/// What the app tells the input method about its text field, beyond the text itself: for
/// engine developers testing their fallbacks (`--surrounding`, `--input-purpose`,
/// `--input-hints`). None of it changes the composer's decisions; it changes what the
/// engine sees, so it is written in the trace's `start` line and in the bug report, and a
/// rerun starts the app the same way.
public struct InputMethodFacing: Equatable, Sendable {
    /// Whether the app answers the input method's requests for the text around the caret.
    /// Many terminals and Electron apps do not, and an engine cannot tell beforehand
    /// (ibus/ibus#2436): `off` answers none and ignores requests to delete around the caret.
    public enum Surrounding: String, CaseIterable, Sendable {
        case on, off
    }

    /// GTK's GtkInputPurpose, by the names its documentation uses (lowercase, hyphenated).
    public enum Purpose: String, CaseIterable, Sendable {
        case freeForm = "free-form"
        case alpha, digits, number, phone, url, email, name, password, pin, terminal
    }

    /// GTK's GtkInputHints flags, by the names its documentation uses.
    public enum Hint: String, CaseIterable, Sendable, Comparable {
        case spellcheck
        case noSpellcheck = "no-spellcheck"
        case wordCompletion = "word-completion"
        case lowercase
        case uppercaseChars = "uppercase-chars"
        case uppercaseWords = "uppercase-words"
        case uppercaseSentences = "uppercase-sentences"
        case inhibitOSK = "inhibit-osk"
        case verticalWriting = "vertical-writing"
        case emoji
        case noEmoji = "no-emoji"
        case `private`

        /// In GtkInputHints' bit order.
        public static func < (lhs: Hint, rhs: Hint) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    public var surrounding: Surrounding
    public var purpose: Purpose
    /// In GtkInputHints' bit order, each once.
    public private(set) var hints: [Hint]

    public init(surrounding: Surrounding = .on, purpose: Purpose = .freeForm, hints: some Sequence<Hint> = []) {
        self.surrounding = surrounding
        self.purpose = purpose
        self.hints = Array(Set(hints)).sorted()
    }

    /// A text view's own: surrounding text answered, free-form, no hints.
    public static let standard = InputMethodFacing()

    /// Reads `--input-hints`: hint names separated by commas ("" or "none" for no hint), in
    /// GtkInputHints' order, each once. The error names the unknown hint and lists the known ones.
    public static func hints(parsing text: String) throws(InputMethodFacingError) -> [Hint] {
        let names = text.split(separator: ",").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
            .filter { !$0.isEmpty }
        if names == ["none"] { return [] }
        let hints = try names.map { name throws(InputMethodFacingError) -> Hint in
            guard let hint = Hint(rawValue: name) else {
                throw InputMethodFacingError("unknown input hint \"\(name)\"; the hints are "
                    + Hint.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return hint
        }
        return Array(Set(hints)).sorted()
    }

    /// "surrounding text off, purpose password, hints no-emoji, private": what differs from
    /// a text view's own, for a report; nil when nothing does.
    public var summary: String? {
        var parts: [String] = []
        if surrounding == .off { parts.append("surrounding text off") }
        if purpose != .freeForm { parts.append("purpose \(purpose.rawValue)") }
        if !hints.isEmpty { parts.append("hints " + hints.map(\.rawValue).joined(separator: ", ")) }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The app's arguments that set it (none for the standard one).
    public var arguments: [String] {
        var arguments: [String] = []
        if surrounding == .off { arguments += ["--surrounding", "off"] }
        if purpose != .freeForm { arguments += ["--input-purpose", purpose.rawValue] }
        if !hints.isEmpty { arguments += ["--input-hints", hints.map(\.rawValue).joined(separator: ",")] }
        return arguments
    }
}

public struct InputMethodFacingError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
