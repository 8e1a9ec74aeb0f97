/// What a row of the inspector is about: its colour and its filter.
public enum InspectorKind: String, Sendable, CaseIterable {
    /// A key press (and whether the input method took it).
    case key
    /// preedit-start, each preedit, preedit-end.
    case preedit
    case commit
    /// The input method reading or deleting the text around the caret.
    case surrounding
    /// A change of the committed text, with its origin.
    case edit
    /// The composer's decisions: limit cuts, overflow, completion, accept, send, layout,
    /// the keyboard.
    case decision
    /// The window: focus, selection, settles, commands, data, ready, start, exit, the
    /// settled text.
    case window

    init(_ event: TraceEvent) {
        switch event {
        case .key: self = .key
        case .preeditStart, .preedit, .preeditEnd: self = .preedit
        case .commit: self = .commit
        case .surroundingRetrieve, .surroundingDelete: self = .surrounding
        case .edit, .diverged: self = .edit
        case .limit, .overflow, .completion, .accept, .send, .layout, .keyboard: self = .decision
        case .start, .ready, .focus, .text, .textLength, .exit, .settle, .selection, .command, .data, .inputMethodLost, .history,
             .paint, .press, .placement:
            self = .window
        }
    }
}

/// One row of the inspector: an event of the trace, when it happened, what it says in one
/// line of plain text, and any anomaly it shows.
public struct InspectorRow: Sendable {
    /// Numbered from 1 in the session (kept when older rows are dropped).
    public let number: Int
    /// Milliseconds since the trace started.
    public let t: Int
    public let event: TraceEvent
    public let kind: InspectorKind
    public let anomalies: [Anomaly]
    /// What the input method saw around the caret at this row (surrounding reads and
    /// deletions): the text before, and for a deletion the text after.
    public let surroundings: Surroundings?

    public struct Surroundings: Sendable, Equatable {
        public let text: String
        /// The caret, in characters (scalars) and in UTF-8 bytes, as GTK answers it.
        public let caretCharacters: Int
        public let caretBytes: Int
        /// For a deletion: the text it deletes and the text it leaves.
        public let deleted: String?
        public let after: String?
        /// `--surrounding off`: the request was not answered (a read got no text, a
        /// deletion did nothing); `text` and the caret are what it would have been.
        public var refused = false
    }

    /// For an input method's answer: milliseconds since the key it answered.
    public var sinceKey: Int?
    /// For a key: milliseconds until the first frame painted after its answer, once painted
    /// (the inspector's log fills it in when it shows the row).
    public var paintedAfter: Int?

    /// The raw trace line.
    public var line: String { event.json(t: t).serialized() }

    /// One line of plain text (never markup: it may hold anything an input method sent).
    public var summary: String {
        InspectorSummary.summary(of: event) + (sinceKey.map { "  +\($0) ms" } ?? "")
            + (paintedAfter.map { "  → painted after \($0) ms" } ?? "")
    }
}
