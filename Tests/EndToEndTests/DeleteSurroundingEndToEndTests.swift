import Foundation
import Testing
import ComposerCore
import TestHarness

/// An input method's delete-surrounding request, through real IBus, with a scripted
/// engine (Tests/EndToEndTests/Engines/scripted_engine.py) so the request is exact:
/// the two characters before the caret (子猫: two characters, six UTF-8 bytes) are
/// replaced by 犬. The buffer must lose exactly those characters, and the edit must be
/// recorded with its origin.
@Suite(.serialized)
struct DeleteSurroundingEndToEndTests {
    @Test(.timeLimit(.minutes(2)))
    func deleteSurroundingCountsCharactersAndIsLoggedWithItsOrigin() throws {
        let start = "naïve 子猫"
        let scripted = try ScriptedEngineSession(name: "e2e-surrounding", arguments: ["--text", start])
        defer { scripted.stop() }
        let (trace, xdotool) = (scripted.trace, scripted.xdotool)
        let from = trace.entries.count
        try xdotool.key(["F5"])
        try trace.waitFor("the text after delete-surrounding and commit", from: from) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "naïve 犬"
        }
        let events = trace.entries[from...]
        let delete = try #require(events.first { $0.name == "surrounding" && $0.value["kind"]?.stringValue == "delete" })
        #expect(delete.value["offset"]?.intValue == -2 && delete.value["count"]?.intValue == 2)
        let edits = events.filter { $0.name == "edit" }.map(\.value)
        #expect(edits.count == 2, "\(edits)")
        #expect(edits.first?["origin"]?.stringValue == "delete-surrounding")
        #expect(edits.first?["at"]?.intValue == 6, "scalar offset of 子 in \(start)")
        #expect(edits.first?["removed"]?.stringValue == "子猫")
        #expect(edits.last?["origin"]?.stringValue == "im-commit")
        #expect(edits.last?["inserted"]?.stringValue == "犬")
        // The IM asked for the surrounding text and the text view answered it. (What the
        // engine sees of it is IBus's business: it reaches the engine asynchronously.)
        #expect(trace.entries.contains { $0.name == "surrounding" && $0.value["kind"]?.stringValue == "retrieve" })

        scripted.app.terminate(signal: SIGTERM)
        #expect(try scripted.app.waitForExit(timeout: .seconds(10)) == 0)
        #expect(trace.entries.last?.value["text"]?.stringValue == "naïve 犬")
        try Transcripts.replayAndKeep(scripted.traceURL, as: "ibus-scripted-delete-surrounding", in: scripted.session)
    }
}
