/// What a key the input method did not consume means to the composer.
///
/// Only these keys are routed (and filtered through the IM by the router itself); every
/// other key goes to the text view untouched. Enter sends, Shift+Enter breaks the line —
/// the chat-app convention — and both only after the IM has declined the key, so Enter
/// while composing confirms the composition instead.
public enum KeyCommand: Equatable, Sendable {
    case send
    case newline

    /// Key names are GDK keyval names ("Return", "KP_Enter", "ISO_Enter").
    public init?(keyName: String, shift: Bool) {
        guard ["Return", "KP_Enter", "ISO_Enter"].contains(keyName) else { return nil }
        self = shift ? .newline : .send
    }
}
