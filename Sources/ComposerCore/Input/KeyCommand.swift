/// What a key the composer routes means to it.
///
/// Only these keys are routed (and filtered through the IM by the router itself); every
/// other key goes to the text view untouched. Enter sends, Shift+Enter breaks the line —
/// the chat-app convention — but only once the input method has had the key.
public enum KeyCommand: Equatable, Sendable {
    case send
    case newline
    /// With the completion list open: Up, Down, Tab or Enter, Escape.
    case completionPrevious
    case completionNext
    case completionAccept
    case completionClose
    /// Up in an empty input: edit the last sent message (as in the chat apps people use).
    case editLastSent
    /// Escape while editing the last sent message: leave it as it was.
    case cancelEdit

    static let enterKeys: Set<String> = ["Return", "KP_Enter", "ISO_Enter"]

    /// Key names are GDK keyval names ("Return", "KP_Enter", "Up", "Tab"…). The list keys
    /// are routed only while the completion list is open; otherwise they stay the text
    /// view's (Up moves the caret, Tab moves focus).
    /// `canEditLastSent`: the input is empty and a message was sent (Up is routed);
    /// `editingLastSent`: an edit of it is in progress (Escape is routed).
    public init?(keyName: String, shift: Bool, completionOpen: Bool = false,
                 canEditLastSent: Bool = false, editingLastSent: Bool = false) {
        if completionOpen {
            switch keyName {
            case "Up", "KP_Up": self = .completionPrevious; return
            case "Down", "KP_Down": self = .completionNext; return
            case "Tab", "KP_Tab", "ISO_Left_Tab": self = .completionAccept; return
            case "Escape": self = .completionClose; return
            case _ where Self.enterKeys.contains(keyName) && !shift: self = .completionAccept; return
            default: break
            }
        }
        if canEditLastSent, !shift, keyName == "Up" || keyName == "KP_Up" { self = .editLastSent; return }
        if editingLastSent, keyName == "Escape" { self = .cancelEdit; return }
        guard Self.enterKeys.contains(keyName) else { return nil }
        self = shift ? .newline : .send
    }

    /// What happens to a routed key after the input method saw it.
    public enum Outcome: Equatable, Sendable {
        /// The IM consumed it (e.g. Anthy commits its conversion on Enter).
        case inputMethodTookIt
        /// A composition was active when the key arrived. Some engines commit it and yet
        /// report the key as unused (ibus-hangul commits 간 and lets Return through): the
        /// key still only confirms the composition — never send half a word, never send
        /// what the user has not seen committed.
        case confirmedComposition
        case perform(KeyCommand)
    }

    /// - Parameters:
    ///   - inputMethodConsumed: what `gtk_text_view_im_context_filter_keypress` said.
    ///   - wasComposing: whether a non-empty preedit was shown when the key arrived.
    public func outcome(inputMethodConsumed: Bool, wasComposing: Bool) -> Outcome {
        if inputMethodConsumed { return .inputMethodTookIt }
        if wasComposing { return .confirmedComposition }
        return .perform(self)
    }
}
