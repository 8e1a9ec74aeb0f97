import Foundation

/// One draft size's numbers, per committed keystroke.
struct Measurement {
    var facts: ChildFacts
    /// Everything collected: from the commit until the composer reported `isSettled`,
    /// frame-clock cycles aside.
    var total: Double
    /// The composer's code, entered from GLib/GTK: buffer and input method handlers, the
    /// settle idle (the settle pipeline, the controls, the layout), and what they call.
    var controllers: Double
    /// GtkTextBuffer's own insert (gtk_text_buffer_insert_interactive inclusive, minus the
    /// composer's "insert-text" handler that runs inside it).
    var insert: Double
    /// The composer's cost by entry point (a handler trampoline or idle), per keystroke.
    var entries: [(label: String, cost: Double)]

    /// Object paths of the toolkit whose calls into the composer are the composer's entry points.
    static let toolkitObjects = ["libglib-2.0", "libgobject-2.0", "libgio-2.0", "libgtk-4"]

    init(profile: CallgrindProfile, facts: ChildFacts, executable: String) throws {
        self.facts = facts
        let keystrokes = Double(max(1, facts.keystrokes))
        let executableName = (executable as NSString).lastPathComponent
        var byEntry: [String: Int] = [:]
        var insertHandler = 0
        for (edge, cost) in profile.edges {
            guard Self.toolkitObjects.contains(where: edge.caller.object.contains),
                  (edge.callee.object as NSString).lastPathComponent == executableName,
                  !Self.isHarness(edge.callee.name) else { continue }
            let label = Self.entryLabel(SwiftDemangler.demangle(edge.callee.name))
            byEntry[label, default: 0] += cost
            if label == Self.insertTextLabel { insertHandler += cost }
        }
        let controllers = byEntry.values.reduce(0, +)
        guard let insertInclusive = profile.inclusive("gtk_text_buffer_insert_interactive", inObject: "libgtk-4")
                ?? profile.inclusive("gtk_text_buffer_insert_interactive_at_cursor", inObject: "libgtk-4") else {
            throw BenchmarkError("no call of gtk_text_buffer_insert_interactive in the profile: no keystroke was measured")
        }
        total = Double(profile.total) / keystrokes
        self.controllers = Double(controllers) / keystrokes
        insert = Double(insertInclusive - insertHandler) / keystrokes
        entries = byEntry.map { ($0.key, Double($0.value) / keystrokes) }.sorted { $0.cost > $1.cost }
    }

    /// The harness's own code (its frame-clock handlers, `main`) is not the composer's.
    static func isHarness(_ mangled: String) -> Bool {
        mangled == "main" || mangled.hasPrefix("$s13keystroke_cpu") || mangled.hasPrefix("ccallgrind_")
    }

    static let insertTextLabel = "\"insert-text\" handler (model.applyInsert)"

    /// A readable name for an entry point of the composer.
    static func entryLabel(_ demangled: String) -> String {
        let known: [(String, String)] = [
            ("onTextInserted", insertTextLabel),
            ("onRangeDeleted", "\"delete-range\" handlers"),
            ("onMarkSet", "\"mark-set\" handler"),
            ("observeEmissions", "input method emission hooks (commit → refreshControls)"),
            ("onStringSignal", "input method \"commit\" handler (→ refreshControls)"),
            ("MainLoop.idle", "idles: the settle (pipeline, refreshControls, relayout, input growth)"),
            ("MainLoop.timeout", "timeouts"),
            ("onEveryFrame", "frame tick callbacks"),
            ("releaseOnClosureDestroy", "closure releases"),
            ("releaseOnDestroy", "closure releases"),
        ]
        for (needle, label) in known where demangled.contains(needle) { return label }
        return demangled.count > 90 ? String(demangled.prefix(90)) + "…" : demangled
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// "1,234,567"
func grouped(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var result = ""
    for (index, character) in digits.reversed().enumerated() {
        if index > 0, index % 3 == 0, character != "-" { result.append(",") }
        result.append(character)
    }
    return String(result.reversed())
}

func sizeLabel(_ bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
    return "\(bytes) B"
}

/// The markdown section `make bench` collects.
func markdownReport(_ results: [(bytes: Int, measurement: Measurement)], limit: Double) -> (text: String, passed: Bool) {
    var lines: [String] = []
    lines.append("## Controllers' CPU per keystroke")
    lines.append("")
    let keystrokes = results.first?.measurement.facts.keystrokes ?? 0
    lines.append("Instructions (callgrind `Ir`) per committed keystroke in a real composer window (Xvfb, "
        + "GTK's simple input method, the repo's `data/`), caret at the end of a deterministic Latin/Japanese "
        + "draft; \(keystrokes) keystrokes emitted as the text view's input method \"commit\" (letters, spaces, "
        + "`@tanaka` with completion open, `#gen`, `:smile:`, kana), each measured from the commit until the "
        + "composer has settled, after a warm-up pass. Frame-clock cycles (paint, layout, tick callbacks) run at "
        + "the display's pace, not per key, and are left out. *Controllers*: the composer's code entered from "
        + "GTK (buffer and input method handlers, the settle: `SettlePipeline.settle`, `refreshControls`, "
        + "`PanelLayout.relayout`, input growth). *GtkTextBuffer insert*: `gtk_text_buffer_insert_interactive` "
        + "inclusive, minus our \"insert-text\" handler inside it. *GTK's keystroke*: everything else in the "
        + "keystroke (the text view's commit, insert, caret and input-method bookkeeping): what a plain "
        + "GtkTextView does for the same key.")
    lines.append("")
    lines.append("| Draft | Total / keystroke | Controllers | GtkTextBuffer insert | Controllers ÷ insert | GTK's keystroke | Controllers ÷ GTK's keystroke |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    for (bytes, m) in results {
        let ratio = m.insert > 0 ? String(format: "%.2f×", m.controllers / m.insert) : "–"
        let gtk = m.total - m.controllers
        let share = gtk > 0 ? String(format: "%.2f×", m.controllers / gtk) : "–"
        lines.append("| \(sizeLabel(bytes)) (\(grouped(Double(m.facts.bytes))) B) | \(grouped(m.total)) | "
            + "\(grouped(m.controllers)) | \(grouped(m.insert)) | \(ratio) | \(grouped(gtk)) | \(share) |")
    }
    var passed = true
    if let small = results.first, let large = results.last, results.count > 1, small.measurement.controllers > 0 {
        let growth = large.measurement.controllers / small.measurement.controllers
        passed = growth <= limit
        lines.append("")
        lines.append(String(format: "Controllers, %@ ÷ %@: **%.2f×** — **%@** (flat means ≤ %.1f×)",
                            sizeLabel(large.bytes), sizeLabel(small.bytes), growth, passed ? "PASS" : "FAIL", limit))
    }
    lines.append("")
    lines.append("Where the controllers' instructions go, per keystroke:")
    lines.append("")
    lines.append("| Entry point | " + results.map { sizeLabel($0.bytes) }.joined(separator: " | ") + " |")
    lines.append("|---|" + results.map { _ in "---:" }.joined(separator: "|") + "|")
    var labels: [String] = []
    for (_, m) in results { for entry in m.entries where !labels.contains(entry.label) { labels.append(entry.label) } }
    for label in labels {
        let costs = results.map { result in
            grouped(result.measurement.entries.first { $0.label == label }?.cost ?? 0)
        }
        lines.append("| \(label) | " + costs.joined(separator: " | ") + " |")
    }
    lines.append("")
    return (lines.joined(separator: "\n") + "\n", passed)
}
