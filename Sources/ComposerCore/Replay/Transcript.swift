import Foundation

/// A trace v1 file read back as a transcript: its settings (the `start` line) and every
/// line as the event that wrote it, with its line number for messages. An older v1 file
/// whose start line lacks the settings is read too (`unrecordedSettings`).
public struct Transcript: Sendable {
    public struct Line: Sendable {
        /// 1-based, as editors and `FILE:LINE:` messages count.
        public let number: Int
        public let t: Int
        public let event: TraceEvent
    }

    /// The name messages use (the path as given).
    public let name: String
    public let backend: String
    public let imModule: String
    /// The recorded settings; those the start line lacks (`unrecordedSettings`) are what
    /// the build that wrote it used (`StartSetting.olderRecordingDefault`).
    public let settings: TranscriptSettings
    /// The settings the start line does not have, in field order: all of them in a trace
    /// written before the start line carried them (2026-11-23's build), none since.
    public let unrecordedSettings: [StartSetting]
    /// Every line, the `start` line first.
    public let lines: [Line]

    /// Reads and checks `path`.
    /// - Throws: `TranscriptError` (`FILE: reason` when unreadable, `FILE:LINE: reason` when malformed).
    public init(contentsOf path: String) throws(TranscriptError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
            throw TranscriptError(file: path, line: nil, reason: reason)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            // Name the first line that is not UTF-8.
            let bytes = [UInt8](data)
            var lineNumber = 1, start = 0
            for (index, byte) in bytes.enumerated() where byte == 0x0A {
                if String(validating: bytes[start..<index], as: UTF8.self) == nil { break }
                lineNumber += 1
                start = index + 1
            }
            throw TranscriptError(file: path, line: lineNumber, reason: "the line is not UTF-8 text")
        }
        try self.init(text: text, name: path)
    }

    /// Reads a transcript from its text; `name` is used in messages.
    public init(text: String, name: String) throws(TranscriptError) {
        self.name = name
        var rawLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if rawLines.last == "" { rawLines.removeLast() }  // the newline that ends the last line
        guard !rawLines.isEmpty else { throw TranscriptError(file: name, line: nil, reason: "the file is empty; a transcript starts with a \"start\" line") }
        var lines: [Line] = []
        var start: (backend: String, imModule: String, settings: TranscriptSettings, unrecorded: [StartSetting])?
        var lastT = 0
        for (index, raw) in rawLines.enumerated() {
            let number = index + 1
            func problem(_ reason: String) -> TranscriptError { TranscriptError(file: name, line: number, reason: reason) }
            guard !raw.isEmpty else { throw problem("empty line") }
            let json: JSONValue
            do { json = try JSONValue.parse(String(raw)) } catch { throw problem("not JSON: \(error)") }
            let decoded: (t: Int, event: TraceEvent)
            do { decoded = try TraceEvent.decode(json) } catch { throw problem(error.reason) }
            if let previous = lines.last, case .exit = previous.event {
                throw problem("a line after \"exit\" (line \(previous.number)), which is always the last")
            }
            switch decoded.event {
            case let .start(backend, imModule, settings):
                guard start == nil else { throw problem("a second \"start\" line") }
                start = (backend, imModule, settings, StartSetting.missing(from: json))
            default:
                guard start != nil else { throw problem("the first line must be \"start\", not \"\(decoded.event.name)\"") }
            }
            guard decoded.t >= lastT else { throw problem("\"t\" goes back in time (\(decoded.t) after \(lastT))") }
            lastT = decoded.t
            lines.append(Line(number: number, t: decoded.t, event: decoded.event))
        }
        (backend, imModule, settings, unrecordedSettings) = start!
        self.lines = lines
    }

    /// The committed text, caret and selection the session started with: its first `text`
    /// line (empty when there is none).
    public var initialText: TextSnapshot {
        for line in lines { if case .text(let snapshot) = line.event { return snapshot } }
        return TextSnapshot(text: "", caret: 0, selection: TextSelection(anchor: 0, caret: 0))
    }

    /// The recents of the first `data` line (what completion ranked by when data arrived).
    public var initialRecents: [String: [String]] {
        for line in lines { if case .data(let data) = line.event { return data.recents } }
        return [:]
    }
}

/// A transcript that cannot be replayed: `ime-composer: FILE:LINE: reason` (exit status 2).
public struct TranscriptError: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    /// nil when the whole file is the problem (missing, empty).
    public let line: Int?
    public let reason: String

    public init(file: String, line: Int?, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String {
        line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)"
    }
}
