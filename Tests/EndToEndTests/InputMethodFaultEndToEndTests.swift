import Foundation
import Testing
import ComposerCore
import TestHarness

/// The input method dies in the middle of a composition (#15): the app stays up, the
/// committed text is intact, nothing stays "composing", and once the daemon is back typing
/// works again.
@Suite(.serialized)
struct InputMethodFaultEndToEndTests {
    @Test(.timeLimit(.minutes(3)))
    func ibusDaemonKilledDuringACompositionLeavesTheAppWhole() throws {
        let cs = try ComposerSession(.ibusAnthy, name: "e2e-ibus-killed")
        defer { cs.stop() }
        let trace = cs.trace
        // Committed text first, then a composition that is showing when the daemon dies.
        try cs.xdotool.key(["k", "o", "n", "e", "k", "o", "space", "Return"])
        let committed = try trace.waitFor("the commit", from: cs.probeEndIndex) { $0["ev"]?.stringValue == "commit" }
        let text = try #require(committed["text"]?.stringValue)
        try cs.xdotool.key(["i", "n", "u"])
        try trace.waitFor("the next composition", from: trace.lastMatchIndex + 1) {
            $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "いぬ"
        }
        let ibus = try #require(cs.ibus)
        ibus.process.terminate(signal: SIGKILL)
        _ = try ibus.process.waitForExit(timeout: .seconds(10))
        // IBus's GTK module never ends the composition itself: the composer sees the daemon's
        // name leave the session bus and ends it (the uncommitted いぬ is gone, as on a cancel).
        try trace.waitFor("the input method's loss", timeout: .seconds(20)) {
            $0["ev"]?.stringValue == "input-method-lost" && $0["name"]?.stringValue == "org.freedesktop.IBus"
        }
        #expect(cs.app.isRunning, "the app survives its input method")
        try cs.xdotool.key(["Return"])
        try trace.waitFor("Return sends the committed text", timeout: .seconds(20)) {
            $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue?.hasPrefix(text) == true
        }
        // The daemon comes back: the module reconnects and composing works again, no focus change.
        _ = try IBus.startAnthy(cs.session, selectEngine: true)
        var composing = false
        for _ in 0..<10 where !composing {
            let from = trace.entries.count
            try cs.xdotool.key(["a"])
            composing = (try? trace.waitFor("a preedit again", timeout: .milliseconds(1500), from: from) {
                $0["ev"]?.stringValue == "preedit" && ($0["text"]?.stringValue ?? "").contains("あ")
            }) != nil
        }
        #expect(composing, "typing through the restarted daemon composes again")
        #expect(try cs.terminateApp() == 0)
        try Transcripts.replayAndKeep(cs.traceURL, as: "ibus-daemon-killed-mid-composition", in: cs.session)
    }

    /// fcitx5 killed mid-composition: its GTK module keeps showing the preedit and never
    /// ends the composition; the composer sees org.fcitx.Fcitx5 leave the bus and ends it,
    /// so Enter sends again without the user moving the focus.
    @Test(.timeLimit(.minutes(3)))
    func fcitx5KilledDuringACompositionIsNoticedWithoutAFocusChange() throws {
        let cs = try ComposerSession(.fcitxAnthy, name: "e2e-fcitx-killed")
        defer { cs.stop() }
        let trace = cs.trace
        try cs.xdotool.key(["k", "o", "n", "e", "k", "o", "space", "Return"])
        let committed = try trace.waitFor("the commit", from: cs.probeEndIndex) { $0["ev"]?.stringValue == "commit" }
        let text = try #require(committed["text"]?.stringValue)
        try cs.xdotool.key(["i", "n", "u"])
        try trace.waitFor("the next composition", from: trace.lastMatchIndex + 1) {
            $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "いぬ"
        }
        let fcitx = try #require(cs.fcitx)
        fcitx.process.terminate(signal: SIGKILL)
        _ = try fcitx.process.waitForExit(timeout: .seconds(10))
        try trace.waitFor("the input method's loss", timeout: .seconds(20)) {
            $0["ev"]?.stringValue == "input-method-lost" && $0["name"]?.stringValue == "org.fcitx.Fcitx5"
        }
        #expect(cs.app.isRunning, "the app survives its input method")
        try cs.xdotool.key(["Return"])
        try trace.waitFor("Return sends the committed text", timeout: .seconds(20)) {
            $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue == text
        }
        #expect(try cs.terminateApp() == 0)
        try Transcripts.replayAndKeep(cs.traceURL, as: "fcitx5-killed-mid-composition", in: cs.session)
    }
}
