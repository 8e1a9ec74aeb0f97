import Foundation

/// What the input method answered in one cell, read from its transcript: the keys the app
/// saw (whether the input method consumed each, a key it passed on after its commit), and
/// the engine's answers — preedit
/// starts, texts, cursors and segments, ends, commits and surrounding deletions — each in
/// order. Timing is not part of it, nor are the app's own requests (surrounding-text
/// retrievals depend on timing): two runs of an unchanged engine answer the same.
public struct InputMethodAnswers: Sendable, Equatable {
    public struct Answer: Sendable, Equatable {
        /// The transcript's line (1-based) it was read from.
        public let line: Int
        public let text: String
    }

    public var keys: [Answer] = []
    public var answers: [Answer] = []

    /// From the transcript's non-blank line `first` (0-based) on: the scenario, not the
    /// session's engine probe.
    public init(trace text: String, fromLine first: Int = 0) {
        for (number, event, object) in Self.events(in: text, fromLine: first) {
            switch event {
            case "key":
                // Whether the input method consumed the key is its answer to it.
                keys.append(Answer(line: number, text: Self.keyText(object)))
            case "preedit-start", "preedit-end":
                answers.append(Answer(line: number, text: event))
            case "preedit":
                answers.append(Answer(line: number, text: "preedit " + Self.preeditText(object)))
            case "commit":
                answers.append(Answer(line: number, text: "commit \u{201C}\(object["text"] as? String ?? "")\u{201D}"))
            case "surrounding" where object["kind"] as? String == "delete":
                answers.append(Answer(line: number, text: "delete-surrounding offset \(object["offset"] ?? "?") count \(object["count"] ?? "?")"))
            default:
                break
            }
        }
    }

    /// A transcript's lines from its non-blank line `first` (0-based) on that are JSON
    /// objects with an `ev`: each with its line number (1-based) and event name.
    static func events(in text: String, fromLine first: Int) -> [(line: Int, event: String, object: [String: Any])] {
        var result: [(line: Int, event: String, object: [String: Any])] = []
        var number = 0, nonBlank = -1
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            nonBlank += 1
            guard nonBlank >= first,
                  let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let event = object["ev"] as? String else { continue }
            result.append((number, event, object))
        }
        return result
    }

    /// A `key` line: its keyval, and whether the input method consumed or forwarded it.
    static func keyText(_ object: [String: Any]) -> String {
        let consumed = (object["consumed"] as? Bool).map { $0 ? " consumed by the input method" : " not consumed" } ?? ""
        let forwarded = (object["forwarded"] as? Bool) == true ? " (forwarded)" : ""
        return "\(object["keyval"] as? String ?? "?")\(consumed)\(forwarded)"
    }

    /// A `preedit` line: “text” cursor N segments [...].
    static func preeditText(_ object: [String: Any]) -> String {
        let segments = (object["segments"]).flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
            .map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return "\u{201C}\(object["text"] as? String ?? "")\u{201D} cursor \(object["cursor"] ?? "?") segments \(segments)"
    }

    /// The first difference from `before` (nil when they answer the same), naming the lines
    /// of both transcripts.
    public func firstDifference(from before: InputMethodAnswers, beforeFile: String, nowFile: String) -> String? {
        func compare(_ old: [Answer], _ new: [Answer], _ what: String) -> String? {
            for index in 0..<max(old.count, new.count) {
                let was = index < old.count ? old[index] : nil
                let now = index < new.count ? new[index] : nil
                guard was?.text != now?.text else { continue }
                let wasText = was.map { "\($0.text) (\(beforeFile):\($0.line))" } ?? "nothing (\(old.count) in all)"
                let nowText = now.map { "\($0.text) (\(nowFile):\($0.line))" } ?? "nothing (\(new.count) in all)"
                return "\(what) \(index + 1): was \(wasText), now \(nowText)"
            }
            return nil
        }
        return compare(before.answers, answers, "input-method answer") ?? compare(before.keys, keys, "key")
    }
}

/// A previous `ime-composer matrix --out DIR`, to compare a run's answers with, cell by cell.
public struct MatrixBaseline: Sendable {
    public let directory: URL
    /// (engine slug, scenario) → the transcript and the scenario's first line in it.
    private let cells: [String: (transcript: URL, firstLine: Int)]

    /// Reads `DIR/matrix.json`; an error says what is wrong with it.
    public init(directory: URL) throws {
        self.directory = directory
        let file = directory.appendingPathComponent("matrix.json")
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        } catch {
            throw HarnessError("\(file.path) cannot be read as a matrix report (written by `ime-composer matrix --out DIR`): "
                + error.localizedDescription)
        }
        guard let report = object as? [String: Any], let list = report["cells"] as? [[String: Any]] else {
            throw HarnessError("\(file.path) is not a matrix report: it has no \"cells\"")
        }
        var cells: [String: (URL, Int)] = [:]
        for cell in list {
            guard let engine = cell["engine"] as? String, let scenario = cell["scenario"] as? String,
                  let transcript = cell["transcript"] as? String else { continue }
            let url = transcript.hasPrefix("/") ? URL(fileURLWithPath: transcript) : directory.appendingPathComponent(transcript)
            cells[engine + "/" + scenario] = (url, (cell["first_line"] as? Int) ?? 0)
        }
        self.cells = cells
    }

    /// How `cell` of `engine` answers differently from the same cell in the baseline, or nil
    /// when it answers the same (or the baseline has no such cell).
    public func difference(_ engine: MatrixEngine, _ cell: MatrixCell) -> String? {
        guard let before = cells[engine.kind.slug + "/" + cell.scenario.rawValue] else { return nil }
        guard let nowPath = cell.transcript, let now = try? String(contentsOfFile: nowPath, encoding: .utf8) else {
            return "this run kept no transcript to compare"
        }
        guard let was = try? String(contentsOf: before.transcript, encoding: .utf8) else {
            return "the baseline's transcript \(before.transcript.path) cannot be read"
        }
        // Both runs typed fast: either may have seen the engine answer several keys at once
        // (or one after the next key came), never a state the other could not pass through.
        // So a cell answered differently only when neither run's states come, in order,
        // among the other's (or a key was taken otherwise).
        let old = InputMethodStates(trace: was, fromLine: before.firstLine)
        let new = InputMethodStates(trace: now, fromLine: cell.firstLine)
        guard let difference = new.firstDifference(from: old, recordedFile: before.transcript.path, nowFile: nowPath),
              old.firstDifference(from: new, recordedFile: nowPath, nowFile: before.transcript.path) != nil else { return nil }
        return difference
    }
}

/// What the input method showed and had committed after each of its answers, in order:
/// the comparison of a rerun (`ime-composer rerun`), which types one key at a time, with a
/// recording typed at any pace. A recording typed fast has an engine answer several keys at
/// once (IBus: いぬ for i n u), or answer a key after the next one arrived, where the
/// rerun sees い, いn, いぬ, each after its key; but each state the engine was seen in is
/// one it passes through when paced. So the recording's states must come, in order, among
/// the rerun's; and each key the app saw must have been taken the same way.
public struct InputMethodStates: Sendable, Equatable {
    public struct State: Sendable, Equatable {
        /// The trace line (1-based) of the answer that left the engine in this state.
        public let line: Int
        public let text: String
    }

    public var states: [State] = []
    public var keys: [InputMethodAnswers.Answer] = []

    /// From the transcript's non-blank line `first` (0-based) on.
    public init(trace text: String, fromLine first: Int = 0) {
        var preedit = "", committed = "", deleted = ""
        for (number, event, object) in InputMethodAnswers.events(in: text, fromLine: first) {
            switch event {
            case "key":
                keys.append(.init(line: number, text: InputMethodAnswers.keyText(object)))
                continue
            case "preedit":
                preedit = (object["text"] as? String ?? "").isEmpty ? "" : InputMethodAnswers.preeditText(object)
            case "preedit-end":
                preedit = ""
            case "commit":
                committed += object["text"] as? String ?? ""
            case "surrounding" where object["kind"] as? String == "delete":
                deleted += ", deleted around the caret (\(object["offset"] ?? "?"), \(object["count"] ?? "?"))"
            default:
                continue
            }
            let state = "composing \(preedit.isEmpty ? "nothing" : preedit), committed \u{201C}\(committed)\u{201D}" + deleted
            if states.last?.text != state { states.append(State(line: number, text: state)) }
        }
    }

    /// The first difference from `recorded` (nil when the same): a key the app saw taken
    /// otherwise (only when both sides saw the keys: not on Wayland), or the first recorded
    /// state that does not come, in order, among this run's.
    public func firstDifference(from recorded: InputMethodStates, recordedFile: String, nowFile: String) -> String? {
        if !keys.isEmpty, !recorded.keys.isEmpty {
            for index in 0..<max(recorded.keys.count, keys.count) {
                let was = index < recorded.keys.count ? recorded.keys[index] : nil
                let now = index < keys.count ? keys[index] : nil
                guard was?.text != now?.text else { continue }
                let wasText = was.map { "\($0.text) (\(recordedFile):\($0.line))" } ?? "nothing (\(recorded.keys.count) keys in all)"
                let nowText = now.map { "\($0.text) (\(nowFile):\($0.line))" } ?? "nothing (\(keys.count) keys in all)"
                return "key \(index + 1): was \(wasText), now \(nowText)"
            }
        }
        var next = 0
        for was in recorded.states {
            guard let found = states[next...].firstIndex(where: { $0.text == was.text }) else {
                let after = next > 0 ? states[next - 1] : nil
                let then = next < states.count ? states[next] : nil
                return "was \(was.text) (\(recordedFile):\(was.line)), now never: "
                    + (then.map { "it was \($0.text) instead (\(nowFile):\($0.line))" }
                        ?? after.map { "it ended \($0.text) (\(nowFile):\($0.line))" } ?? "the engine never answered")
            }
            next = found + 1
        }
        return nil
    }
}
