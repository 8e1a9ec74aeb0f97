/// The inspector's log: every trace event of the session as a row, the anomaly rules run
/// over them, the last `capacity` rows kept (a long session stays fluid), pause and clear.
///
/// Pure: the window's inspector pane shows it, a test or a saved trace fills it the same way.
public final class InspectorLog {
    public static let defaultCapacity = 10_000
    public let capacity: Int
    /// While paused no row is added (the rules still follow the session, so flags stay right).
    public var isPaused = false
    /// Rows `storage[start...]`: dropping the oldest is moving `start`, compacted now and then.
    private var storage: [InspectorRow] = []
    private var start = 0
    private var detector = AnomalyDetector()
    private var nextNumber = 1
    /// Every event since the session started, for "Save transcript…" (the trace as written).
    public private(set) var transcript: [(t: Int, event: TraceEvent)] = []
    /// The guided checklist, judged from every row.
    public private(set) var checklist = ChecklistJudge()
    /// The row number each transcript line was shown as.
    private var transcriptRowNumbers: [Int] = []

    /// The transcript from its start through the row numbered `number`: a replayable
    /// recording of the session up to there (the checklist's failed attempts).
    public func transcript(throughRow number: Int) -> [(t: Int, event: TraceEvent)] {
        let end = transcriptRowNumbers.firstIndex { $0 > number } ?? transcript.count
        return Array(transcript.prefix(end))
    }
    /// The session's settings (its `start` line).
    public private(set) var settings: TranscriptSettings?
    /// Key → answer → painted frame, for every key of the session (`AnswerTiming`).
    public private(set) var timing = AnswerTiming()
    /// The engine the header names now: each key is counted for it.
    public var engine: String?
    /// Key rows whose frame was painted: row number → milliseconds from the key.
    public private(set) var paintTimes: [Int: Int] = [:]
    /// The key rows the last `append` gave a paint time (the pane redraws them).
    public private(set) var lastPainted: [Int] = []

    public init(capacity: Int = InspectorLog.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    public var count: Int { storage.count - start }
    /// Row `index`, with its paint time once its frame was painted (a key's).
    public subscript(index: Int) -> InspectorRow {
        var row = storage[start + index]
        row.paintedAfter = paintTimes[row.number]
        return row
    }
    /// Every row, with the paint times known now.
    public var rows: [InspectorRow] { (0..<count).map { self[$0] } }

    /// Adds the row for `event` (unless paused) and returns it; the oldest row goes once
    /// the log is full. `inTranscript: false` for an event from before the trace started
    /// (`RecentEvents`): shown and checked by the rules, but not in the saved transcript,
    /// which must begin with its `start` line to replay.
    @discardableResult
    public func append(_ event: TraceEvent, t: Int, inTranscript: Bool = true) -> InspectorRow? {
        if inTranscript {
            transcript.append((t, event))
            transcriptRowNumbers.append(nextNumber)
        }
        if case .start(_, _, let recorded) = event { settings = recorded }
        var surroundings = Self.surroundings(for: event, in: detector.context)
        if settings?.inputMethodFacing.surrounding == .off { surroundings?.refused = true }
        var anomalies = detector.inspect(event)
        var sinceKey: Int?
        lastPainted = []
        switch timing.record(event, t: t, row: nextNumber, engine: engine) {
        case .answer(let since?):
            sinceKey = since
            if since >= AnswerTiming.slow {
                anomalies.append(Anomaly(id: "slow-answer",
                                         explanation: "the input method answered \(since) ms after the key (\(AnswerTiming.slow) ms or more is felt as lag)",
                                         reference: "ibus/ibus#2857"))
            }
        case .painted(let keys):
            for key in keys { paintTimes[key.row] = key.milliseconds }
            lastPainted = keys.map(\.row)
        default:
            break
        }
        guard !isPaused else { return nil }
        var row = InspectorRow(number: nextNumber, t: t, event: event, kind: InspectorKind(event),
                               anomalies: anomalies, surroundings: surroundings)
        row.sinceKey = sinceKey
        checklist.judge(row)
        nextNumber += 1
        storage.append(row)
        if count > capacity { start += 1 }
        if start > capacity / 2 {
            storage.removeFirst(start)
            start = 0
        }
        return row
    }

    /// Empties the log (the rules keep following the session).
    public func clear() {
        storage.removeAll()
        start = 0
        checklist.reset()
    }

    /// Whether `row` passes the filter: one of `kinds` and, if `search` is not empty, its
    /// summary or raw line contains it (case-insensitively).
    public static func matches(_ row: InspectorRow, kinds: Set<InspectorKind>, search: String) -> Bool {
        guard kinds.contains(row.kind) else { return false }
        guard !search.isEmpty else { return true }
        return row.summary.localizedCaseInsensitiveContains(search) || row.line.localizedCaseInsensitiveContains(search)
            || row.anomalies.contains { $0.line.localizedCaseInsensitiveContains(search) }
    }

    /// What GTK's text view answers the input method: the line around the caret, the caret
    /// in characters and in UTF-8 bytes; for a deletion also what goes and what stays.
    static func surroundings(for event: TraceEvent, in context: AnomalyContext) -> InspectorRow.Surroundings? {
        let text = context.text
        let caret = min(context.caret, text.count)
        let lineStart = text[..<caret].lastIndex(of: "\n").map { $0 + 1 } ?? 0
        let lineEnd = text[caret...].firstIndex(of: "\n") ?? text.count
        let line = string(text[lineStart..<lineEnd])
        let prefix = string(text[lineStart..<caret])
        switch event {
        case .surroundingRetrieve:
            return .init(text: line, caretCharacters: caret - lineStart, caretBytes: prefix.utf8.count, deleted: nil, after: nil)
        case let .surroundingDelete(offset, count):
            let lower = max(0, min(text.count, caret + offset)), upper = max(lower, min(text.count, caret + offset + count))
            var after = text
            after.removeSubrange(lower..<upper)
            return .init(text: string(text), caretCharacters: caret, caretBytes: string(text[..<caret]).utf8.count,
                         deleted: string(text[lower..<upper]), after: string(after))
        default:
            return nil
        }
    }

    private static func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }
}
