/// `--trace-frames`: after a key or an input method's answer is traced, the composer asks
/// the window for the next frame (`Effect.awaitFrame`), one request at a time, and traces
/// `paint` when the window says it was painted (`InputEvent.framePainted`): the lab's key →
/// painted frame timing. Off, it asks for no frame at all.
struct FramePaintTracing {
    let enabled: Bool
    private var awaiting = false

    init(enabled: Bool) { self.enabled = enabled }

    /// Whether to ask for the next frame after tracing `event`.
    mutating func asksFrame(after event: TraceEvent) -> Bool {
        guard enabled, !awaiting else { return false }
        switch event {
        case .key, .preeditStart, .preedit, .preeditEnd, .commit, .edit:
            awaiting = true
            return true
        default:
            return false
        }
    }

    mutating func painted() { awaiting = false }
}
