/// The composer's commands with a button or a shortcut: Send, Trim to limit, Quit. The
/// window turns them into actions; what they mean, when they can run and which keys run
/// them is decided here.
public enum ComposerCommand: String, CaseIterable, Sendable {
    case send
    case trim
    case quit

    /// A Control shortcut by the Latin letter of its key (with Shift or not). Matching is by
    /// letter so a key that types another script in the active layout still runs it.
    public struct Shortcut: Equatable, Sendable {
        public let letter: Character
        public let shift: Bool
        public let command: ComposerCommand

        /// GTK's accelerator syntax ("<Control><Shift>t").
        public var accelerator: String { "<Control>\(shift ? "<Shift>" : "")\(letter)" }
    }

    /// Ctrl+Q quits, Ctrl+Shift+T trims. Send has Return (`KeyCommand`) and its button.
    public static let shortcuts = [
        Shortcut(letter: "q", shift: false, command: .quit),
        Shortcut(letter: "t", shift: true, command: .trim),
    ]

    /// The command of Control(+Shift)+`letter`, if any.
    public static func shortcut(letter: Character, shift: Bool) -> ComposerCommand? {
        shortcuts.first { $0.letter == letter && $0.shift == shift }?.command
    }
}

extension ComposerModel {
    /// Trim can run: the text is over `limit` and no composition is in progress (a cut
    /// never lands in the middle of one).
    public func canTrim(limit: LengthLimit) -> Bool {
        !isComposing && document.count(in: limit.unit) > limit.limit
    }
}
