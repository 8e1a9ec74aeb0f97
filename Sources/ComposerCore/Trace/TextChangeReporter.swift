/// The trace's text step: reports the committed text when it changed.
///
/// It reports at most one `text` event per settle and only on change (text, caret
/// or selection), including while composing; the snapshot holds committed text
/// only, never the preedit. The first settle always reports, which gives the one
/// `text` event before `ready`, with the whole text (a replay starts from it).
///
/// A draft longer than `fullTextLimit` scalars is reported by its length after that: a
/// copy of a 10 MB draft on every keystroke made tracing O(n) per key; the `edit` lines
/// say what changed, in the size of the change.
public final class TextChangeReporter: SettleStep {
    public let name = "trace"
    /// Up to this many scalars a `text` line carries the text itself.
    public static let fullTextLimit = 65_536
    private var lastReported: TextSnapshot?
    /// The last length-only report (length, selection).
    private var lastLength: (Int, TextSelection)?
    private var seenSequence = -1

    public init() {}

    /// Takes the model as reported (a trace starting now reports it itself) and returns it.
    public func prime(_ model: ComposerModel) -> TraceEvent {
        let snapshot = model.snapshot
        lastReported = snapshot
        lastLength = nil
        seenSequence = model.log.lastSequence
        return .text(snapshot)
    }

    public func settle(_ model: ComposerModel, into output: inout SettleOutput) {
        // Building a snapshot copies the whole text: only when an edit happened since the
        // last settle or the selection moved, so an idle settle costs nothing.
        let edited = !model.log.edits(after: seenSequence).isEmpty
        seenSequence = model.log.lastSequence
        if !edited, let last = lastReported, last.selection == model.selection { return }
        let length = model.document.scalarCount
        if length > Self.fullTextLimit, lastReported != nil || lastLength != nil {
            if !edited, let last = lastLength, last.0 == length, last.1 == model.selection { return }
            lastLength = (length, model.selection)
            lastReported = nil
            output.events.append(.textLength(length: length, caret: model.selection.caret, selection: model.selection))
            return
        }
        lastLength = nil
        let snapshot = model.snapshot
        guard snapshot != lastReported else { return }
        lastReported = snapshot
        output.events.append(.text(snapshot))
    }
}
