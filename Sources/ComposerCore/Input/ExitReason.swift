/// Why the composer exited, recorded in the trace's final `exit` event.
public enum ExitReason: String, Sendable, CaseIterable {
    case close
    case ctrlQ = "ctrl-q"
    case sigterm
    case sigint
}
