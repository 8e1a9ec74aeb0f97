/// A registered completion prefix: `@` → people, `#` → channels, `:` → emoji, or one
/// that configuration added.
public struct CompletionPrefix: Equatable, Sendable {
    /// The prefix as registered (`@`). In the text it may also appear full-width (`＠`),
    /// which is what Japanese input methods commit in their default mode.
    public var prefix: String
    /// The name of the `CompletionSource` that completes words with this prefix.
    public var source: String
    /// The list opens only from this many query scalars on (`:` needs 2, so `10:3` and `:)`
    /// stay quiet).
    public var minimumQueryLength: Int

    public init(prefix: String, source: String, minimumQueryLength: Int = 0) {
        self.prefix = prefix
        self.source = source
        self.minimumQueryLength = max(0, minimumQueryLength)
    }
}

/// The word being completed: a registered prefix and the query typed after it, up to the caret.
public struct CompletionWord: Equatable, Sendable {
    /// The registered prefix (`@`, even when the text has `＠`).
    public var prefix: String
    /// The query: every scalar between the prefix and the caret.
    public var query: String
    /// The source registered for the prefix.
    public var source: String
    /// Scalar range from the prefix's first scalar to the caret: what accepting replaces.
    public var range: Range<Int>

    public init(prefix: String, query: String, source: String, range: Range<Int>) {
        self.prefix = prefix
        self.query = query
        self.source = source
        self.range = range
    }
}

/// Finds the word to complete at the caret (on every caret move, with no real selection,
/// the word at the caret is checked against the registered prefixes).
///
/// A word is the run from a prefix to the caret:
/// - its characters are letters and digits of any script (kana, kanji, Hangul, Latin with
///   diacritics, combining marks included), `_`, `-` and `.` (also full-width);
/// - the prefix starts the text or follows whitespace, punctuation or a symbol (an emoji),
///   so `mail@host` is not a mention;
/// - the selection is empty, and the word is at most `maximumQueryLength` scalars long.
///
/// Only a bounded window before the caret is read from the document (O(log n + window)),
/// never the whole text.
public struct CompletionTrigger: Sendable {
    public private(set) var prefixes: [CompletionPrefix] = []
    /// Longer queries are not completed (and not looked at further back than this).
    public static let maximumQueryLength = 64

    public init(prefixes: [CompletionPrefix] = []) {
        for prefix in prefixes { register(prefix) }
    }

    /// `@` people, `#` channels, `:` emoji from the second query character.
    public static let standard = CompletionTrigger(prefixes: [
        CompletionPrefix(prefix: "@", source: CompletionSource.peopleName),
        CompletionPrefix(prefix: "#", source: CompletionSource.channelsName),
        CompletionPrefix(prefix: ":", source: CompletionSource.emojiName, minimumQueryLength: 2),
    ])

    /// Registers (or re-registers) a prefix. Returns false, and changes nothing, when the
    /// prefix is empty or ends in a word character (it could never be told from the word).
    @discardableResult
    public mutating func register(_ prefix: CompletionPrefix) -> Bool {
        guard let last = prefix.prefix.unicodeScalars.last, !Self.isWordScalar(last) else { return false }
        prefixes.removeAll { $0.prefix == prefix.prefix }
        prefixes.append(prefix)
        // Longest first, so `+:` wins over `:`.
        prefixes.sort { $0.prefix.unicodeScalars.count > $1.prefix.unicodeScalars.count }
        return true
    }

    @discardableResult
    public mutating func register(prefix: String, source: String, minimumQueryLength: Int = 0) -> Bool {
        register(CompletionPrefix(prefix: prefix, source: source, minimumQueryLength: minimumQueryLength))
    }

    /// The word to complete at the caret, or nil (a selection, no prefix, too short or long).
    ///
    /// Runs at every settle: it reads back from the caret in small steps (a word is short,
    /// so one read of `firstReadLength` scalars usually does), never more than the longest
    /// query plus the longest prefix and the scalar before it.
    public func word(in document: TextDocument, selection: TextSelection) -> CompletionWord? {
        word(count: document.scalarCount, selection: selection, read: document.scalars(in:))
    }

    /// The word at the model's caret, read through the model's copy of the text near the caret.
    public func word(in model: ComposerModel) -> CompletionWord? {
        word(count: model.document.scalarCount, selection: model.selection, read: model.scalars(in:))
    }

    private func word(count: Int, selection: TextSelection,
                      read: (Range<Int>) -> [Unicode.Scalar]) -> CompletionWord? {
        guard selection.isEmpty, let longestPrefix = prefixes.first?.prefix.unicodeScalars.count else { return nil }
        let caret = min(max(selection.caret, 0), count)
        // One scalar more than the longest word + prefix, to see what precedes the prefix.
        let farthestStart = max(0, caret - Self.maximumQueryLength - longestPrefix - 1)
        var readLength = Self.firstReadLength
        var windowStart: Int
        var window: [Unicode.Scalar]
        var queryStart: Int
        while true {
            windowStart = max(farthestStart, caret - readLength)
            window = read(windowStart..<caret)
            queryStart = window.count
            while queryStart > 0, Self.isWordScalar(window[queryStart - 1]) { queryStart -= 1 }
            // Done once the word and room for the longest prefix and the scalar before it
            // are inside the window, or the window cannot grow.
            if windowStart == farthestStart || queryStart > longestPrefix { break }
            readLength *= 4
        }
        let queryLength = window.count - queryStart
        guard queryLength <= Self.maximumQueryLength else { return nil }
        for registered in prefixes {
            let prefix = registered.prefix.unicodeScalars
            let prefixStart = queryStart - prefix.count
            guard prefixStart >= 0,
                  zip(window[prefixStart..<queryStart], prefix).allSatisfy({ Self.widthFolded($0) == $1 })
            else { continue }
            if prefixStart == 0 {
                guard windowStart == 0 else { continue }  // the text goes on before the window
            } else {
                guard Self.mayPrecedePrefix(window[prefixStart - 1]) else { continue }
            }
            guard queryLength >= registered.minimumQueryLength else { return nil }
            var query = ""
            query.unicodeScalars.append(contentsOf: window[queryStart...])
            return CompletionWord(prefix: registered.prefix, query: query, source: registered.source,
                                  range: (windowStart + prefixStart)..<caret)
        }
        return nil
    }

    /// Scalars read before the caret at first (the window grows fourfold if the word is longer).
    static let firstReadLength = 16

    /// Convenience: the word at `caret` (a scalar offset) in `text`.
    public func word(in text: String, caret: Int) -> CompletionWord? {
        word(in: TextDocument(text), selection: TextSelection(caret: caret))
    }

    /// Letters, marks and digits of any script, `_`, `-`, `.` (and their full-width forms).
    public static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let scalar = widthFolded(scalar)
        if scalar.isASCII {
            // ASCII letters (Lu, Ll) and digits (Nd); `_`, `-`, `.`; nothing else.
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".": return true
            default: return false
            }
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark,
             .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// What may come right before a prefix: whitespace, punctuation (`.`, `_` and `-` too:
    /// they belong to a word only after the prefix), symbols (an emoji, also its variation
    /// selector or zero-width joiner), line breaks and other control characters — and the
    /// scripts written without spaces (`isUnspacedScript`: お疲れ様です@tana). Latin letters
    /// and digits are not: `name@example.com` is no mention.
    static func mayPrecedePrefix(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII: everything but letters and digits (controls, spaces, punctuation, symbols).
        if scalar.isASCII {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9": return false
            default: return true
            }
        }
        if scalar.properties.isWhitespace || isUnspacedScript(scalar) { return true }
        switch scalar.value {
        case 0xFE00...0xFE0F, 0x200D, 0xE0020...0xE007F: return true  // emoji sequence tails
        default: break
        }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
             .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return true
        default:
            return false
        }
    }

    /// Whether a name may end before `scalar`: a scalar that is no word scalar, a `.`, or
    /// one of a script written without spaces (田中さん@tanakaへ: the mention ends at へ).
    /// The highlighter's one rule for where a name ends, as `mayPrecedePrefix` is for where
    /// a prefix starts.
    static func mayFollowName(_ scalar: Unicode.Scalar) -> Bool {
        !isWordScalar(scalar) || widthFolded(scalar) == "." || isUnspacedScript(scalar)
    }

    /// Ideographs (Han), kana (hiragana, katakana, half-width katakana, the prolonged sound
    /// mark), Hangul (syllables and jamo) and Bopomofo: Japanese, Chinese and often Korean
    /// put no space between words, so a word of them next to a prefix or a name is a
    /// boundary, as a space is in English.
    static func isUnspacedScript(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F, 0x1B000...0x1B16F: return true  // kana
        case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xD7B0...0xD7FF,
             0xFFA0...0xFFDC: return true  // Hangul
        case 0x3100...0x312F, 0x31A0...0x31BF: return true  // Bopomofo
        default: return scalar.value >= 0x2E80 && scalar.properties.isIdeographic
        }
    }

    /// Full-width ASCII (`＠`, `＃`, `：`) as ASCII; everything else as is.
    static func widthFolded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard (0xFF01...0xFF5E).contains(scalar.value) else { return scalar }
        return Unicode.Scalar(scalar.value - 0xFEE0) ?? scalar
    }
}
