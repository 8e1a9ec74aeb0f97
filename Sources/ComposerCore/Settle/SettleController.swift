/// Something that acts once input has settled (lesson 002: decide after the toolkit
/// finished the current event, never inside it).
///
/// Controllers run in a fixed order at each settle — limit → overflow → completion
/// → highlighting → trace — so that, e.g., the trace reports the text after the
/// limit trimmed it. Each may append trace events for its own decisions.
public protocol SettleController: AnyObject {
    /// Short stable name, for diagnostics.
    var name: String { get }
    func settle(_ model: ComposerModel, events: inout [TraceEvent])
}
