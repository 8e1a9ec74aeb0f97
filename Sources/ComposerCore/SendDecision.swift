/// What pressing Send should do, decided here so the GTK layer decides nothing.
public enum SendDecision: Equatable, Sendable {
    case send(String)
    case refuse(SendRefusal)
}

public enum SendRefusal: Equatable, Sendable {
    /// Uncommitted preedit text is visible: Return belongs to the input method.
    case composing
    /// Only whitespace or newlines: nothing worth sending.
    case empty
}

extension ComposerModel {
    /// Refuses while composing or when the text is blank; otherwise sends the text
    /// exactly as typed (not trimmed: leading indentation may be meaningful).
    public func sendDecision() -> SendDecision {
        if isComposing { return .refuse(.composing) }
        let text = self.text
        if text.allSatisfy({ $0.isWhitespace || $0.isNewline }) { return .refuse(.empty) }
        return .send(text)
    }

    public var canSend: Bool {
        if case .send = sendDecision() { return true }
        return false
    }
}
