/// The trace's text controller: reports the committed text when it changed.
///
/// It reports at most one `text` event per settle and only on change (text, caret
/// or selection), including while composing; the snapshot holds committed text
/// only, never the preedit. The first settle always reports, which gives the one
/// `text` event before `ready`.
public final class TextChangeReporter: SettleController {
    public let name = "trace"
    private var lastReported: TextSnapshot?

    public init() {}

    public func settle(_ model: ComposerModel, events: inout [TraceEvent]) {
        let snapshot = model.snapshot
        guard snapshot != lastReported else { return }
        lastReported = snapshot
        events.append(.text(snapshot))
    }
}
