import ComposerCore
import Foundation

/// How long an engine took to answer each key, measured in the app on its monotonic clock
/// (the trace's `t`, milliseconds since the app started): from the app's `key` line to the
/// first preedit change and to the first commit that came before the next key, and from the
/// key to the first frame painted after that answer (`paint`, traced with `--trace-frames`):
/// when the user could see it. A key the engine answered with neither is not counted.
public struct KeyTiming: Sendable, Equatable, Codable {
    /// Key → first `preedit-start` or `preedit` line, per key (ms).
    public var toPreedit: [Int] = []
    /// Key → first `commit` line, per key (ms).
    public var toCommit: [Int] = []
    /// Key → the first `paint` after its first answer (preedit or commit), per key (ms);
    /// the frame may come after the next key: it still shows this key's answer first.
    public var toPaint: [Int] = []

    public init(toPreedit: [Int] = [], toCommit: [Int] = [], toPaint: [Int] = []) {
        self.toPreedit = toPreedit
        self.toCommit = toCommit
        self.toPaint = toPaint
    }

    /// The keys of one trace (JSON Lines, as `ime-composer --trace` writes it) from its
    /// non-blank line `first` (0-based; `TraceLog.lineCount`) on: a scenario's keys, not the session's start-up and engine probe.
    /// Lines that are not JSON objects with `ev` and `t` are skipped.
    public init(trace text: String, fromLine first: Int = 0) {
        // Counted as the inspector counts (`AnswerTiming`); only `ev` and `t` matter here.
        var timing = AnswerTiming()
        let lines = text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.dropFirst(first)
        for (index, line) in lines.enumerated() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let name = object["ev"] as? String, let t = (object["t"] as? NSNumber)?.intValue else { continue }
            let event: TraceEvent? = switch name {
            case "key": .key(keyval: "", consumed: nil)
            case "preedit-start": .preeditStart
            case "preedit": .preedit(.empty)
            case "commit": .commit("")
            case "paint": .paint
            default: nil
            }
            if let event { timing.record(event, t: t, row: index) }
        }
        toPreedit = timing.toPreedit
        toCommit = timing.toCommit
        toPaint = timing.toPaint
    }

    public mutating func add(_ other: KeyTiming) {
        toPreedit += other.toPreedit
        toCommit += other.toCommit
        toPaint += other.toPaint
    }

    /// Median and 90th percentile (nearest rank) of `values`, nil when there are none.
    public static func summary(_ values: [Int]) -> (median: Int, p90: Int)? {
        TimingSummary(values).map { ($0.median, $0.p90) }
    }
}
