import Foundation

/// The goals the section checks (issue #11: "controllers' CPU per committed keystroke flat
/// from a 1 KB to a 1 MB draft (≤ 1.5×), and small next to GtkTextBuffer's own insert").
enum Goals {
    /// Controllers 1 MB ÷ 1 KB, all keystrokes, at most this: "flat".
    static let flat = 1.5
    /// Controllers ÷ GtkTextBuffer's insert, per kind of keystroke, at most this: "small".
    static let perInsert: [(kind: KeyKind, limit: Double)] = [
        (.latin, 1.0), (.cjk, 1.0),
    ]
}

/// The markdown section `make bench` collects, and whether every goal passed.
func markdownReport(_ results: [(bytes: Int, measurement: Measurement)]) -> (text: String, passed: Bool) {
    var lines: [String] = []
    lines.append("## Controllers' CPU per keystroke")
    lines.append("")
    let keystrokes = results.first?.measurement.keys.count ?? 0
    lines.append("Instructions (callgrind `Ir`) per committed keystroke in a real composer window (Xvfb, "
        + "GTK's simple input method, the repo's `data/`), caret at the end of a deterministic Latin/Japanese "
        + "draft; \(keystrokes) keystrokes emitted as the text view's input method \"commit\" (letters, spaces, "
        + "`@tanaka` with completion open, `#gen`, `:smile:`, kana), each measured from the commit until the "
        + "composer has settled, after a warm-up pass, each in its own callgrind dump so every kind of keystroke "
        + "has its own numbers. The default limit (200 characters) is in force and both drafts are over it, so "
        + "every typed character also extends the overflow colour (the overflow controller's busiest case). "
        + "Frame-clock cycles (paint, layout, tick callbacks) run at "
        + "the display's pace, not per key, and are left out. *Controllers*: the composer's code entered from "
        + "GTK (buffer and input method handlers reporting to `Composer.handle`, the settle: `SettlePipeline.settle`, "
        + "the effects on the widgets, `PanelLayout.relayout`, input growth) and the GTK calls it makes. *GtkTextBuffer insert*: "
        + "`gtk_text_buffer_insert_interactive` inclusive, minus our \"insert-text\" handler inside it. "
        + "*GTK's keystroke*: everything else in the keystroke (the text view's commit, insert, caret and "
        + "input-method bookkeeping): what a plain GtkTextView does for the same key.")
    lines.append("")

    var passed = true
    let sizes = results.map { sizeLabel($0.bytes) }
    lines.append("| Goal | " + sizes.joined(separator: " | ") + " | Verdict |")
    lines.append("|---|" + sizes.map { _ in "---:" }.joined(separator: "|") + "|---|")
    if let small = results.first, let large = results.last, results.count > 1 {
        let base = small.measurement.aggregate().controllers
        let growth = base > 0 ? large.measurement.aggregate().controllers / base : .infinity
        let ok = growth <= Goals.flat
        passed = passed && ok
        let cells = results.map { result -> String in
            let controllers = result.measurement.aggregate().controllers
            return result.bytes == small.bytes ? grouped(controllers)
                : grouped(controllers) + String(format: " (%.2f×)", base > 0 ? controllers / base : .infinity)
        }
        lines.append(String(format: "| Controllers flat, %@ ÷ %@, all keystrokes (≤ %.1f×) | ", sizeLabel(large.bytes),
                            sizeLabel(small.bytes), Goals.flat)
            + cells.joined(separator: " | ") + " | \(ok ? "PASS" : "FAIL") |")
    }
    for (kind, limit) in Goals.perInsert {
        let ratios = results.map { $0.measurement.aggregate(kind).controllersPerInsert }
        let ok = ratios.allSatisfy { ($0 ?? .infinity) <= limit }
        passed = passed && ok
        lines.append(String(format: "| %@: controllers ≤ %.1f× GtkTextBuffer insert | ", kind.label, limit)
            + ratios.map { $0.map { String(format: "%.2f×", $0) } ?? "no keystrokes" }.joined(separator: " | ")
            + " | \(ok ? "PASS" : "FAIL") |")
    }
    lines.append("")

    lines.append("Per keystroke, by kind:")
    lines.append("")
    lines.append("| Draft | Keystrokes | n | Total | Controllers | GtkTextBuffer insert | Controllers ÷ insert "
        + "| GTK's keystroke | Controllers ÷ GTK's keystroke |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for (bytes, measurement) in results {
        let rows: [(String, Measurement.Aggregate)] = KeyKind.allCases.map { ($0.label, measurement.aggregate($0)) }
            + [("**All**", measurement.aggregate())]
        for (label, sum) in rows where sum.count > 0 {
            lines.append("| \(sizeLabel(bytes)) | \(label) | \(sum.count) | \(grouped(sum.total)) | "
                + "\(grouped(sum.controllers)) | \(grouped(sum.insert)) | \(ratio(sum.controllersPerInsert)) | "
                + "\(grouped(sum.gtk)) | \(ratio(sum.controllersPerGTK)) |")
        }
    }
    lines.append("")

    lines.append("Where the controllers' instructions go, per keystroke of each kind:")
    lines.append("")
    let columns = results.flatMap { result in
        KeyKind.allCases.map { (sizeLabel(result.bytes) + ", " + $0.shortLabel, result.measurement.aggregate($0)) }
    }
    lines.append("| Entry point | " + columns.map(\.0).joined(separator: " | ") + " |")
    lines.append("|---|" + columns.map { _ in "---:" }.joined(separator: "|") + "|")
    var labels: [String] = []
    for (_, sum) in columns {
        for (label, _) in sum.entries.sorted(by: { $0.value > $1.value }) where !labels.contains(label) {
            labels.append(label)
        }
    }
    for label in labels {
        lines.append("| \(label) | " + columns.map { grouped($0.1.entries[label] ?? 0) }.joined(separator: " | ") + " |")
    }
    lines.append("")

    lines.append("The costliest keystrokes (controllers):")
    lines.append("")
    lines.append("| Draft | # | Committed | Kind | Controllers | GtkTextBuffer insert | Largest entry point |")
    lines.append("|---|---:|---|---|---:|---:|---|")
    for (bytes, measurement) in results {
        let costliest = measurement.keys.indices.sorted { measurement.keys[$0].controllers > measurement.keys[$1].controllers }
        for index in costliest.prefix(5) {
            let key = measurement.keys[index]
            let largest = key.entries.max { $0.value < $1.value }.map { "\($0.key): \(grouped(Double($0.value)))" } ?? "–"
            let text = index < Workload.keys.count ? Workload.keys[index] : "?"
            lines.append("| \(sizeLabel(bytes)) | \(index) | `\(text == " " ? "␠" : text)` | "
                + "\(measurement.facts.kinds[index].shortLabel) | \(grouped(Double(key.controllers))) | "
                + "\(grouped(Double(key.insert))) | \(largest) |")
        }
    }
    lines.append("")
    return (lines.joined(separator: "\n") + "\n", passed)
}

private func ratio(_ value: Double?) -> String {
    value.map { String(format: "%.2f×", $0) } ?? "–"
}
