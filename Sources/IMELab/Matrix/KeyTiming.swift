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
        var key: Int?
        var sawPreedit = false, sawCommit = false
        /// Keys answered and not painted yet (their times).
        var answered: [Int] = []
        func answer() {
            if let key, !sawPreedit, !sawCommit { answered.append(key) }
        }
        for line in text.split(separator: "\n").filter({ !$0.allSatisfy(\.isWhitespace) }).dropFirst(first) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let event = object["ev"] as? String, let t = (object["t"] as? NSNumber)?.intValue else { continue }
            switch event {
            case "key":
                key = t
                sawPreedit = false
                sawCommit = false
            case "preedit-start", "preedit":
                answer()
                if let key, !sawPreedit {
                    toPreedit.append(t - key)
                    sawPreedit = true
                }
            case "commit":
                answer()
                if let key, !sawCommit {
                    toCommit.append(t - key)
                    sawCommit = true
                }
            case "paint":
                toPaint += answered.map { t - $0 }
                answered = []
            default:
                break
            }
        }
    }

    public mutating func add(_ other: KeyTiming) {
        toPreedit += other.toPreedit
        toCommit += other.toCommit
        toPaint += other.toPaint
    }

    /// Median and 90th percentile (nearest rank) of `values`, nil when there are none.
    public static func summary(_ values: [Int]) -> (median: Int, p90: Int)? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func rank(_ p: Double) -> Int { sorted[max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)] }
        return (rank(0.5), rank(0.9))
    }
}
