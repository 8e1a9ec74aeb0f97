import ComposerCore
import ComposerStore
import Foundation
import TestHarness
import Testing

/// Nothing typed is lost (#15): the app is killed or stopped while typing and the next
/// start with the same `--profile` shows all of it.
@Suite(.serialized)
struct DraftPersistenceEndToEndTests {
    /// A profile directory shared by two sessions (each session has its own HOME), removed
    /// at the end.
    static func sharedProfile(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The draft the running app saved last, read as another process would.
    static func savedDraft(in profile: URL) -> Draft? {
        guard FileManager.default.fileExists(atPath: profile.appendingPathComponent(ProfileStore.fileName).path) else {
            return nil
        }
        return try? StoreOpener.open(directory: profile).store?.load().draft
    }

    /// SIGKILLed while typing Japanese through ibus-anthy, with 子猫 committed and a
    /// conversion of いぬ showing: the next start restores both, the conversion as typed text.
    @Test(.timeLimit(.minutes(3)))
    func sigkillWhileAConversionShowsLosesNothing() throws {
        let profile = try Self.sharedProfile("e2e-sigkill-profile")
        defer { try? FileManager.default.removeItem(at: profile) }
        let cs = try ComposerSession(.ibusAnthy, arguments: ["--profile", profile.path], name: "e2e-sigkill")
        defer { cs.stop() }
        let trace = cs.trace
        try cs.typeConvertAndConfirm(romaji: "koneko", kana: "こねこ")
        let committed = try trace.waitFor("the commit", from: cs.probeEndIndex) { $0["ev"]?.stringValue == "commit" }
        let kitten = try #require(committed["text"]?.stringValue)
        try cs.xdotool.key(["i", "n", "u"])
        try trace.waitFor("いぬ composing", from: trace.lastMatchIndex + 1) {
            $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "いぬ"
        }
        try cs.xdotool.key(["space"])
        let conversion = try trace.waitFor("a conversion showing", from: trace.lastMatchIndex + 1) {
            $0["ev"]?.stringValue == "preedit" && ($0["text"]?.stringValue).map { !$0.isEmpty && $0 != "いぬ" } == true
        }
        let shown = try #require(conversion["text"]?.stringValue)
        let expected = kitten + shown
        // Saved within half a second of input settling; the test waits for it, no fixed sleep.
        let saved = try Wait.until("the draft with the conversion saved", timeout: .seconds(10)) {
            Self.savedDraft(in: profile).flatMap { $0.text == expected ? $0 : nil }
        }
        #expect(saved.composing == kitten.unicodeScalars.count..<expected.unicodeScalars.count)
        #expect(!trace.entries.contains { $0.name == "commit" && $0.value["text"]?.stringValue == shown },
                "the conversion was never committed: it is saved because it was on screen")
        cs.app.terminate(signal: SIGKILL)
        _ = try cs.app.waitForExit(timeout: .seconds(10))

        let restarted = try ComposerSession(.gtkSimple, arguments: ["--profile", profile.path], name: "e2e-sigkill-restart")
        defer { restarted.stop() }
        let start = try #require(restarted.trace.entries.first)
        #expect(start.name == "start")
        let firstText = try restarted.trace.waitFor(event: "text")
        #expect(firstText["text"]?.stringValue == expected, "committed text and the conversion, as typed text")
        #expect(firstText["caret"]?.intValue == saved.caret)
        try restarted.xdotool.key(["Return"])
        try restarted.trace.waitFor("the restored draft sent") {
            $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue == expected
        }
        #expect(try restarted.terminateApp() == 0)
    }

    /// SIGTERM right after typing (before the save delay ran out) and a sent message:
    /// the exit writes everything; the next start has the draft, and Up edits the message.
    @Test(.timeLimit(.minutes(2)))
    func sigtermRightAfterTypingKeepsTheDraftAndTheMessages() throws {
        let profile = try Self.sharedProfile("e2e-sigterm-profile")
        defer { try? FileManager.default.removeItem(at: profile) }
        let cs = try ComposerSession(.gtkSimple, arguments: ["--profile", profile.path], name: "e2e-sigterm")
        defer { cs.stop() }
        try cs.xdotool.type("sent <i>first</i>")
        try cs.xdotool.key(["Return"])
        try cs.trace.waitFor("the send") { $0["ev"]?.stringValue == "send" }
        try cs.xdotool.type("typed just now")
        try cs.trace.waitFor("the text") { $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "typed just now" }
        #expect(try cs.terminateApp() == 0)
        #expect(Self.savedDraft(in: profile)?.text == "typed just now")
        // All of it in the database file, none left only in the WAL: a profile that is
        // read-only at the next start is read without the WAL (StoreOpener.readOnlyState).
        #expect(StoreOpener.readOnlyState(directory: profile)?.draft.text == "typed just now",
                "the draft is not in the database file itself after the app exited")
        let mode = PrivateFiles.mode(of: profile.path)
        #expect(mode == 0o700, "the profile directory is private: \(String(describing: mode))")
        for name in [ProfileStore.fileName, RecentItems.fileName] {
            let path = profile.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path) { #expect(PrivateFiles.mode(of: path) == 0o600, "\(name)") }
        }

        let restarted = try ComposerSession(.gtkSimple, arguments: ["--profile", profile.path], name: "e2e-sigterm-restart")
        defer { restarted.stop() }
        let history = try restarted.trace.waitFor(event: "history")
        #expect(history["last_sent"]?.stringValue == "sent <i>first</i>")
        #expect(try restarted.trace.waitFor(event: "text")["text"]?.stringValue == "typed just now")
        // Clear the draft, then Up brings the message back to be edited.
        try restarted.xdotool.key(["ctrl+a", "BackSpace"])
        try restarted.trace.waitFor("an empty input") { $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "" }
        try restarted.xdotool.key(["Up"])
        try restarted.trace.waitFor("the message back in the input") {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "sent <i>first</i>"
        }
        try restarted.xdotool.type("!")
        try restarted.xdotool.key(["Return"])
        let edit = try restarted.trace.waitFor("the edit sent") { $0["ev"]?.stringValue == "send" }
        #expect(edit["text"]?.stringValue == "sent <i>first</i>!")
        #expect(edit["edits_last"]?.boolValue == true)
        #expect(try restarted.terminateApp() == 0)
        let messages = try #require(StoreOpener.open(directory: profile).store).load().messages
        #expect(messages.map(\.text) == ["sent <i>first</i>!"])
        try Transcripts.replayAndKeep(restarted.traceURL, as: "edit-last-sent-after-restart", in: restarted.session)
    }

    /// GtkApplication's inhibit API, as a GNOME session sees it: while a draft is not saved
    /// yet the app asks org.gnome.SessionManager to hold a logout (flag 1), and lets go once
    /// it is written. The session manager here is a stand-in that logs the calls.
    @Test(.timeLimit(.minutes(2)))
    func aLogoutIsHeldWhileTheDraftIsNotSavedYet() throws {
        let profile = try Self.sharedProfile("e2e-inhibit-profile")
        defer { try? FileManager.default.removeItem(at: profile) }
        var calls: URL!
        let cs = try ComposerSession(.gtkSimple, arguments: ["--profile", profile.path], name: "e2e-logout-inhibit") { session in
            calls = session.directory.appendingPathComponent("session-manager.log")
            let script = ScriptedEngineSession.engines.appendingPathComponent("fake_session_manager.py")
            _ = try session.launch("fake-session-manager", executable: "/usr/bin/python3", arguments: [script.path, calls.path])
            try Wait.until("the stand-in session manager on the bus", timeout: .seconds(20)) {
                (try? String(contentsOf: calls, encoding: .utf8))?.contains("ready") == true
            }
        }
        defer { cs.stop() }
        func log() -> [String] {
            ((try? String(contentsOf: calls, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        try cs.xdotool.type("hold on")
        try cs.trace.waitFor("the text") { $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "hold on" }
        let inhibit = try Wait.until("an Inhibit call", timeout: .seconds(10)) { log().first { $0.hasPrefix("inhibit ") } }
        #expect(inhibit.contains("flags=1"), "GTK_APPLICATION_INHIBIT_LOGOUT: \(inhibit)")
        #expect(inhibit.contains("app=io.github.imecomposer.ImeComposer") && inhibit.contains("reason=Saving your draft"))
        let cookie = try #require(inhibit.split(separator: " ").dropFirst().first.map(String.init))
        _ = try Wait.until("the Uninhibit once saved", timeout: .seconds(10)) { log().contains("uninhibit \(cookie)") ? true : nil }
        #expect(Self.savedDraft(in: profile)?.text == "hold on", "let go only once the draft is written")
        #expect(try cs.terminateApp() == 0)
        let inhibits = log().filter { $0.hasPrefix("inhibit ") }.count
        let uninhibits = log().filter { $0.hasPrefix("uninhibit ") }.count
        #expect(inhibits == uninhibits, "every hold let go: \(log())")
    }
}
