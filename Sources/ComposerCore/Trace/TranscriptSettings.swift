/// Every setting that changes the composer's decisions, written in the trace's `start`
/// line: with them a trace is a transcript that `ime-composer replay` can run again.
public struct TranscriptSettings: Equatable, Sendable {
    /// `--limit`, `--limit-mode`, `--count`.
    public var limit: LengthLimit
    /// Where people, channels and emoji were read from (`--data`; "" for none).
    public var dataDirectory: String
    /// `--osk-inset`: the simulated on-screen keyboard's height, nil without one.
    public var simulatedKeyboardInset: Int?
    /// `--surrounding`, `--input-purpose`, `--input-hints`: not the composer's decisions but
    /// the engine's, which a rerun must start the same way.
    public var inputMethodFacing: InputMethodFacing

    public init(limit: LengthLimit = LengthLimit(), dataDirectory: String = "", simulatedKeyboardInset: Int? = nil,
                inputMethodFacing: InputMethodFacing = .standard) {
        self.limit = limit
        self.dataDirectory = dataDirectory
        self.simulatedKeyboardInset = simulatedKeyboardInset
        self.inputMethodFacing = inputMethodFacing
    }
}

/// A command given by a button, a shortcut or the completion list (not a routed key,
/// whose meaning the composer works out from the key itself).
public enum TracedCommand: Equatable, Sendable {
    case send
    case trim
    /// Accept completion row `index` (nil: the selected one).
    case accept(index: Int?)
    case completionMove(by: Int)
    case completionClose

    /// The value of the "name" field.
    public var name: String {
        switch self {
        case .send: return "send"
        case .trim: return "trim"
        case .accept: return "accept"
        case .completionMove: return "completion-move"
        case .completionClose: return "completion-close"
        }
    }

    /// The input event it stands for.
    public var inputEvent: InputEvent {
        switch self {
        case .send: return .send
        case .trim: return .trim
        case .accept(let index): return .acceptCompletion(index: index)
        case .completionMove(let delta): return .moveCompletion(by: delta)
        case .completionClose: return .closeCompletion
        }
    }
}

/// What a `data` line says arrived: how many items each completion source has, and the
/// recently accepted ids (they rank first), so that a replay can check it completes from
/// the same data.
public struct TracedData: Equatable, Sendable {
    /// Source name (`people`, `channels`, `emoji`) → its item count, in arrival order.
    public var sources: [(name: String, count: Int)]
    /// Source name → ids, most recent first.
    public var recents: [String: [String]]

    public init(sources: [(name: String, count: Int)], recents: [String: [String]]) {
        self.sources = sources
        self.recents = recents
    }

    public static func == (lhs: TracedData, rhs: TracedData) -> Bool {
        lhs.sources.map(\.name) == rhs.sources.map(\.name) && lhs.sources.map(\.count) == rhs.sources.map(\.count)
            && lhs.recents == rhs.recents
    }
}
