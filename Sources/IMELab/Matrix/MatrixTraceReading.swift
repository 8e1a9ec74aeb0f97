import ComposerCore
import Foundation

/// What a scenario run (X11 `MatrixRun`, Wayland `WaylandMatrixRun`) reads from the app's
/// trace: the committed text, whether something is composing, whether an event came.
protocol MatrixTraceReading {
    var trace: TraceLog { get }
}

extension MatrixTraceReading {
    /// The committed text as of trace index `end` (default: now): the last `text` line
    /// before it with the `edit` lines after that applied. Not only the last settled text:
    /// a commit's edit is written at once, its settle (and `text` line) a moment later,
    /// which on a loaded machine is after the composition a test waits for (seen: "abc"
    /// read while "abcक" was already the text).
    func settledText(upTo end: Int? = nil) throws -> String {
        try committedText(in: trace.entries, upTo: end)
    }

    func events(_ name: String, from: Int) -> Bool {
        trace.entries.dropFirst(from).contains { $0.name == name }
    }

    func isPreedit(_ line: JSONValue) -> Bool { line["ev"]?.stringValue == "preedit" }

    func isComposing(_ entries: [TraceLog.Entry]) -> Bool { entries.isComposing }

    /// What the limit cut (`limit` lines' `removed`) from trace index `from` on, joined.
    func cutText(from: Int) -> String {
        trace.entries.dropFirst(from).filter { $0.name == "limit" }.compactMap { $0.value["removed"]?.stringValue }.joined()
    }

    /// Waits until the limit's cuts from trace index `from` on add up to `cut`. The cut
    /// brings the text back to what an earlier `text` line already showed, so no new text
    /// line marks it; and it can come in more than one `limit` line (GNOME ibus-hangul's
    /// Space commits 글, then " " as a commit of its own, each cut at its settle).
    func waitForCut(_ cut: String, from: Int) throws {
        _ = try Wait.until("the limit's cut of \(quoted(cut)) after the commit", timeout: .seconds(20),
                           diagnostics: { trace.diagnostics(lastLines: 25) }) { () -> Bool? in
            cutText(from: from) == cut ? true : nil
        }
    }

    func keys(_ names: [String]) -> String { names.joined(separator: " ") }
    func quoted(_ s: String) -> String { "\u{201C}\(s)\u{201D}" }
}

/// What the lab's waits read from an app's trace entries.
extension BidirectionalCollection where Element == TraceLog.Entry {
    /// Whether a composition is on screen after these entries (which start before it began).
    public var isComposing: Bool {
        var composing = false
        for e in self { composing = e.composing(after: composing) }
        return composing
    }

    /// The limit's cuts (`limit` lines) made while a composition was on screen (the
    /// entries start before it began).
    public var cutsWhileComposing: [TraceLog.Entry] {
        var composing = false
        var cuts: [TraceLog.Entry] = []
        for e in self {
            composing = e.composing(after: composing)
            if composing, e.name == "limit" { cuts.append(e) }
        }
        return cuts
    }

    /// Whether the input settled after the entry at `index`: a `settle` line after it (or
    /// the `text` line a send writes with no settle of its own) with no answer of the input
    /// method after that line (an answer to a key may come after the key's first settle).
    public func settled(after index: Int) -> Bool {
        guard let mark = last(where: { $0.name == "settle" || $0.name == "text" }), mark.index > index else { return false }
        return !contains { $0.index > mark.index && ["preedit-start", "preedit", "preedit-end", "commit"].contains($0.name) }
    }
}

extension TraceLog.Entry {
    /// Whether a composition is on screen after this entry, given whether one was before it.
    func composing(after composing: Bool) -> Bool {
        switch name {
        case "preedit-start": true
        case "preedit": !(value["text"]?.stringValue ?? "").isEmpty
        case "preedit-end": false
        default: composing
        }
    }
}
