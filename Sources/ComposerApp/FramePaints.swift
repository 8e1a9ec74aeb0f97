import ComposerCore

/// With `--trace-frames` (and a trace): after a key or an input method's answer is traced,
/// the first frame painted after it is traced too (`paint`), one request at a time — what
/// the lab's key → painted frame timing reads. Without them it asks for no frame at all.
final class FramePaints {
    private let enabled: Bool
    private var awaiting = false

    init(enabled: Bool) { self.enabled = enabled }

    /// Whether to wait for the next frame after `event` (then `painted()` when it comes).
    func awaitsFrame(after event: TraceEvent) -> Bool {
        guard enabled, !awaiting else { return false }
        switch event {
        case .key, .preeditStart, .preedit, .preeditEnd, .commit, .edit:
            awaiting = true
            return true
        default:
            return false
        }
    }

    func painted() { awaiting = false }
}
