/// "Copy as bug report": Markdown a person can paste into an issue — the environment, the
/// settings, and the last composition's rows with their code points and any anomaly.
public enum BugReport {
    /// The rows of the last composition: from its preedit-start (or the last key before
    /// it) to the end of the log.
    public static func lastComposition(_ rows: some BidirectionalCollection<InspectorRow>) -> [InspectorRow] {
        let all = Array(rows)
        guard let started = all.lastIndex(where: { if case .preeditStart = $0.event { true } else { false } }) else {
            return Array(all.suffix(20))
        }
        let from = all[..<started].lastIndex { $0.kind == .key } ?? started
        return Array(all[from...])
    }

    public static func markdown(environment: [(String, String)], settings: TranscriptSettings?,
                                rows: some BidirectionalCollection<InspectorRow>) -> String {
        var out = "## Input method session (ime-composer inspector)\n\n### Environment\n\n"
        for (name, value) in environment { out += "- \(name): \(value)\n" }
        if let settings {
            out += "\n### Settings\n\n- limit: \(settings.limit.limit) \(settings.limit.unit.rawValue), \(settings.limit.mode.rawValue)\n"
            if let inset = settings.simulatedKeyboardInset { out += "- simulated keyboard: \(inset) px\n" }
            let facing = settings.inputMethodFacing
            out += "- surrounding text: " + (facing.surrounding == .on ? "answered" : "off (none answered, deletions ignored)") + "\n"
            out += "- input purpose: \(facing.purpose.rawValue); input hints: "
                + (facing.hints.isEmpty ? "none" : facing.hints.map(\.rawValue).joined(separator: ", ")) + "\n"
        }
        let composition = lastComposition(rows)
        let anomalies = composition.flatMap { row in row.anomalies.map { "- #\(row.number): \($0.line)" } }
        out += "\n### Anomalies\n\n" + (anomalies.isEmpty ? "none flagged\n" : anomalies.joined(separator: "\n") + "\n")
        out += "\n### The last composition\n\n| # | ms | event | code points |\n|---:|---:|---|---|\n"
        for row in composition {
            let codes = InspectorDetail.texts(of: row.event).map { InspectorDetail.codePoints($0.text).map { $0.split(separator: " ").first.map(String.init) ?? "" }.joined(separator: " ") }
            out += "| \(row.number) | \(row.t) | \(cell(row.summary + styles(of: row.event))) | \(codes.joined(separator: "; ")) |\n"
        }
        out += "\n<details><summary>Trace lines</summary>\n\n```jsonl\n" + composition.map(\.line).joined(separator: "\n") + "\n```\n</details>\n"
        return out
    }

    /// A preedit's segments and their styles (they are what the user saw): " [0–2 underline
    /// highlight, 2–5 underline]"; "" for other events and unstyled preedits.
    static func styles(of event: TraceEvent) -> String {
        guard case .preedit(let preedit) = event, !preedit.segments.isEmpty else { return "" }
        let segments = preedit.segments.map { "\($0.start)–\($0.end) " + $0.styles.map(\.rawValue).joined(separator: " ") }
        return " [" + segments.joined(separator: ", ") + "]"
    }

    /// A table cell: pipes and line breaks escaped, so the text an input method sent cannot
    /// break the table.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\n", with: "↵").replacingOccurrences(of: "\r", with: "␍")
    }
}
