/// The trace's text step: reports the committed text when it changed.
///
/// It reports at most one `text` event per settle and only on change (text, caret
/// or selection), including while composing; the snapshot holds committed text
/// only, never the preedit. The first settle always reports, which gives the one
/// `text` event before `ready`.
public final class TextChangeReporter: SettleStep {
    public let name = "trace"
    private var lastReported: TextSnapshot?
    private var seenSequence = -1

    public init() {}

    /// Takes the model as reported (a trace starting now reports it itself) and returns it.
    public func prime(_ model: ComposerModel) -> TraceEvent {
        let snapshot = model.snapshot
        lastReported = snapshot
        seenSequence = model.log.lastSequence
        return .text(snapshot)
    }

    public func settle(_ model: ComposerModel, into output: inout SettleOutput) {
        // Building a snapshot copies the whole text: only when an edit happened since the
        // last settle or the selection moved, so an idle settle costs nothing.
        let edited = !model.log.edits(after: seenSequence).isEmpty
        seenSequence = model.log.lastSequence
        if !edited, let last = lastReported, last.selection == model.selection { return }
        let snapshot = model.snapshot
        guard snapshot != lastReported else { return }
        lastReported = snapshot
        output.events.append(.text(snapshot))
    }
}
