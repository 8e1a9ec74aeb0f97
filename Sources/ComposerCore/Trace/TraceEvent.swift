/// One event of trace v1 (JSON Lines; see docs/trace.md and docs/trace-schema.json).
///
/// The trace lets end-to-end tests check, from outside the process, what the input
/// method did and what committed text resulted. All offsets are Unicode scalars.
public enum TraceEvent: Equatable, Sendable {
    /// The trace began, with every setting that changes decisions (a transcript's header).
    /// (Boxed, once per session: the largest payload would size every event.)
    indirect case start(backend: String, imModule: String, settings: TranscriptSettings)
    case ready
    case focus(in: Bool)
    /// A key press: `consumed` for the keys the composer routes (nil for the others),
    /// `shift` whether Shift was held (it turns Enter into a line break); `forwarded` that
    /// the input method passed the key on after acting on it (`InputEvent.keyPressed`).
    case key(keyval: String, consumed: Bool?, shift: Bool = false, forwarded: Bool = false)
    case preeditStart
    case preeditEnd
    case preedit(Preedit)
    case commit(String)
    case surroundingRetrieve
    case surroundingDelete(offset: Int, count: Int)
    case text(TextSnapshot)
    /// A `text` line of a draft too long to copy on every change (over
    /// `TextChangeReporter.fullTextLimit` scalars): its length, caret and selection. The
    /// `edit` lines before it say what changed.
    case textLength(length: Int, caret: Int, selection: TextSelection)
    /// One change of the committed text as it happened, with its origin: what an input
    /// method really did (a delete-surrounding, several commits) is visible, not guessed.
    case edit(Edit)
    /// Hard mode cut `removed` at scalar offset `at`.
    case limit(removed: String, at: Int)
    /// The coloured overflow: scalar range and how many units over (0 and an empty range
    /// when back under).
    case overflow(start: Int, end: Int, over: Int, unit: CountUnit)
    /// The completion list opened, changed or closed (`items`: ids of the first rows;
    /// `selected`: -1 when closed).
    indirect case completion(state: CompletionListChange, prefix: String, query: String, items: [String], selected: Int)
    /// A completion item was accepted: `text` replaced the prefix and query.
    case accept(item: String, text: String)
    /// A settled layout of the panel: each region's height and the keyboard's overlap.
    case layout(Layout)
    /// The on-screen keyboard changed (shown, hidden, or a new height or overlap).
    case keyboard(KeyboardEvent)
    /// The message was sent; `editsLast`: it replaces the last sent message (Up in an
    /// empty input, then Send).
    case send(String, editsLast: Bool = false)
    indirect case exit(text: String, caret: Int, preedit: String, reason: ExitReason)

    // MARK: Replay inputs: what the window observed that no line above records

    /// Input settled and the composer decided (an idle after the input event, or a frame).
    case settle
    /// The window moved the selection or the caret (a click, an arrow key, Select All).
    case selection(anchor: Int, caret: Int)
    /// A button, shortcut or completion-list command.
    case command(TracedCommand)
    /// People, channels or emoji arrived (they load after the window opened).
    case data(TracedData)
    /// The buffer held other text than the composer knew: the buffer won.
    case diverged(text: String)
    /// The input method's daemon left the session bus (`name`: its D-Bus name); a composition
    /// it was showing is over.
    case inputMethodLost(name: String)
    /// The last message sent before this session (kept in the profile): Up in an empty
    /// input edits it.
    case history(lastSent: String)
    /// A frame that shows input was painted: the first after a key or an input-method
    /// answer (written with `--trace-frames` only; the lab's key → painted frame timing).
    case paint
    /// A pointer press in the text (window coordinates), before the text view takes it;
    /// `imResetFirst` when the input method acted after the press was made (written
    /// `"im_reset_first": true`, only then).
    case press(x: Int, y: Int, imResetFirst: Bool = false)
    /// Where the caret was told to the input method and where its candidate window went
    /// (written while the inspector is shown, and with `--trace-placement`).
    /// (Boxed: every other event is small, and the recent events keep thousands.)
    indirect case placement(CandidatePlacement)

    /// The trace version written in `start`'s "v" field.
    public static let traceVersion = 1

    /// The value of the "ev" field.
    public var name: String {
        switch self {
        case .start: return "start"
        case .ready: return "ready"
        case .focus: return "focus"
        case .key: return "key"
        case .preeditStart: return "preedit-start"
        case .preeditEnd: return "preedit-end"
        case .preedit: return "preedit"
        case .commit: return "commit"
        case .surroundingRetrieve, .surroundingDelete: return "surrounding"
        case .text, .textLength: return "text"
        case .edit: return "edit"
        case .limit: return "limit"
        case .overflow: return "overflow"
        case .completion: return "completion"
        case .accept: return "accept"
        case .layout: return "layout"
        case .keyboard: return "keyboard"
        case .send: return "send"
        case .exit: return "exit"
        case .settle: return "settle"
        case .selection: return "selection"
        case .command: return "command"
        case .data: return "data"
        case .diverged: return "diverged"
        case .inputMethodLost: return "input-method-lost"
        case .history: return "history"
        case .paint: return "paint"
        case .press: return "press"
        case .placement: return "placement"
        }
    }

    /// The event as a JSON object: "ev" first, "t" (ms) second, then its fields.
    public func json(t: Int) -> JSONValue {
        .object([("ev", .string(name)), ("t", .int(t))] + fields)
    }

    /// Only what differs from a text view's own, so older lines read the same.
    private static func fields(of facing: InputMethodFacing) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        if facing.surrounding != .on { fields.append(("surrounding", .string(facing.surrounding.rawValue))) }
        if facing.purpose != .freeForm { fields.append(("input_purpose", .string(facing.purpose.rawValue))) }
        if !facing.hints.isEmpty { fields.append(("input_hints", .array(facing.hints.map { .string($0.rawValue) }))) }
        return fields
    }

    private var fields: [(String, JSONValue)] {
        switch self {
        case let .start(backend, imModule, settings):
            return [
                ("v", .int(Self.traceVersion)), ("backend", .string(backend)), ("im_module", .string(imModule)),
                ("limit", .int(settings.limit.limit)), ("limit_mode", .string(settings.limit.mode.rawValue)),
                ("unit", .string(settings.limit.unit.rawValue)), ("data", .string(settings.dataDirectory)),
            ] + (settings.simulatedKeyboardInset.map { [("osk_inset", .int($0))] } ?? [])
                + Self.fields(of: settings.inputMethodFacing)
        case .ready, .preeditStart, .preeditEnd, .settle:
            return []
        case let .focus(isIn):
            return [("in", .bool(isIn))]
        case let .key(keyval, consumed, shift, forwarded):
            return [("keyval", .string(keyval))] + (consumed.map { [("consumed", .bool($0))] } ?? [])
                + (shift ? [("shift", .bool(true))] : []) + (forwarded ? [("forwarded", .bool(true))] : [])
        case let .preedit(preedit):
            return [
                ("text", .string(preedit.text)),
                ("cursor", .int(preedit.cursor)),
                ("segments", .array(preedit.segments.map(Self.segmentJSON))),
            ]
        case let .commit(text):
            return [("text", .string(text))]
        case .surroundingRetrieve:
            return [("kind", .string("retrieve"))]
        case let .surroundingDelete(offset, count):
            return [("kind", .string("delete")), ("offset", .int(offset)), ("count", .int(count))]
        case let .text(snapshot):
            return [
                ("text", .string(snapshot.text)),
                ("caret", .int(snapshot.caret)),
                ("sel", .array([.int(snapshot.selection.lower), .int(snapshot.selection.upper)])),
            ]
        case let .textLength(length, caret, selection):
            return [
                ("length", .int(length)),
                ("caret", .int(caret)),
                ("sel", .array([.int(selection.lower), .int(selection.upper)])),
            ]
        case let .edit(edit):
            return [
                ("origin", .string(edit.origin.rawValue)),
                ("at", .int(edit.range.lowerBound)),
                ("removed", .string(edit.removed)),
                ("inserted", .string(edit.inserted)),
            ]
        case let .limit(removed, at):
            return [("removed", .string(removed)), ("at", .int(at))]
        case let .overflow(start, end, over, unit):
            return [("start", .int(start)), ("end", .int(end)), ("over", .int(over)), ("unit", .string(unit.rawValue))]
        case let .completion(state, prefix, query, items, selected):
            return [
                ("state", .string(state.rawValue)), ("prefix", .string(prefix)), ("query", .string(query)),
                ("items", .array(items.map(JSONValue.string))), ("selected", .int(selected)),
            ]
        case let .accept(item, text):
            return [("item", .string(item)), ("text", .string(text))]
        case let .layout(layout):
            return [
                ("panel", .array([.int(layout.panelWidth), .int(layout.panelHeight)])),
                ("list", .int(layout.list)), ("completion", .int(layout.completion)),
                ("indicator", .int(layout.indicator)), ("toolbar", .int(layout.toolbar)),
                ("input", .int(layout.input)), ("keyboard", .int(layout.keyboard)),
            ]
        case let .keyboard(keyboard):
            return [
                ("visible", .bool(keyboard.visible)), ("height", .int(keyboard.height)),
                ("overlap", .int(keyboard.overlap)), ("source", .string(keyboard.source.rawValue)),
            ]
        case let .send(text, editsLast):
            return [("text", .string(text))] + (editsLast ? [("edits_last", .bool(true))] : [])
        case let .exit(text, caret, preedit, reason):
            return [
                ("text", .string(text)), ("caret", .int(caret)),
                ("preedit", .string(preedit)), ("reason", .string(reason.rawValue)),
            ]
        case let .selection(anchor, caret):
            return [("anchor", .int(anchor)), ("caret", .int(caret))]
        case let .command(command):
            var fields: [(String, JSONValue)] = [("name", .string(command.name))]
            if case .accept(let index?) = command { fields.append(("index", .int(index))) }
            if case .completionMove(let delta) = command { fields.append(("by", .int(delta))) }
            return fields
        case let .data(data):
            let recents = data.recents.keys.sorted().map { ($0, JSONValue.array(data.recents[$0]!.map(JSONValue.string))) }
            return [
                ("sources", .object(data.sources.map { ($0.name, JSONValue.int($0.count)) })),
                ("recents", .object(recents)),
            ]
        case let .diverged(text):
            return [("text", .string(text))]
        case let .inputMethodLost(name):
            return [("name", .string(name))]
        case let .history(lastSent):
            return [("last_sent", .string(lastSent))]
        case .paint:
            return []
        case let .press(x, y, imResetFirst):
            return [("x", .int(x)), ("y", .int(y))] + (imResetFirst ? [("im_reset_first", .bool(true))] : [])
        case let .placement(placement):
            func rect(_ rect: PixelRect) -> JSONValue { .array(rect.components.map(JSONValue.int)) }
            var fields: [(String, JSONValue)] = [("given", rect(placement.given)), ("scale", .int(placement.scale))]
            if let caret = placement.caret { fields.append(("caret", rect(caret))) }
            if let sent = placement.sent { fields.append(("sent", rect(sent))) }
            if let via = placement.via { fields.append(("via", .string(via))) }
            if let popup = placement.popup { fields.append(("popup", rect(popup))) }
            if let height = placement.windowHeight { fields.append(("window_height", .int(height))) }
            return fields
        }
    }

    /// `[start, end, ["style", ...]]`: compact, since preedits change per keystroke.
    private static func segmentJSON(_ segment: PreeditSegment) -> JSONValue {
        .array([.int(segment.start), .int(segment.end), .array(segment.styles.map { .string($0.rawValue) })])
    }
}
