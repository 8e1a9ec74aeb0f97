/// Something that decides once input has settled: after the toolkit finished the current
/// event, never inside it.
///
/// A step is a function of the model: it reads the text as the settle found it (or
/// as the cuts of an earlier phase left it) and its own memory of what it decided before,
/// and appends its decisions — trace events and effects — to the output. It changes
/// nothing itself: the pipeline's caller applies a text edit to the model before the next
/// step looks, and hands every effect on to the window.
///
/// Steps run in a fixed order at each settle — limit → overflow → completion
/// → highlighting → invisible controls → trace — so that, e.g., the trace reports the
/// text after the limit trimmed it.
public protocol SettleStep: AnyObject {
    /// Short stable name, for diagnostics.
    var name: String { get }
    func settle(_ model: ComposerModel, into output: inout SettleOutput)
}

/// What steps decided at a settle, in order.
public struct SettleOutput: Equatable, Sendable {
    public var events: [TraceEvent] = []
    public var effects: [SettleEffect] = []

    public init(events: [TraceEvent] = [], effects: [SettleEffect] = []) {
        self.events = events
        self.effects = effects
    }
}
