import Foundation

/// One engine's row of docs/ime-matrix.md: each scenario passed, failed or not applicable,
/// with a one-line reason. Written by the run to `<RunOutput.matrixResults>/<engine>.json`
/// (`.build/ime-matrix/` unless `IME_MATRIX_RESULTS` says otherwise);
/// `scripts/ime-matrix.py` turns the files into the document (`make test`: .build/ime-matrix.md;
/// `make matrix-doc`: docs/ime-matrix.md).
public final class MatrixRow: @unchecked Sendable {
    public enum Result: String, Sendable { case passed, failed, notApplicable = "n/a" }
    public struct Cell: Sendable { public let scenario: MatrixScenario; public let result: Result; public let reason: String }

    public static var directory: URL { RunOutput.matrixResults }
    public let engine: MatrixEngine
    public private(set) var cells: [Cell] = []

    public init(_ engine: MatrixEngine) { self.engine = engine }

    /// The row of a run (`MatrixRunner`): a known failure shows as failed, with its reason.
    public convenience init(_ result: MatrixEngineResult) {
        self.init(result.engine)
        for cell in result.cells {
            record(cell.scenario, cell.verdict == .passed ? .passed : .failed, cell.reason)
        }
    }

    public func record(_ scenario: MatrixScenario, _ result: Result, _ reason: String) {
        let line = reason.split(separator: "\n").first.map(String.init) ?? ""
        cells.append(Cell(scenario: scenario, result: result, reason: String(line.prefix(400))))
    }

    public func write() throws {
        try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        let object: [String: Any] = [
            "engine": engine.kind.slug,
            "module": engine.kind.rawValue.hasPrefix("wayland") ? "wayland" : engine.kind.rawValue.hasPrefix("fcitx") ? "fcitx" : engine.kind.rawValue.hasPrefix("ibus") ? "ibus" : "gtk-im-context-simple",
            "cells": cells.map { ["scenario": $0.scenario.rawValue, "result": $0.result.rawValue, "reason": $0.reason] },
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: Self.directory.appendingPathComponent(engine.kind.slug + ".json"), options: .atomic)
    }
}

/// The scenarios every engine goes through (the columns of docs/ime-matrix.md, in order).
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
