/// How long the input method took to answer each key, and when the answer was on screen:
/// key → first preedit change, key → first commit (each before the next key), and key →
/// the first frame painted after its first answer (`paint`). Read from a session's events
/// as they come, on the app's monotonic clock; the inspector's Timing view and the lab's
/// matrix report both count this way.
///
/// Slow answers are real bugs (ibus/ibus#2857: lag that builds up over hours), so an answer
/// later than `slow` milliseconds after its key is flagged.
public struct AnswerTiming: Sendable {
    /// An answer this many milliseconds after its key or later is slow.
    public static let slow = 50

    /// One key and what became of it.
    public struct Key: Sendable, Equatable {
        /// The key's row (`InspectorRow.number`, or the line index for a trace).
        public let row: Int
        public let t: Int
        /// The engine that had the key (the inspector's header), if known.
        public let engine: String?
        public var toPreedit: Int?
        public var toCommit: Int?
        public var toPaint: Int?
    }

    public private(set) var keys: [Key] = []
    /// The current key's index in `keys`, until the next key.
    private var current: Int?
    /// Keys answered and not painted yet.
    private var unpainted: [Int] = []

    public init() {}

    /// What one event meant for the timing.
    public enum Reading: Sendable, Equatable {
        case none
        /// An input-method answer, this many milliseconds after its key (nil: no key yet).
        case answer(sinceKey: Int?)
        /// A painted frame: these keys (by row) were on screen after these milliseconds.
        case painted([(row: Int, milliseconds: Int)])

        public static func == (lhs: Reading, rhs: Reading) -> Bool {
            switch (lhs, rhs) {
            case (.none, .none): true
            case let (.answer(a), .answer(b)): a == b
            case let (.painted(a), .painted(b)): a.map(\.row) == b.map(\.row) && a.map(\.milliseconds) == b.map(\.milliseconds)
            default: false
            }
        }
    }

    /// Takes the event at `t` (its row `row`), with the engine in use.
    @discardableResult
    public mutating func record(_ event: TraceEvent, t: Int, row: Int, engine: String? = nil) -> Reading {
        switch event {
        case .key:
            keys.append(Key(row: row, t: t, engine: engine))
            current = keys.count - 1
            return .none
        case .preeditStart, .preedit, .preeditEnd, .commit, .surroundingRetrieve, .surroundingDelete:
            guard let current else { return .answer(sinceKey: nil) }
            let since = t - keys[current].t
            let first = keys[current].toPreedit == nil && keys[current].toCommit == nil
            switch event {
            case .preeditStart, .preedit:
                if keys[current].toPreedit == nil { keys[current].toPreedit = since }
            case .commit:
                if keys[current].toCommit == nil { keys[current].toCommit = since }
            default:
                return .answer(sinceKey: since)
            }
            if first { unpainted.append(current) }
            return .answer(sinceKey: since)
        case .paint:
            let painted = unpainted.map { index -> (row: Int, milliseconds: Int) in
                keys[index].toPaint = t - keys[index].t
                return (keys[index].row, t - keys[index].t)
            }
            unpainted = []
            return .painted(painted)
        default:
            return .none
        }
    }

    public var toPreedit: [Int] { keys.compactMap(\.toPreedit) }
    public var toCommit: [Int] { keys.compactMap(\.toCommit) }
    public var toPaint: [Int] { keys.compactMap(\.toPaint) }
}

/// Median, 90th percentile (nearest rank), maximum and a histogram of some timings.
public struct TimingSummary: Sendable, Equatable {
    public let count: Int
    public let median: Int
    public let p90: Int
    public let max: Int
    /// Counts per bucket: under 5, 10, 20, 50, 100 ms, and 100 ms or more.
    public let histogram: [Int]
    public static let bucketLimits = [5, 10, 20, 50, 100]

    /// Nil when there are no values.
    public init?(_ values: [Int]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func rank(_ p: Double) -> Int { sorted[Swift.max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)] }
        count = sorted.count
        median = rank(0.5)
        p90 = rank(0.9)
        max = sorted.last!
        var buckets = Array(repeating: 0, count: Self.bucketLimits.count + 1)
        for value in sorted {
            buckets[Self.bucketLimits.firstIndex { value < $0 } ?? Self.bucketLimits.count] += 1
        }
        histogram = buckets
    }

    /// The buckets' names: "<5", "<10", …, "≥100" (ms).
    public static var bucketNames: [String] { bucketLimits.map { "<\($0)" } + ["≥\(bucketLimits.last!)"] }
}

/// The inspector's Timing view: for the session and for each engine, key → first preedit,
/// key → commit and key → painted frame, each summarised with its slow keys (the rows to
/// look at).
public struct TimingReport: Sendable {
    public struct Measure: Sendable {
        /// "key → first preedit", "key → commit", "key → painted frame".
        public let name: String
        public let summary: TimingSummary?
        /// Keys `AnswerTiming.slow` ms or slower, slowest first (at most ten): row and ms.
        public let slow: [(row: Int, milliseconds: Int)]
        /// The slowest key's row.
        public let slowestRow: Int?
    }

    public struct Section: Sendable {
        /// "All keys", or the engine's name.
        public let title: String
        public let measures: [Measure]
    }

    public let sections: [Section]

    public init(_ timing: AnswerTiming) {
        var sections = [Self.section("All keys", timing.keys)]
        let engines = timing.keys.compactMap(\.engine).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if engines.count > 1 || (engines.count == 1 && timing.keys.contains { $0.engine == nil }) {
            sections += engines.map { engine in Self.section(engine, timing.keys.filter { $0.engine == engine }) }
        }
        self.sections = sections
    }

    private static func section(_ title: String, _ keys: [AnswerTiming.Key]) -> Section {
        func measure(_ name: String, _ value: (AnswerTiming.Key) -> Int?) -> Measure {
            let timed = keys.compactMap { key in value(key).map { (row: key.row, milliseconds: $0) } }
            let slow = timed.filter { $0.milliseconds >= AnswerTiming.slow }.sorted { $0.milliseconds > $1.milliseconds }
            return Measure(name: name, summary: TimingSummary(timed.map(\.milliseconds)), slow: Array(slow.prefix(10)),
                           slowestRow: timed.max { $0.milliseconds < $1.milliseconds }?.row)
        }
        return Section(title: title, measures: [measure("key → first preedit", \.toPreedit),
                                                measure("key → commit", \.toCommit),
                                                measure("key → painted frame", \.toPaint)])
    }

    /// The report as plain lines (what the view shows, without its links).
    /// A piece of a line: plain text, a heading, or a link to a row (the Timing view makes
    /// links of them; the plain lines show their text).
    public enum Part: Equatable, Sendable {
        case text(String)
        case heading(String)
        case row(Int, String)

        public var text: String {
            switch self {
            case .text(let text), .heading(let text), .row(_, let text): text
            }
        }
    }

    /// The report, line by line, in parts: one layout for the Timing view and plain text.
    public var parts: [[Part]] {
        var lines: [[Part]] = []
        for section in sections {
            lines.append([.heading(section.title)])
            for measure in section.measures {
                guard let summary = measure.summary else {
                    lines.append([.text("  \(measure.name): no key yet")])
                    continue
                }
                lines.append([.text("  \(measure.name): \(summary.count) keys, median \(summary.median) ms, p90 \(summary.p90) ms, "
                    + "max \(summary.max) ms")] + (measure.slowestRow.map { [.text(" ("), .row($0, "#\($0)"), .text(")")] } ?? []))
                let peak = max(1, summary.histogram.max() ?? 1)
                lines.append([.text("    " + zip(TimingSummary.bucketNames, summary.histogram).map { name, count in
                    "\(name) " + String(repeating: "▇", count: (count * 8 + peak - 1) / peak) + " \(count)"
                }.joined(separator: "  "))])
                if !measure.slow.isEmpty {
                    var line: [Part] = [.text("    slow (≥\(AnswerTiming.slow) ms): ")]
                    for (index, key) in measure.slow.enumerated() {
                        if index > 0 { line.append(.text(", ")) }
                        line.append(.row(key.row, "#\(key.row) \(key.milliseconds) ms"))
                    }
                    lines.append(line)
                }
            }
        }
        return lines
    }

    /// The report as plain text lines.
    public var lines: [String] { parts.map { $0.map(\.text).joined() } }
}
