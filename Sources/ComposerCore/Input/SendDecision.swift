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
    /// Over the length limit by this many units (soft mode; or hard mode after an undo).
    case overLimit(by: Int)
}

extension ComposerModel {
    /// Refuses while composing, when the text is blank, or when it is over `limit`;
    /// otherwise sends the text exactly as typed (not trimmed: leading indentation may be
    /// meaningful).
    public func sendDecision(limit: LengthLimit? = nil) -> SendDecision {
        if let refusal = sendRefusal(limit: limit) { return .refuse(refusal) }
        return .send(text)
    }

    /// The reason not to send, without building the message: cheap on a long draft.
    public func sendRefusal(limit: LengthLimit? = nil) -> SendRefusal? {
        if isComposing { return .composing }
        if document.isBlank { return .empty }
        if let limit {
            let over = document.count(in: limit.unit) - limit.limit
            if over > 0 { return .overLimit(by: over) }
        }
        return nil
    }

    public func canSend(limit: LengthLimit? = nil) -> Bool { sendRefusal(limit: limit) == nil }
}
