import Foundation
import ComposerCore
import PropertyBased
import Testing

/// A window without GTK that records its session as the app does: the composer's trace,
/// each line timed by the window action that caused it, after a `start` line with the
/// settings. What the text view does itself (typing, Backspace, a paste, an undo) it does
/// to its own buffer and reports, as the app's window does.
private final class RecordingWindow {
    let composer: Composer
    let settings: TranscriptSettings
    private(set) var buffer: [Unicode.Scalar]
    private(set) var lines: [String]
    private var t = 0

    /// - Parameter sources: the data, there from the start; nil: it is loading, and the
    ///   session sends `dataArrived` itself.
    init(text: String, settings: TranscriptSettings, sources: [CompletionSource]?, traces: Bool = true) {
        self.settings = settings
        composer = Composer(text: text, limit: settings.limit, completion: CompletionList(sources: []), traces: traces,
                            awaitingData: sources == nil)
        buffer = Array(text.unicodeScalars)
        lines = traces ? [Self.startLine(settings, t: 0)] : []
        send(.settle)
        if let sources { send(.dataArrived(CompletionData(tokens: TokenNames(people: ["tanaka"]), sources: sources))) }
        send(.ready)
    }

    static func startLine(_ settings: TranscriptSettings, t: Int) -> String {
        TraceEvent.start(backend: "x11", imModule: "test", settings: settings).json(t: t).serialized()
    }

    /// Asks for the trace (the inspector opened mid-session); it starts at a quiet settle.
    func requestTracing() { apply(composer.requestTracing()) }

    var caret: Int { composer.model.selection.caret }
    var transcript: String { lines.joined(separator: "\n") + "\n" }

    func send(_ event: InputEvent) { apply(composer.handle(event)) }

    private func apply(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case let .edit(range, text): buffer.replaceSubrange(range, with: Array(text.unicodeScalars))
            case .clear: buffer = []
            case .trace(let event): lines.append(event.json(t: t).serialized())
            case .tracingStarted: lines.append(Self.startLine(settings, t: t))
            default: break
            }
        }
    }

    /// One window action (its events share a time), then the settle the idle runs.
    func act(_ body: () -> Void) {
        t += 1
        body()
        if !composer.exited { send(.settle) }
    }

    func insert(_ text: String, at offset: Int) {
        buffer.insert(contentsOf: Array(text.unicodeScalars), at: offset)
        send(.inserted(offset: offset, text: text))
    }

    func delete(_ range: Range<Int>) {
        buffer.removeSubrange(range)
        send(.deleted(range))
    }

    func commit(_ text: String) {
        send(.commitStarted(text))
        let selection = composer.model.selection
        if selection.lower < selection.upper { delete(selection.lower..<selection.upper) }
        insert(text, at: caret)
        send(.commitEnded)
        send(.userActionEnded)
    }

    func key(_ name: String, shift: Bool = false, consumed: Bool = false) {
        send(.keyPressed(name: name, shift: shift))
        if composer.routes(keyName: name, shift: shift) {
            send(.keyFiltered(name: name, shift: shift, consumedByInputMethod: consumed))
        }
    }
}

/// What a window can do in one action, for the generated sessions.
private enum Action {
    case compose(String), startComposing(String), commit(String), type(String), backspace, newline, send, select(Int, Int),
         paste(String), undoLast, deleteSurrounding, trim, accept, moveList(Int), focusOut
}

@Suite("Replayer: transcripts in, the composer's trace out")
struct ReplayerTests {
    static func transcript(_ lines: [String], name: String = "t.jsonl") throws(TranscriptError) -> Transcript {
        try Transcript(text: lines.joined(separator: "\n") + "\n", name: name)
    }

    static let start = #"{"ev":"start","t":0,"v":1,"backend":"x11","im_module":"ibus","limit":200,"limit_mode":"soft","unit":"graphemes","data":""}"#

    @Test(arguments: [
        ([""], "t.jsonl:1: empty line"),
        (["{\"ev\":\"text\",\"t\":0,\"text\":\"\",\"caret\":0,\"sel\":[0,0]}"], "t.jsonl:1: the first line must be \"start\", not \"text\""),
        ([start, "not json"], "t.jsonl:2: not JSON"),
        ([start, "[1]"], "t.jsonl:2: not a JSON object"),
        ([start, #"{"ev":"fly","t":1}"#], "t.jsonl:2: unknown event \"fly\""),
        ([start, #"{"ev":"commit","t":1}"#], "t.jsonl:2: missing field \"text\""),
        ([start, #"{"ev":"commit","t":1,"text":3}"#], "t.jsonl:2: \"text\" must be a string"),
        ([start, #"{"ev":"edit","t":1,"origin":"telepathy","at":0,"removed":"","inserted":"a"}"#],
         "t.jsonl:2: \"origin\" is \"telepathy\"; expected one of"),
        ([start, #"{"ev":"ready","t":5}"#, #"{"ev":"ready","t":4}"#], "t.jsonl:3: \"t\" goes back in time (4 after 5)"),
        ([start, start], "t.jsonl:2: a second \"start\" line"),
        ([start, #"{"ev":"exit","t":1,"text":"","caret":0,"preedit":"","reason":"close"}"#, #"{"ev":"ready","t":2}"#],
         "t.jsonl:3: a line after \"exit\" (line 2)"),
        ([start.replacingOccurrences(of: "\"v\":1", with: "\"v\":2")], "t.jsonl:1: trace version 2; this program reads version 1"),
        ([start.replacingOccurrences(of: ",\"backend\":\"x11\"", with: "")], "t.jsonl:1: missing field \"backend\""),
        ([start, #"{"ev":"preedit","t":1,"text":"a","cursor":0,"segments":[[0,1,["sparkle"]]]}"#],
         "t.jsonl:2: unknown preedit style \"sparkle\""),
    ])
    func malformedTranscriptsNameTheFileTheLineAndTheReason(lines: [String], message: String) {
        #expect {
            _ = try Self.transcript(lines)
        } throws: { error in
            (error as? TranscriptError)?.description.hasPrefix(message) == true
        }
    }

    @Test func anEditThatDoesNotFitTheRecordedTextIsMalformedToo() throws {
        let transcript = try Self.transcript([
            Self.start,
            #"{"ev":"edit","t":1,"origin":"key","at":0,"removed":"x","inserted":""}"#,
        ])
        #expect(throws: TranscriptError(file: "t.jsonl", line: 2,
                                        reason: "the edit removes \"x\" at 0, but the recorded text there is \"\"")) {
            _ = try Replayer(transcript: transcript, settings: transcript.settings, data: .empty).run()
        }
    }

    /// Shift+Enter's line break is the composer's own edit: the replay makes it again and
    /// skips the recorded one (the text would get two otherwise).
    @Test func theLineBreakOfShiftEnterIsMadeOnce() throws {
        let window = RecordingWindow(text: "", settings: TranscriptSettings(), sources: [])
        window.act { window.commit("a") }
        window.act { window.key("Return", shift: true) }
        window.act { window.commit("b") }
        window.act { window.send(.exit(.close)) }
        let transcript = try Transcript(text: window.transcript, name: "newline")
        let output = try Replayer(transcript: transcript, settings: transcript.settings, data: .empty).run()
        #expect(output.jsonLines == window.transcript)
        guard case .exit(let text, _, _, _)? = output.events.last?.event else { Issue.record("no exit"); return }
        #expect(text == "a\nb")
    }

    /// A composition GNOME Shell's reset dropped on a press is typed by the composer itself:
    /// the replay, fed the press with its `im_reset_first` mark, types it again, once.
    @Test func aCompositionKeptForAPressTheCompositorResetForReplaysTheSame() throws {
        let window = RecordingWindow(text: "", settings: TranscriptSettings(), sources: [])
        window.act { window.send(.preeditStarted); window.send(.preeditChanged(Preedit(text: "いぬ", cursor: 2, segments: []))) }
        window.act { window.send(.preeditChanged(.empty)); window.send(.preeditEnded) }
        window.act { window.send(.pointerPressedAt(x: 4, y: 7, inputMethodResetFirst: true)) }
        window.act { window.send(.exit(.close)) }
        #expect(window.transcript.contains(#""im_reset_first":true"#))
        let transcript = try Transcript(text: window.transcript, name: "gnome-click")
        let output = try Replayer(transcript: transcript, settings: transcript.settings, data: .empty).run()
        #expect(output.jsonLines == window.transcript)
        guard case .exit(let text, _, _, _)? = output.events.last?.event else { Issue.record("no exit"); return }
        #expect(text == "いぬ")
    }

    /// Issue #31: an Enter pressed on `@tana` while the data was loading waits for it and then
    /// accepts 田中 as it would have with the data there; the replay, fed the recorded lines
    /// (the `data` line where it came), decides the same, byte for byte.
    @Test func anEnterThatWaitedForTheDataReplaysTheSame() throws {
        let window = RecordingWindow(text: "", settings: TranscriptSettings(), sources: nil)
        window.act { window.commit("@tana") }
        window.act { window.key("Return") }
        #expect(window.composer.model.text == "@tana", "Enter waits for the data")
        window.act {
            window.send(.dataArrived(CompletionData(tokens: TokenNames(), sources: [CompletionTestData.people,
                                                                                    CompletionTestData.channels])))
        }
        window.act { window.key("Return") }
        window.act { window.send(.exit(.close)) }
        let transcript = try Transcript(text: window.transcript, name: "enter-waits")
        let data = ReplayData(directory: CompletionTestData.directory, emoji: [])
        let output = try Replayer(transcript: transcript, settings: transcript.settings, data: data).run()
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        #expect(output.jsonLines == window.transcript)
        #expect(output.events.compactMap { if case .accept(let item, _) = $0.event { item } else { nil } } == ["u0001"])
        #expect(output.events.compactMap { if case .send(let text, _) = $0.event { text } else { nil } } == ["@tanaka "])
    }

    /// `paint` lines (`--trace-frames`) say when a frame was painted: no input to a decision,
    /// so a replay with them gives what the same recording without them gives.
    @Test func paintLinesChangeNothingInAReplay() throws {
        let settings = TranscriptSettings()
        let lines = [
            RecordingWindow.startLine(settings, t: 0),
            #"{"ev":"settle","t":0}"#,
            #"{"ev":"text","t":0,"text":"","caret":0,"sel":[0,0]}"#,
            #"{"ev":"key","t":2,"keyval":"x"}"#,
            #"{"ev":"paint","t":3}"#,
            #"{"ev":"commit","t":4,"text":"x"}"#,
            #"{"ev":"edit","t":4,"origin":"im-commit","at":0,"removed":"","inserted":"x"}"#,
            #"{"ev":"paint","t":9}"#,
            #"{"ev":"settle","t":10}"#,
            #"{"ev":"exit","t":11,"text":"x","caret":1,"preedit":"","reason":"close"}"#,
        ]
        let with = try Replayer(transcript: try Self.transcript(lines), settings: settings, data: .empty).run()
        let without = try Replayer(transcript: try Self.transcript(lines.filter { !$0.contains("paint") }),
                                   settings: settings, data: .empty).run()
        #expect(with.jsonLines == without.jsonLines)
        #expect(!with.jsonLines.contains("paint"))
    }

    /// A `text` line of a long draft carries its length: the replay reads the caret and
    /// selection from it as from any `text` line.
    @Test func aTextLineWithALengthIsReplayed() throws {
        let settings = TranscriptSettings()
        let lines = [
            RecordingWindow.startLine(settings, t: 0),
            #"{"ev":"settle","t":0}"#,
            #"{"ev":"text","t":0,"text":"abc","caret":3,"sel":[3,3]}"#,
            #"{"ev":"selection","t":1,"anchor":3,"caret":1}"#,
            #"{"ev":"settle","t":1}"#,
            #"{"ev":"text","t":1,"length":3,"caret":1,"sel":[1,3]}"#,
            #"{"ev":"key","t":2,"keyval":"x"}"#,
            #"{"ev":"commit","t":2,"text":"x"}"#,
            #"{"ev":"edit","t":2,"origin":"im-commit","at":1,"removed":"bc","inserted":"x"}"#,
            #"{"ev":"exit","t":3,"text":"ax","caret":2,"preedit":"","reason":"close"}"#,
        ]
        let transcript = try Self.transcript(lines)
        #expect(transcript.lines.contains { if case .textLength(3, 1, TextSelection(anchor: 3, caret: 1)) = $0.event { true } else { false } })
        let output = try Replayer(transcript: transcript, settings: settings, data: .empty).run()
        guard case .exit(let text, _, _, _)? = output.events.last?.event else { Issue.record("no exit"); return }
        #expect(text == "ax", "the selection from the length line was replaced by the commit")
    }

    /// Up in an empty input edits the last sent message, sent before the session (the
    /// `history` line) or in it; the replay routes Up the same way and sends the edit.
    @Test func editingTheLastSentMessageReplays() throws {
        let window = RecordingWindow(text: "", settings: TranscriptSettings(), sources: [])
        window.act { window.send(.historyRestored(lastSent: "from yesterday")) }
        window.act { window.key("Up") }
        window.act { window.commit("!") }
        window.act { window.key("Return") }
        window.act { window.commit("today") }
        window.act { window.key("Return") }
        window.act { window.key("Up") }
        window.act { window.key("Escape") }
        window.act { window.send(.exit(.close)) }
        let transcript = try Transcript(text: window.transcript, name: "edit-last")
        let output = try Replayer(transcript: transcript, settings: transcript.settings, data: .empty).run()
        #expect(output.jsonLines == window.transcript)
        let sends = output.events.compactMap { line -> String? in
            guard case let .send(text, editsLast) = line.event else { return nil }
            return editsLast ? "edit: \(text)" : text
        }
        #expect(sends == ["edit: from yesterday!", "today"])
        guard case .exit(let text, _, _, _)? = output.events.last?.event else { Issue.record("no exit"); return }
        #expect(text == "", "Escape left the input empty and the message as sent")
        // The new lines (`history`, `send` with `edits_last`) are documented trace v1.
        let schema = try TraceSchema(contentsOf: repositoryRoot().appendingPathComponent("docs/trace-schema.json"))
        for line in window.transcript.split(separator: "\n") {
            #expect(schema.validate(String(line)).isEmpty, "\(line): \(schema.validate(String(line)))")
        }
        #expect(window.transcript.contains(#""ev":"history""#) && window.transcript.contains(#""edits_last":true"#))
    }

    /// A U+202E or a zero-width space typed into the input is escaped in the trace (a
    /// terminal showing it is not reordered), and the replay reads the same text back.
    @Test func controlsAreEscapedInTheTraceAndReplayToTheSameText() throws {
        let window = RecordingWindow(text: "", settings: TranscriptSettings(), sources: [])
        window.act { window.commit("a\u{202E}b") }
        window.act { window.send(.pasteStarted); window.insert("\u{200B}\u{E0041}", at: window.caret); window.send(.pasteEnded) }
        window.act { window.send(.exit(.close)) }
        #expect(window.transcript.contains(#""text":"a\u202eb""#), "the commit line")
        #expect(window.transcript.contains(#""inserted":"\u200b\udb40\udc41""#), "the paste's edit line")
        #expect(InvisibleControls.markedRanges(in: Array(window.transcript.unicodeScalars)).isEmpty,
                "no control written raw")
        let transcript = try Transcript(text: window.transcript, name: "controls")
        let output = try Replayer(transcript: transcript, settings: transcript.settings, data: .empty).run()
        #expect(output.jsonLines == window.transcript)
        guard case .exit(let text, _, _, _)? = output.events.last?.event else { Issue.record("no exit"); return }
        #expect(text.unicodeScalars.elementsEqual("a\u{202E}b\u{200B}\u{E0041}".unicodeScalars))
    }

    /// A caret moved by the window in the recording is moved in the replay, mapped onto the
    /// replay's text when a lower hard limit cut more.
    @Test func aSelectionIsPlacedOnTheReplaysTextWhenItDiffers() throws {
        let window = RecordingWindow(text: "", settings: TranscriptSettings(), sources: [])
        window.act { window.commit("abcdef") }
        window.act { window.send(.selectionChanged(anchor: 0, caret: 0)) }
        window.act { window.commit("X") }
        window.act { window.send(.exit(.close)) }
        let transcript = try Transcript(text: window.transcript, name: "caret")
        var settings = transcript.settings
        settings.limit = LengthLimit(limit: 3, mode: .hard)
        let output = try Replayer(transcript: transcript, settings: settings, data: .empty).run()
        // abc is kept, the caret goes to the start, and X lands there: Xabc is over by one
        // and X is what was inserted.
        let exits = output.events.compactMap { if case .exit(let text, _, _, _) = $0.event { text } else { nil } }
        #expect(exits == ["abc"])
        let cuts = output.events.compactMap { if case .limit(let removed, _) = $0.event { removed } else { nil } }
        #expect(cuts == ["def", "X"])
    }

    /// Any session a window can have, recorded as the app records it, replays to exactly the
    /// same trace with the same settings: every line, in order, with its time.
    @Test func everyRecordedSessionReplaysToItsOwnTrace() async {
        let pieces = Gen.element(of: ["a", "か", "ね", "子猫", "@", "@ta", " ", "é", "e\u{301}", "👨‍👩‍👧", "한", "\n",
                                      "\u{202E}", "\u{200B}\u{200D}"]).map { $0! }
        let action = zip(Gen.int(in: 0...13), pieces, Gen.int(in: 0...40), Gen.int(in: 0...40)).map { kind, piece, a, b -> Action in
            switch kind {
            case 0: return .compose(piece)
            case 1, 2: return .commit(piece)
            case 3: return .type(piece)
            case 4: return .backspace
            case 5: return .newline
            case 6: return .send
            case 7: return .select(a, b)
            case 8: return .paste(piece + piece)
            case 9: return .undoLast
            case 10: return .deleteSurrounding
            case 11: return .trim
            case 12: return a % 2 == 0 ? .accept : .moveList(b % 2 == 0 ? 1 : -1)
            default: return .focusOut
            }
        }.array(of: 0...30)
        let limits = zip(Gen.int(in: 0...8), Gen.bool, Gen.element(of: CountUnit.allCases).map { $0! })
        await propertyCheck(count: 100, input: action, limits) { actions, limit in
            let settings = TranscriptSettings(limit: LengthLimit(limit: limit.0, mode: limit.1 ? .hard : .soft, unit: limit.2))
            let window = RecordingWindow(text: "", settings: settings, sources: [CompletionTestData.people])
            for action in actions { window.act { Self.perform(action, in: window) } }
            window.act { window.send(.exit(.close)) }
            let transcript = try Transcript(text: window.transcript, name: "generated")
            let data = ReplayData(directory: WorkspaceDirectory(people: CompletionTestData.directory.people), emoji: [])
            let output = try Replayer(transcript: transcript, settings: settings, data: data).run()
            #expect(ReplayComparison.firstDifference(recorded: transcript, replayed: output) == nil)
            #expect(output.jsonLines == window.transcript)
        }
    }

    /// A trace started mid-session (the inspector opened without --trace) replays from there:
    /// it starts at the first quiet settle, and its first lines stand for the state the
    /// session was in, list and overflow included.
    @Test func aTraceStartedMidSessionReplaysFromWhereItStarted() async {
        let pieces = Gen.element(of: ["a", "子猫", "@ta", " ", "@tanaka", "#gen", "e\u{301}"]).map { $0! }
        let actions = zip(Gen.int(in: 0...13), pieces, Gen.int(in: 0...40), Gen.int(in: 0...40)).map { kind, piece, a, b -> Action in
            switch kind {
            case 0...3: return .commit(piece)
            case 4: return .backspace
            case 5: return .select(a, b)
            case 6: return .moveList(1)
            case 7: return .compose(piece)
            case 8: return .newline
            case 9: return .startComposing(piece)
            default: return .type(piece)
            }
        }.array(of: 0...12)
        await propertyCheck(count: 100, input: actions, actions, Gen.int(in: 0...12), Gen.bool) { before, after, limit, hard in
            let settings = TranscriptSettings(limit: LengthLimit(limit: limit, mode: hard ? .hard : .soft))
            let sources = [CompletionTestData.people, CompletionTestData.channels]
            let window = RecordingWindow(text: "", settings: settings, sources: sources, traces: false)
            for action in before { window.act { Self.perform(action, in: window) } }
            #expect(window.lines.isEmpty, "no trace before it starts")
            window.act { window.requestTracing() }
            #expect(window.lines.first?.contains(#""ev":"start""#) == true || window.composer.model.preedit != nil)
            for action in after { window.act { Self.perform(action, in: window) } }
            window.act { window.send(.exit(.close)) }
            let transcript = try Transcript(text: window.transcript, name: "mid-session")
            let data = ReplayData(directory: CompletionTestData.directory, emoji: [])
            let output = try Replayer(transcript: transcript, settings: settings, data: data).run()
            #expect(ReplayComparison.firstDifference(recorded: transcript, replayed: output) == nil)
        }
    }

    private static func perform(_ action: Action, in window: RecordingWindow) {
        let count = window.buffer.count
        switch action {
        case .compose(let text):
            window.send(.preeditStarted)
            window.send(.preeditChanged(Preedit(text: text, cursor: text.unicodeScalars.count,
                                                segments: [PreeditSegment(start: 0, end: text.unicodeScalars.count, styles: [.underline])])))
            window.send(.settle)
            window.key("Return", consumed: true)
            window.commit(text)
            window.send(.preeditChanged(.empty))
            window.send(.preeditEnded)
        case .startComposing(let text):
            window.key("a")
            window.send(.preeditStarted)
            window.send(.preeditChanged(Preedit(text: text, cursor: 0, segments: [])))
        case .commit(let text):
            window.key("a")
            window.commit(text)
        case .type(let text):
            window.key("a")
            window.insert(text, at: window.caret)
            window.send(.userActionEnded)
        case .backspace:
            window.key("BackSpace")
            if window.caret > 0 { window.delete(window.caret - 1..<window.caret) }
        case .newline: window.key("Return", shift: true)
        case .send: window.key("Return")
        case let .select(anchor, caret): window.send(.selectionChanged(anchor: min(anchor, count), caret: min(caret, count)))
        case .paste(let text):
            window.send(.pasteStarted)
            window.insert(text, at: window.caret)
            window.send(.pasteEnded)
            window.send(.userActionEnded)
        case .undoLast:
            guard count > 0 else { return }
            window.send(.historyStarted(.undo))
            window.delete(count - 1..<count)
            window.send(.historyEnded(.undo))
        case .deleteSurrounding:
            guard window.caret > 0 else { return }
            window.send(.surroundingDeleted(offset: -1, count: 1))
            window.delete(window.caret - 1..<window.caret)
        case .trim: window.send(.trim)
        case .accept: window.send(.acceptCompletion(index: nil))
        case .moveList(let delta): window.send(.moveCompletion(by: delta))
        case .focusOut:
            window.send(.focusChanged(focused: false))
            window.send(.focusChanged(focused: true))
        }
    }
}
