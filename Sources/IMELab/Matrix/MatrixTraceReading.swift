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

    func isComposing(_ entries: [TraceLog.Entry]) -> Bool {
        var composing = false
        for e in entries {
            switch e.name {
            case "preedit-start": composing = true
            case "preedit": composing = !(e.value["text"]?.stringValue ?? "").isEmpty
            case "preedit-end": composing = false
            default: break
            }
        }
        return composing
    }

    func keys(_ names: [String]) -> String { names.joined(separator: " ") }
    func quoted(_ s: String) -> String { "\u{201C}\(s)\u{201D}" }
}
