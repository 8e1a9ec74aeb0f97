/// Runs the rules over a trace as it is written, keeping what they need to know (the
/// committed text, the caret, the composition) from the trace itself: the same flags for a
/// live session and for a saved transcript.
public struct AnomalyDetector: Sendable {
    public private(set) var context = AnomalyContext()

    public init() {}

    /// The flags for `event`, then the context moves past it.
    public mutating func inspect(_ event: TraceEvent) -> [Anomaly] {
        let flags = AnomalyRules.all.compactMap { $0(context, event) }
        advance(past: event)
        return flags
    }

    private mutating func advance(past event: TraceEvent) {
        switch event {
        case .key:
            context.commitSinceKey = nil
            context.lastCommitRange = nil
            context.compositionInterrupted = nil
            context.composingAtLastKey = context.composing
        case .preeditStart:
            context.composing = true
        case .preedit(let preedit):
            context.previousPreedit = (preedit.text, preedit.cursor)
            context.preedit = preedit.text
            if !preedit.text.isEmpty { context.composing = true }
            context.preeditChangedSinceCommit = true
        case .preeditEnd:
            context.composing = false
            context.preedit = ""
            context.previousPreedit = nil
            context.preeditChangedSinceCommit = true
            context.compositionInterrupted = nil
        case .commit(let text):
            context.commitSinceKey = text
            context.preeditChangedSinceCommit = false
            context.forwardedKeyEditWhileComposing = false
        case .edit(let edit):
            apply(edit)
            if edit.origin == .imCommit, !edit.inserted.isEmpty {
                let start = edit.range.lowerBound
                context.lastCommitRange = start..<(start + edit.inserted.unicodeScalars.count)
            }
            if edit.origin == .key, context.composing, !context.preedit.isEmpty {
                context.forwardedKeyEditWhileComposing = true
            }
        case let .selection(_, caret):
            context.caret = min(caret, context.text.count)
            if !context.preedit.isEmpty { context.compositionInterrupted = "the caret moved (the input method is reset)" }
        case .text(let snapshot):
            context.text = Array(snapshot.text.unicodeScalars)
            context.caret = snapshot.caret
        case let .textLength(_, caret, _):
            context.caret = min(caret, context.text.count)
        case .inputMethodLost:
            context.composing = false
            context.preedit = ""
            context.previousPreedit = nil
        case .focus(let isIn):
            if !isIn, !context.preedit.isEmpty { context.compositionInterrupted = "the focus left" }
        default:
            break
        }
    }

    /// The edit on the rebuilt text; the caret moves with it as GTK's does.
    private mutating func apply(_ edit: Edit) {
        let lower = min(edit.range.lowerBound, context.text.count)
        let upper = min(lower + edit.removed.unicodeScalars.count, context.text.count)
        let inserted = Array(edit.inserted.unicodeScalars)
        context.text.replaceSubrange(lower..<upper, with: inserted)
        if context.caret >= upper {
            context.caret += inserted.count - (upper - lower)
        } else if context.caret > lower {
            context.caret = lower
        }
        if !inserted.isEmpty, context.caret == lower { context.caret = lower + inserted.count }
    }
}
