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
    static let engineScript = ComposerBinary.packageRoot
        .appendingPathComponent("Tests/EndToEndTests/Engines/scripted_engine.py").path

    @Test(.timeLimit(.minutes(2)))
    func deleteSurroundingCountsCharactersAndIsLoggedWithItsOrigin() throws {
        try Prerequisites.require(Prerequisites.x11 + Prerequisites.ibus)
        let session = try TestSession(name: "e2e-surrounding")
        defer { session.stop() }
        do {
            _ = try Xvfb.start(in: session)
            _ = try DBusSession.start(in: session)
            let ibus = try IBus.start(in: session)
            // The daemon answers before it has published its address for other clients.
            let address = try Wait.until("ibus-daemon to publish its address", timeout: .seconds(20)) { () -> String? in
                let printed = try session.run("ibus", ["address"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                return printed.hasPrefix("unix:") ? printed : nil
            }
            let engine = try session.launch("scripted-engine", executable: "/usr/bin/python3",
                                            arguments: [Self.engineScript],
                                            environment: ["IBUS_ADDRESS": address])
            _ = try Wait.until("the scripted engine to register", timeout: .seconds(20),
                           diagnostics: { engine.diagnostics() },
                           failFast: { if !engine.isRunning { throw HarnessError("engine died\n" + engine.diagnostics()) } }) {
                engine.stdout.contains("registered") ? true : nil
            }
            try ibus.setEngine("ime-composer-scripted")

            let traceURL = session.directory.appendingPathComponent("trace.jsonl")
            let start = "naïve 子猫"
            let app = try session.launch("ime-composer", executable: try ComposerBinary.path,
                                         arguments: ["--trace", traceURL.path, "--text", start,
                                                     "--profile", session.dataHome.path],
                                         environment: ["GTK_IM_MODULE": "ibus", "GDK_BACKEND": "x11"]
                                            .merging(ComposerSession.fatalGLibProblems) { _, fatal in fatal })
            let trace = TraceLog(url: traceURL, watching: app)
            let xdotool = XDoTool(session: session)
            try xdotool.focus(try xdotool.waitForWindow(pid: app.pid, name: "IME Composer", process: app))
            try trace.waitFor(event: "ready")

            // The engine is attached once it answers the probe key with its preedit.
            var answered = false
            for _ in 0..<8 where !answered {
                let from = trace.entries.count
                try xdotool.key(["F6"])
                answered = (try? trace.waitFor("the probe preedit", timeout: .milliseconds(1500), from: from) {
                    $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "probe"
                }) != nil
            }
            #expect(answered, "the scripted engine never answered")
            let cancel = trace.entries.count
            try xdotool.key(["Escape"])
            try trace.waitFor("the probe preedit to end", from: cancel) { $0["ev"]?.stringValue == "preedit-end" }

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

            app.terminate(signal: SIGTERM)
            #expect(try app.waitForExit(timeout: .seconds(10)) == 0)
            #expect(trace.entries.last?.value["text"]?.stringValue == "naïve 犬")
            try Transcripts.replayAndKeep(traceURL, as: "ibus-scripted-delete-surrounding", in: session)
        } catch {
            session.markFailed()
            throw error
        }
    }
}
