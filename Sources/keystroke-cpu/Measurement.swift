import Foundation

/// One keystroke's instructions, from the callgrind dump written right after it.
struct KeyCost {
    /// Everything collected: from the commit until the composer reported `isSettled`,
    /// frame-clock cycles aside.
    var total: Int
    /// The composer's code, entered from GLib/GTK: buffer and input method handlers, the
    /// settle idle (the settle pipeline, the controls, the layout), and what they call.
    var controllers: Int
    /// GtkTextBuffer's own insert (gtk_text_buffer_insert_interactive inclusive, minus the
    /// composer's "insert-text" handler that runs inside it).
    var insert: Int
    /// The composer's cost by entry point (a handler trampoline or idle).
    var entries: [String: Int]

    /// Object paths of the toolkit whose calls into the composer are the composer's entry points.
    static let toolkitObjects = ["libglib-2.0", "libgobject-2.0", "libgio-2.0", "libgtk-4"]

    init(profile: CallgrindProfile, executable: String) throws {
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
        guard let insertInclusive = profile.inclusive("gtk_text_buffer_insert_interactive", inObject: "libgtk-4")
                ?? profile.inclusive("gtk_text_buffer_insert_interactive_at_cursor", inObject: "libgtk-4") else {
            throw BenchmarkError("no call of gtk_text_buffer_insert_interactive in the profile of \(profile.trigger)")
        }
        total = profile.total
        controllers = byEntry.values.reduce(0, +)
        insert = insertInclusive - insertHandler
        entries = byEntry
    }

    /// The harness's own code (its frame-clock handlers, `main`) is not the composer's.
    static func isHarness(_ mangled: String) -> Bool {
        mangled == "main" || mangled.hasPrefix("$s13keystroke_cpu") || mangled.hasPrefix("ccallgrind_")
    }

    static let insertTextLabel = "\"insert-text\" handler (the edit into the composer's model)"

    /// A readable name for an entry point of the composer.
    static func entryLabel(_ demangled: String) -> String {
        let known: [(String, String)] = [
            ("onTextInserted", insertTextLabel),
            ("onRangeDeleted", "\"delete-range\" handlers"),
            ("onMarkSet", "\"mark-set\" handler"),
            ("observeEmissions", "input method emission hooks (commit, surrounding text → the composer)"),
            ("onStringSignal", "input method \"commit\" handler (→ the composer)"),
            (".onSignal<", "plain signal handlers (\"end-user-action\": colours text typed past the limit)"),
            ("MainLoop.idle", "idles: the settle (controllers, effects on the widgets, relayout, input growth)"),
            ("MainLoop.timeout", "timeouts"),
            ("onEveryFrame", "frame tick callbacks"),
            ("releaseOnClosureDestroy", "closure releases"),
            ("releaseOnDestroy", "closure releases"),
        ]
        for (needle, label) in known where demangled.contains(needle) { return label }
        return demangled.count > 90 ? String(demangled.prefix(90)) + "…" : demangled
    }
}

/// One draft size's keystrokes, per keystroke and per kind of keystroke.
struct Measurement {
    var facts: ChildFacts
    /// In `Workload.keys` order.
    var keys: [KeyCost]

    /// Averages per keystroke over some keystrokes.
    struct Aggregate {
        var count = 0
        var total = 0.0
        var controllers = 0.0
        var insert = 0.0
        var entries: [String: Double] = [:]

        /// What the rest of the keystroke costs: GTK's commit, insert, caret and input
        /// method bookkeeping, what a plain GtkTextView does for the same key.
        var gtk: Double { total - controllers }
        var controllersPerInsert: Double? { insert > 0 ? controllers / insert : nil }
        var controllersPerGTK: Double? { gtk > 0 ? controllers / gtk : nil }
    }

    init(facts: ChildFacts, keys: [KeyCost]) throws {
        guard keys.count == facts.kinds.count else {
            throw BenchmarkError("\(keys.count) keystroke profiles for \(facts.kinds.count) keystrokes")
        }
        self.facts = facts
        self.keys = keys
    }

    /// All keystrokes of `kind`, or all keystrokes.
    func aggregate(_ kind: KeyKind? = nil) -> Aggregate {
        var sum = Aggregate()
        for (key, keyKind) in zip(keys, facts.kinds) where kind == nil || keyKind == kind {
            sum.count += 1
            sum.total += Double(key.total)
            sum.controllers += Double(key.controllers)
            sum.insert += Double(key.insert)
            for (label, cost) in key.entries { sum.entries[label, default: 0] += Double(cost) }
        }
        guard sum.count > 0 else { return sum }
        let count = Double(sum.count)
        sum.total /= count
        sum.controllers /= count
        sum.insert /= count
        sum.entries = sum.entries.mapValues { $0 / count }
        return sum
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
