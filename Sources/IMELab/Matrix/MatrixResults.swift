import Foundation

/// The scenarios every engine goes through (the columns of the matrix report, in order).
public enum MatrixScenario: String, CaseIterable, Sendable, Codable {
    case composeCommit = "compose-commit"
    case enter = "enter-confirms-then-sends"
    case hardLimit = "hard-limit-mid-composition"
    case softLimit = "soft-limit-colouring"
    case completion = "completion-after-commit"
    case backSpace = "backspace-in-composition"
    case focusOut = "focus-out-mid-composition"
    case click = "click-mid-composition"
}

/// A scenario's failed expectation, with what was seen.
struct MatrixFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw MatrixFailure(message()) }
}

/// The committed text as of index `end` of `entries` (default: their end): the last `text`
/// line before it, with the `edit` lines after that line applied in order (offsets in
/// Unicode scalars, as the trace writes them).
func committedText(in entries: [TraceLog.Entry], upTo end: Int? = nil) throws -> String {
    let upTo = entries.prefix(end ?? entries.count)
    guard let settled = upTo.last(where: { $0.name == "text" }),
          let text = settled.value["text"]?.stringValue else { throw MatrixFailure("no text line") }
    var scalars = Array(text.unicodeScalars)
    for entry in upTo.dropFirst(settled.index + 1 - upTo.startIndex) where entry.name == "edit" {
        guard let at = entry.value["at"]?.intValue, let removed = entry.value["removed"]?.stringValue,
              let inserted = entry.value["inserted"]?.stringValue,
              at >= 0, at + removed.unicodeScalars.count <= scalars.count else {
            throw MatrixFailure("an edit line that does not fit the text \(String(String.UnicodeScalarView(scalars))): \(entry.line)")
        }
        scalars.replaceSubrange(at..<(at + removed.unicodeScalars.count), with: Array(inserted.unicodeScalars))
    }
    return String(String.UnicodeScalarView(scalars))
}
