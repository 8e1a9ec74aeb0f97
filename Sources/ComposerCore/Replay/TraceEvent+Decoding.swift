/// Reading a trace line back into the event that wrote it: the inverse of
/// `TraceEvent.json(t:)`, so a trace can be replayed (`Transcript`).
extension TraceEvent {
    /// Decodes one line's object; its `t` is returned beside the event.
    /// - Throws: `TranscriptProblem` naming the field that is missing or wrong.
    public static func decode(_ json: JSONValue) throws(TranscriptProblem) -> (t: Int, event: TraceEvent) {
        let line = FieldReader(json: json)
        guard json.objectMembers != nil else { throw TranscriptProblem("not a JSON object") }
        let name = try line.string("ev")
        let t = try line.int("t", minimum: 0)
        return (t, try decodeEvent(named: name, line))
    }

    private static func decodeEvent(named name: String, _ line: FieldReader) throws(TranscriptProblem) -> TraceEvent {
        switch name {
        case "start": return try decodeStart(line)
        case "ready": return .ready
        case "focus": return .focus(in: try line.bool("in"))
        case "key":
            return .key(keyval: try line.string("keyval"), consumed: try line.optionalBool("consumed"),
                        shift: try line.optionalBool("shift") ?? false,
                        forwarded: try line.optionalBool("forwarded") ?? false)
        case "preedit-start": return .preeditStart
        case "preedit-end": return .preeditEnd
        case "preedit": return .preedit(try decodePreedit(line))
        case "commit": return .commit(try line.string("text"))
        case "surrounding":
            switch try line.string("kind") {
            case "retrieve": return .surroundingRetrieve
            case "delete": return .surroundingDelete(offset: try line.int("offset"), count: try line.int("count", minimum: 0))
            case let kind: throw TranscriptProblem("unknown surrounding kind \"\(kind)\"")
            }
        case "text":
            // "sel" is [lower, upper]; the anchor is the end the caret is not at.
            let bounds = try line.intPair("sel")
            let caret = try line.int("caret", minimum: 0)
            let anchor = caret == bounds.0 ? bounds.1 : bounds.0
            let selection = TextSelection(anchor: anchor, caret: caret)
            if line.json["text"] == nil, line.json["length"] != nil {
                return .textLength(length: try line.int("length", minimum: 0), caret: caret, selection: selection)
            }
            return .text(TextSnapshot(text: try line.string("text"), caret: caret, selection: selection))
        case "edit":
            let at = try line.int("at", minimum: 0)
            let removed = try line.string("removed")
            return .edit(Edit(sequence: 0, range: at..<(at + removed.unicodeScalars.count), removed: removed,
                              inserted: try line.string("inserted"), origin: try line.enumValue("origin")))
        case "limit": return .limit(removed: try line.string("removed"), at: try line.int("at", minimum: 0))
        case "overflow":
            return .overflow(start: try line.int("start", minimum: 0), end: try line.int("end", minimum: 0),
                             over: try line.int("over", minimum: 0), unit: try line.enumValue("unit"))
        case "completion":
            return .completion(state: try line.enumValue("state"), prefix: try line.string("prefix"),
                               query: try line.string("query"), items: try line.strings("items"),
                               selected: try line.int("selected"))
        case "accept": return .accept(item: try line.string("item"), text: try line.string("text"))
        case "layout": return .layout(try decodeLayout(line))
        case "keyboard":
            return .keyboard(KeyboardEvent(visible: try line.bool("visible"), height: try line.int("height", minimum: 0),
                                           overlap: try line.int("overlap", minimum: 0), source: try line.enumValue("source")))
        case "send": return .send(try line.string("text"), editsLast: try line.optionalBool("edits_last") ?? false)
        case "exit":
            return .exit(text: try line.string("text"), caret: try line.int("caret", minimum: 0),
                         preedit: try line.string("preedit"), reason: try line.enumValue("reason"))
        case "settle": return .settle
        case "selection":
            return .selection(anchor: try line.int("anchor", minimum: 0), caret: try line.int("caret", minimum: 0))
        case "command": return .command(try decodeCommand(line))
        case "data": return .data(try decodeData(line))
        case "diverged": return .diverged(text: try line.string("text"))
        case "input-method-lost": return .inputMethodLost(name: try line.string("name"))
        case "history": return .history(lastSent: try line.string("last_sent"))
        case "paint": return .paint
        case "press":
            return .press(x: try line.int("x"), y: try line.int("y"),
                          imResetFirst: try line.optionalBool("im_reset_first") ?? false)
        case "placement":
            return .placement(CandidatePlacement(
                given: try line.rect("given"), caret: try line.optionalRect("caret"), sent: try line.optionalRect("sent"),
                via: try line.optionalString("via"), popup: try line.optionalRect("popup"),
                scale: try line.int("scale", minimum: 1), windowHeight: try line.optionalInt("window_height", minimum: 0)))
        default: throw TranscriptProblem("unknown event \"\(name)\"")
        }
    }

    private static func decodeStart(_ line: FieldReader) throws(TranscriptProblem) -> TraceEvent {
        let version = try line.int("v")
        guard version == traceVersion else { throw TranscriptProblem("trace version \(version); this program reads version \(traceVersion)") }
        // A v1 start line written before it carried the settings (2026-11-23's build) lacks
        // them: what that build used stands in (`Transcript.unrecordedSettings` says which).
        let older = StartSetting.olderRecordingDefault
        let limit = LengthLimit(limit: try line.optionalInt("limit", minimum: 0) ?? older.limit.limit,
                                mode: try line.optionalEnumValue("limit_mode") ?? older.limit.mode,
                                unit: try line.optionalEnumValue("unit") ?? older.limit.unit)
        let hints = line.json["input_hints"] == nil ? [] : try line.strings("input_hints").map {
            (name: String) throws(TranscriptProblem) -> InputMethodFacing.Hint in
            guard let hint = InputMethodFacing.Hint(rawValue: name) else {
                throw TranscriptProblem("\"input_hints\" has \"\(name)\"; the hints are "
                    + InputMethodFacing.Hint.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
            }
            return hint
        }
        let facing = InputMethodFacing(surrounding: try line.optionalEnumValue("surrounding") ?? .on,
                                       purpose: try line.optionalEnumValue("input_purpose") ?? .freeForm, hints: hints)
        let settings = TranscriptSettings(limit: limit, dataDirectory: try line.optionalString("data") ?? older.dataDirectory,
                                          simulatedKeyboardInset: try line.optionalInt("osk_inset"),
                                          inputMethodFacing: facing)
        return .start(backend: try line.string("backend"), imModule: try line.string("im_module"), settings: settings)
    }

    private static func decodePreedit(_ line: FieldReader) throws(TranscriptProblem) -> Preedit {
        let text = try line.string("text")
        let cursor = try line.int("cursor", minimum: 0)
        guard case .array(let rawSegments)? = line.json["segments"] else { throw TranscriptProblem("\"segments\" must be an array") }
        var segments: [PreeditSegment] = []
        for raw in rawSegments {
            guard let parts = raw.arrayValue, parts.count == 3, let start = parts[0].intValue, let end = parts[1].intValue,
                  start >= 0, end >= start, let styleNames = parts[2].arrayValue else {
                throw TranscriptProblem("a preedit segment must be [start, end, [style, ...]] with 0 <= start <= end")
            }
            var styles: [PreeditStyle] = []
            for styleName in styleNames {
                guard let style = styleName.stringValue.flatMap(PreeditStyle.init(rawValue:)) else {
                    throw TranscriptProblem("unknown preedit style \(styleName.serialized())")
                }
                styles.append(style)
            }
            segments.append(PreeditSegment(start: start, end: end, styles: styles))
        }
        return Preedit(text: text, cursor: cursor, segments: segments)
    }

    private static func decodeLayout(_ line: FieldReader) throws(TranscriptProblem) -> Layout {
        let panel = try line.intPair("panel")
        return Layout(panelWidth: panel.0, panelHeight: panel.1, list: try line.int("list", minimum: 0),
                      completion: try line.int("completion", minimum: 0), completionRows: 0,
                      indicator: try line.int("indicator", minimum: 0), toolbar: try line.int("toolbar", minimum: 0),
                      input: try line.int("input", minimum: 0), keyboard: try line.int("keyboard", minimum: 0))
    }

    private static func decodeCommand(_ line: FieldReader) throws(TranscriptProblem) -> TracedCommand {
        switch try line.string("name") {
        case "send": return .send
        case "trim": return .trim
        case "accept": return .accept(index: try line.optionalInt("index", minimum: 0))
        case "completion-move": return .completionMove(by: try line.int("by"))
        case "completion-close": return .completionClose
        case let name: throw TranscriptProblem("unknown command \"\(name)\"")
        }
    }

    private static func decodeData(_ line: FieldReader) throws(TranscriptProblem) -> TracedData {
        guard let sourceMembers = line.json["sources"]?.objectMembers else { throw TranscriptProblem("\"sources\" must be an object") }
        var sources: [(name: String, count: Int)] = []
        for (name, value) in sourceMembers {
            guard let count = value.intValue, count >= 0 else { throw TranscriptProblem("source \"\(name)\" needs a count (an integer >= 0)") }
            sources.append((name, count))
        }
        guard let recentMembers = line.json["recents"]?.objectMembers else { throw TranscriptProblem("\"recents\" must be an object") }
        var recents: [String: [String]] = [:]
        for (name, value) in recentMembers {
            guard let ids = value.arrayValue?.compactMap(\.stringValue), ids.count == value.arrayValue?.count else {
                throw TranscriptProblem("recents of \"\(name)\" must be an array of strings")
            }
            recents[name] = ids
        }
        return TracedData(sources: sources, recents: recents)
    }
}

/// Why a transcript line cannot be read: one sentence, for `FILE:LINE: reason`.
public struct TranscriptProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Typed access to one line's fields, each failure naming the field.
private struct FieldReader {
    let json: JSONValue

    func value(_ name: String) throws(TranscriptProblem) -> JSONValue {
        guard let value = json[name] else { throw TranscriptProblem("missing field \"\(name)\"") }
        return value
    }

    func string(_ name: String) throws(TranscriptProblem) -> String {
        guard let string = try value(name).stringValue else { throw TranscriptProblem("\"\(name)\" must be a string") }
        return string
    }

    func optionalString(_ name: String) throws(TranscriptProblem) -> String? {
        json[name] == nil ? nil : try string(name)
    }

    func int(_ name: String, minimum: Int = .min) throws(TranscriptProblem) -> Int {
        guard let int = try value(name).intValue else { throw TranscriptProblem("\"\(name)\" must be an integer") }
        guard int >= minimum else { throw TranscriptProblem("\"\(name)\" must be \(minimum) or more, not \(int)") }
        return int
    }

    func optionalInt(_ name: String, minimum: Int = .min) throws(TranscriptProblem) -> Int? {
        json[name] == nil ? nil : try int(name, minimum: minimum)
    }

    func bool(_ name: String) throws(TranscriptProblem) -> Bool {
        guard let bool = try value(name).boolValue else { throw TranscriptProblem("\"\(name)\" must be true or false") }
        return bool
    }

    func optionalBool(_ name: String) throws(TranscriptProblem) -> Bool? {
        json[name] == nil ? nil : try bool(name)
    }

    func intPair(_ name: String) throws(TranscriptProblem) -> (Int, Int) {
        guard let items = try value(name).arrayValue, items.count == 2, let first = items[0].intValue,
              let second = items[1].intValue, first >= 0, second >= 0 else {
            throw TranscriptProblem("\"\(name)\" must be two integers >= 0")
        }
        return (first, second)
    }

    /// `[x, y, width, height]`, the sizes 0 or more.
    func rect(_ name: String) throws(TranscriptProblem) -> PixelRect {
        guard let items = try value(name).arrayValue, let rect = PixelRect(components: items.compactMap(\.intValue)),
              items.count == 4 else {
            throw TranscriptProblem("\"\(name)\" must be [x, y, width, height]: four integers, the sizes >= 0")
        }
        return rect
    }

    func optionalRect(_ name: String) throws(TranscriptProblem) -> PixelRect? {
        json[name] == nil ? nil : try rect(name)
    }

    func strings(_ name: String) throws(TranscriptProblem) -> [String] {
        guard let items = try value(name).arrayValue else { throw TranscriptProblem("\"\(name)\" must be an array of strings") }
        let strings = items.compactMap(\.stringValue)
        guard strings.count == items.count else { throw TranscriptProblem("\"\(name)\" must be an array of strings") }
        return strings
    }

    func enumValue<Value: RawRepresentable<String> & CaseIterable>(_ name: String) throws(TranscriptProblem) -> Value {
        let raw = try string(name)
        guard let value = Value(rawValue: raw) else {
            let allowed = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw TranscriptProblem("\"\(name)\" is \"\(raw)\"; expected one of \(allowed)")
        }
        return value
    }

    func optionalEnumValue<Value: RawRepresentable<String> & CaseIterable>(_ name: String) throws(TranscriptProblem) -> Value? {
        json[name] == nil ? nil : try enumValue(name) as Value
    }
}
