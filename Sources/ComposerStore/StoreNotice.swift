/// What the user must know about the profile's store: shown in the window (and on
/// stderr), never a reason to stop typing.
public enum StoreNotice: Equatable, Sendable, CustomStringConvertible {
    /// The database could not be read; it was renamed and a fresh one started.
    case movedAside(path: String, movedTo: String, reason: String)
    /// The database cannot be opened or written (a full disk, a read-only profile):
    /// drafts and messages are kept in memory until it can.
    case cannotSave(path: String, reason: String)

    public var description: String {
        switch self {
        case let .movedAside(path, movedTo, reason):
            "The saved draft and messages in \(path) could not be read (\(reason)). "
                + "The file was moved to \(movedTo) and a new one was started."
        case let .cannotSave(path, reason):
            "Your draft cannot be saved to \(path) (\(reason)). Typing goes on; it is saved as soon as it can be."
        }
    }
}
