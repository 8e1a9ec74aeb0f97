/// The last events of a session that is not traced, for the inspector to show what led to
/// the moment it opened: the composition in progress from its first key. Plain values in a
/// ring buffer, nothing formatted or written: O(1) per event.
public struct RecentEvents {
    public static let defaultCapacity = 4_000
    private var history: BoundedHistory<(t: Int, event: TraceEvent)>

    public init(capacity: Int = RecentEvents.defaultCapacity) {
        history = BoundedHistory(capacity: capacity)
    }

    public mutating func append(_ event: TraceEvent, t: Int) {
        history.append((t, event))
    }

    /// Oldest first.
    public var events: [(t: Int, event: TraceEvent)] { history.elements }
}

extension TraceEvent {
    /// Whether an untraced session keeps it for the inspector: what the input method and
    /// the user did (keys, the composition, commits, surrounding text, focus, clicks,
    /// sends, the daemon's loss), not the composer's own reports (settles, edits,
    /// decorations, layout), which cost every keystroke and follow from these.
    public var isKeptBeforeTheTrace: Bool {
        switch self {
        case .key, .preeditStart, .preedit, .preeditEnd, .commit, .surroundingRetrieve, .surroundingDelete, .focus,
             .press, .send, .inputMethodLost:
            true
        default:
            false
        }
    }
}
