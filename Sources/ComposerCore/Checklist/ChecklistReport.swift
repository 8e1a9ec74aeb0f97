/// The checklist as Markdown for a bug tracker ("Copy report"): the environment, the
/// engine and versions, each item's verdict with its reason or what to do, and for a
/// failed item the rows of the attempt that failed.
public enum ChecklistReport {
    public static func markdown(environment: [(String, String)], words: ChecklistWords, limit: LengthLimit,
                                judge: ChecklistJudge, rows: some Collection<InspectorRow>,
                                transcripts: [ChecklistItem: String] = [:]) -> String {
        var out = "## Input method checklist (ime-composer inspector)\n\n### Environment\n\n"
        for (name, value) in environment { out += "- \(name): \(value)\n" }
        out += "- what to type: \(words.source)\n"
        out += "- limit: \(limit.limit) \(limit.unit.rawValue), \(limit.mode.rawValue)\n"
        let results = ChecklistItem.allCases.map { ($0, judge.result($0)) }
        let passed = results.filter { if case .passed = $0.1.verdict { true } else { false } }.count
        let failed = results.filter { if case .failed = $0.1.verdict { true } else { false } }.count
        out += "\n### Items: \(passed) passed, \(failed) failed, \(results.count - passed - failed) not tried\n\n"
        for (item, result) in results {
            out += "- \(result.verdict.symbol) **\(item.title)**: " + line(item, result.verdict, words, limit) + "\n"
        }
        let failures = results.filter { if case .failed = $0.1.verdict { true } else { false } }
        for (item, result) in failures {
            out += "\n### \(item.title): the rows that failed\n\n"
            if let file = transcripts[item] { out += "Transcript: `\(file)` (`ime-composer replay \(file)`)\n\n" }
            let range = result.rows ?? 0...0
            for row in rows where range.contains(row.number) {
                out += "- #\(row.number) \(row.t) ms: \(row.summary)" + row.anomalies.map { " ⚠ \($0.line)" }.joined() + "\n"
            }
        }
        return out
    }

    /// "passed: …", "failed: …", "not yet tried — …" (what to do).
    public static func line(_ item: ChecklistItem, _ verdict: ChecklistVerdict, _ words: ChecklistWords, _ limit: LengthLimit) -> String {
        switch verdict {
        case .passed(let reason): "passed: \(reason)"
        case .failed(let reason): "failed: \(reason)"
        case .notTried: "not yet tried — \(item.instruction(words, limit: limit))"
        }
    }
}
