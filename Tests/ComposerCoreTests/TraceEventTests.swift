import ComposerCore
import Foundation
import Testing

@Suite("TraceEvent: exact lines and schema conformance")
struct TraceEventTests {
    static let preedit = Preedit(text: "こねこ", cursor: 3, segments: [
        PreeditSegment(start: 0, end: 1, styles: [.underline]),
        PreeditSegment(start: 1, end: 3, styles: [.highlight, .underline]),
    ])
    static let snapshot = TextSnapshot(text: "a\"b\n", caret: 1, selection: TextSelection(anchor: 3, caret: 1))

    static let expectedLines: [(TraceEvent, String)] = [
        (.start(backend: "x11", imModule: "ibus", settings: TranscriptSettings(limit: LengthLimit(limit: 10, mode: .hard, unit: .scalars),
                                                                               dataDirectory: "/srv/data")),
         #"{"ev":"start","t":42,"v":1,"backend":"x11","im_module":"ibus","limit":10,"limit_mode":"hard","unit":"scalars","data":"/srv/data"}"#),
        (.start(backend: "wayland", imModule: "wayland", settings: TranscriptSettings(simulatedKeyboardInset: 260)),
         #"{"ev":"start","t":42,"v":1,"backend":"wayland","im_module":"wayland","limit":200,"limit_mode":"soft","unit":"graphemes","data":"","osk_inset":260}"#),
        (.start(backend: "x11", imModule: "ibus", settings: TranscriptSettings(
            inputMethodFacing: InputMethodFacing(surrounding: .off, purpose: .password, hints: [.private, .noEmoji, .private]))),
         #"{"ev":"start","t":42,"v":1,"backend":"x11","im_module":"ibus","limit":200,"limit_mode":"soft","unit":"graphemes","data":"","surrounding":"off","input_purpose":"password","input_hints":["no-emoji","private"]}"#),
        (.ready, #"{"ev":"ready","t":42}"#),
        (.focus(in: true), #"{"ev":"focus","t":42,"in":true}"#),
        (.key(keyval: "Return", consumed: false), #"{"ev":"key","t":42,"keyval":"Return","consumed":false}"#),
        (.key(keyval: "a", consumed: nil), #"{"ev":"key","t":42,"keyval":"a"}"#),
        (.key(keyval: "Return", consumed: false, shift: true), #"{"ev":"key","t":42,"keyval":"Return","consumed":false,"shift":true}"#),
        (.preeditStart, #"{"ev":"preedit-start","t":42}"#),
        (.preeditEnd, #"{"ev":"preedit-end","t":42}"#),
        (.preedit(preedit), #"{"ev":"preedit","t":42,"text":"こねこ","cursor":3,"segments":[[0,1,["underline"]],[1,3,["underline","highlight"]]]}"#),
        (.preedit(.empty), #"{"ev":"preedit","t":42,"text":"","cursor":0,"segments":[]}"#),
        (.commit("子猫"), #"{"ev":"commit","t":42,"text":"子猫"}"#),
        (.surroundingRetrieve, #"{"ev":"surrounding","t":42,"kind":"retrieve"}"#),
        (.surroundingDelete(offset: -2, count: 2), #"{"ev":"surrounding","t":42,"kind":"delete","offset":-2,"count":2}"#),
        (.text(snapshot), #"{"ev":"text","t":42,"text":"a\"b\n","caret":1,"sel":[1,3]}"#),
        (.edit(Edit(sequence: 7, range: 3..<5, removed: "子猫", inserted: "", origin: .deleteSurrounding)),
         #"{"ev":"edit","t":42,"origin":"delete-surrounding","at":3,"removed":"子猫","inserted":""}"#),
        (.limit(removed: "ニャー", at: 7), #"{"ev":"limit","t":42,"removed":"ニャー","at":7}"#),
        (.overflow(start: 200, end: 207, over: 7, unit: .graphemes),
         #"{"ev":"overflow","t":42,"start":200,"end":207,"over":7,"unit":"graphemes"}"#),
        (.completion(state: .open, prefix: "@", query: "たな", items: ["u0001", "u0003"], selected: 0),
         #"{"ev":"completion","t":42,"state":"open","prefix":"@","query":"たな","items":["u0001","u0003"],"selected":0}"#),
        (.completion(state: .close, prefix: ":", query: "ねこ", items: [], selected: -1),
         #"{"ev":"completion","t":42,"state":"close","prefix":":","query":"ねこ","items":[],"selected":-1}"#),
        (.accept(item: "u0001", text: "@tanaka "), #"{"ev":"accept","t":42,"item":"u0001","text":"@tanaka "}"#),
        (.layout(Layout(panelWidth: 360, panelHeight: 640, list: 100, completion: 96, completionRows: 3,
                        indicator: 24, toolbar: 40, input: 120, keyboard: 260)),
         #"{"ev":"layout","t":42,"panel":[360,640],"list":100,"completion":96,"indicator":24,"toolbar":40,"input":120,"keyboard":260}"#),
        (.keyboard(KeyboardEvent(visible: true, height: 214, overlap: 0, source: .resize)),
         #"{"ev":"keyboard","t":42,"visible":true,"height":214,"overlap":0,"source":"resize"}"#),
        (.send("hi"), #"{"ev":"send","t":42,"text":"hi"}"#),
        (.send("hi!", editsLast: true), #"{"ev":"send","t":42,"text":"hi!","edits_last":true}"#),
        (.exit(text: "子猫", caret: 2, preedit: "", reason: .ctrlQ), #"{"ev":"exit","t":42,"text":"子猫","caret":2,"preedit":"","reason":"ctrl-q"}"#),
        (.settle, #"{"ev":"settle","t":42}"#),
        (.selection(anchor: 4, caret: 1), #"{"ev":"selection","t":42,"anchor":4,"caret":1}"#),
        (.command(.send), #"{"ev":"command","t":42,"name":"send"}"#),
        (.command(.trim), #"{"ev":"command","t":42,"name":"trim"}"#),
        (.command(.accept(index: 2)), #"{"ev":"command","t":42,"name":"accept","index":2}"#),
        (.command(.accept(index: nil)), #"{"ev":"command","t":42,"name":"accept"}"#),
        (.command(.completionMove(by: -1)), #"{"ev":"command","t":42,"name":"completion-move","by":-1}"#),
        (.command(.completionClose), #"{"ev":"command","t":42,"name":"completion-close"}"#),
        (.data(TracedData(sources: [("people", 14), ("channels", 6)], recents: ["people": ["u0002", "u0001"]])),
         #"{"ev":"data","t":42,"sources":{"people":14,"channels":6},"recents":{"people":["u0002","u0001"]}}"#),
        (.diverged(text: "abc"), #"{"ev":"diverged","t":42,"text":"abc"}"#),
        (.inputMethodLost(name: "org.fcitx.Fcitx5"), #"{"ev":"input-method-lost","t":42,"name":"org.fcitx.Fcitx5"}"#),
        (.history(lastSent: "see you"), #"{"ev":"history","t":42,"last_sent":"see you"}"#),
        (.paint, #"{"ev":"paint","t":42}"#),
        (.press(x: 10, y: 553), #"{"ev":"press","t":42,"x":10,"y":553}"#),
        (.press(x: 10, y: 553, imResetFirst: true), #"{"ev":"press","t":42,"x":10,"y":553,"im_reset_first":true}"#),
        (.placement(CandidatePlacement(given: PixelRect(x: 8, y: 6, width: 0, height: 19))),
         #"{"ev":"placement","t":42,"given":[8,6,0,19],"scale":1}"#),
        (.placement(CandidatePlacement(given: PixelRect(x: 8, y: 6, width: 0, height: 19),
                                       caret: PixelRect(x: 28, y: 712, width: 0, height: 38),
                                       sent: PixelRect(x: 16, y: 76, width: 100, height: 1536), via: "ibus SetCursorLocation",
                                       popup: PixelRect(x: 16, y: 51, width: 68, height: 25), scale: 2, windowHeight: 768)),
         #"{"ev":"placement","t":42,"given":[8,6,0,19],"scale":2,"caret":[28,712,0,38],"sent":[16,76,100,1536],"via":"ibus SetCursorLocation","popup":[16,51,68,25],"window_height":768}"#),
        (.textLength(length: 70_000, caret: 3, selection: TextSelection(anchor: 5, caret: 3)),
         #"{"ev":"text","t":42,"length":70000,"caret":3,"sel":[3,5]}"#),
    ]

    /// A trace line read back is the event that wrote it (what replay relies on).
    @Test func eachLineDecodesToTheEventThatWroteIt() throws {
        for (event, line) in Self.expectedLines {
            let decoded = try TraceEvent.decode(try JSONValue.parse(line))
            #expect(decoded.t == 42)
            #expect(decoded.event.json(t: 42).serialized() == line, "\(event.name)")
        }
    }

    @Test func eachEventSerialisesToItsExactLine() {
        for (event, line) in Self.expectedLines {
            #expect(event.json(t: 42).serialized() == line, "\(event.name)")
        }
    }

    @Test func everyEventValidatesAgainstTheSchemaFile() throws {
        let schema = try TraceSchema(contentsOf: repositoryRoot().appendingPathComponent("docs/trace-schema.json"))
        for (event, line) in Self.expectedLines {
            #expect(schema.validate(line) == [], "\(event.name)")
            #expect(schema.validate(event.json(t: 0)) == [], "\(event.name)")
        }
        for origin in EditOrigin.allCases {
            let edit = Edit(sequence: 0, range: 0..<0, removed: "", inserted: "a", origin: origin)
            #expect(schema.validate(TraceEvent.edit(edit).json(t: 1)) == [], "\(origin)")
        }
        for unit in CountUnit.allCases {
            #expect(schema.validate(TraceEvent.overflow(start: 0, end: 0, over: 0, unit: unit).json(t: 1)) == [])
        }
        for reason in ExitReason.allCases {
            #expect(schema.validate(TraceEvent.exit(text: "", caret: 0, preedit: "x", reason: reason).json(t: 1)) == [])
        }
        for change in CompletionListChange.allCases {
            let event = TraceEvent.completion(state: change, prefix: "#", query: "", items: ["c01"], selected: 0)
            #expect(schema.validate(event.json(t: 1)) == [], "\(change)")
        }
        for source in KeyboardSource.allCases {
            let event = TraceEvent.keyboard(KeyboardEvent(visible: false, height: 0, overlap: 0, source: source))
            #expect(schema.validate(event.json(t: 1)) == [], "\(source)")
        }
        let allStyles = Preedit(text: "ab", cursor: 0, segments: [PreeditSegment(start: 0, end: 2, styles: PreeditStyle.allCases)])
        #expect(schema.validate(TraceEvent.preedit(allStyles).json(t: 1)) == [])
    }

    @Test func theSchemaCoversExactlyTheEventNames() throws {
        let schema = try TraceSchema(contentsOf: repositoryRoot().appendingPathComponent("docs/trace-schema.json"))
        let names = Set(Self.expectedLines.map { $0.0.name })
        #expect(Set(schema.eventNames) == names)
        #expect(schema.version == TraceEvent.traceVersion)
    }
}
