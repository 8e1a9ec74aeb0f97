import Foundation
import Testing
import ComposerCore
import TestHarness

/// GTK's built-in input method (GtkIMContextSimple): dead keys compose in a preedit;
/// a combining mark typed after its base letter joins it into one grapheme.
@Suite(.serialized)
struct GtkSimpleEndToEndTests {
    @Test(.timeLimit(.minutes(2)))
    func deadKeysAndCombiningMarks() throws {
        let cs = try ComposerSession(.gtkSimple, name: "e2e-simple")
        defer { cs.stop() }
        let trace = cs.trace
        // A layout with dead keys, as its users have (US international: ' is dead_acute).
        try cs.session.runChecked("setxkbmap", ["-layout", "us", "-variant", "intl"])

        try cs.xdotool.key(["dead_acute"])
        try trace.waitFor("the dead key's preedit") {
            $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "´"
        }
        // Enter in the middle of a compose sequence belongs to the input method.
        let enterFrom = trace.entries.count
        try cs.xdotool.key(["Return"])
        let enter = try trace.waitFor("Return's key line", from: enterFrom) { $0["ev"]?.stringValue == "key" }
        #expect(enter["consumed"]?.boolValue == true)
        try cs.xdotool.key(["e"])
        try trace.waitFor("é committed") { $0["ev"]?.stringValue == "commit" && $0["text"]?.stringValue == "é" }
        try trace.waitFor("text é") { $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "é" }

        // A combining caron typed after C: two scalars, one grapheme (Č), committed as is.
        // The keysym gets a keycode of its own first: xdotool would otherwise remap one just
        // for the press and restore it before the app has read the event (keyval 0).
        try cs.session.runChecked("xmodmap", ["-e", "keycode 254 = U030C"])
        try cs.xdotool.key(["C", "U030C"])
        let decomposed = "éC\u{30C}"
        let text = try trace.waitFor("text with C + combining caron") {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue.map { Array($0.unicodeScalars) } == Array(decomposed.unicodeScalars)
        }
        #expect(text["caret"]?.intValue == 3, "the caret counts scalars")
        let commits: [String] = trace.events(named: "commit").compactMap { $0["text"]?.stringValue }
        #expect(commits.contains("\u{30C}"), "the mark is committed alone: \(commits)")
        #expect(decomposed.count == 2, "é and Č: two graphemes")

        let sendFrom = trace.entries.count
        try cs.xdotool.key(["Return"])
        let sent = try trace.waitFor("send", from: sendFrom) { $0["ev"]?.stringValue == "send" }
        #expect(sent["text"]?.stringValue.map { Array($0.unicodeScalars) } == Array(decomposed.unicodeScalars))
        #expect(trace.events(named: "send").count == 1, "only the last Return sent")

        cs.app.terminate(signal: SIGINT)
        #expect(try cs.app.waitForExit(timeout: .seconds(10)) == 0)
        #expect(trace.entries.last?.value["reason"]?.stringValue == "sigint")
        #expect(try trace.schemaViolations() == [])
        try Transcripts.replayAndKeep(cs.traceURL, as: "gtk-dead-keys-combining-caron", in: cs.session)
    }

    /// Ctrl+Shift+U hex entry (GTK's simple IM) types 🐱 as a preedit "u1f431", committed
    /// by Space; over a soft limit of 3, Trim to limit (Ctrl+Shift+T, a command the
    /// transcript records as such) cuts the overflow, and Return sends what is left.
    @Test(.timeLimit(.minutes(2)))
    func hexEntryAndTrimToASoftLimit() throws {
        let cs = try ComposerSession(.gtkSimple, arguments: ["--limit", "3"], name: "e2e-simple-hex")
        defer { cs.stop() }
        let trace = cs.trace
        try cs.xdotool.type("ab")
        try trace.waitFor("text ab") { $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "ab" }
        try cs.xdotool.key(["ctrl+shift+u"])
        try cs.xdotool.key(["1", "f", "4", "3", "1"])
        try trace.waitFor("the hex preedit") { $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "u1f431" }
        try cs.xdotool.key(["space"])
        try trace.waitFor("🐱 committed") { $0["ev"]?.stringValue == "commit" && $0["text"]?.stringValue == "🐱" }
        try cs.xdotool.type("cd")
        try trace.waitFor("two over") { $0["ev"]?.stringValue == "overflow" && $0["over"]?.intValue == 2 }
        // From here on: the text was already "ab🐱" once, before "cd" was typed.
        let trimFrom = trace.entries.count
        try cs.xdotool.key(["ctrl+shift+t"])
        try trace.waitFor("trimmed", from: trimFrom) { $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "ab🐱" }
        #expect(trace.entries.contains { $0.name == "command" && $0.value["name"]?.stringValue == "trim" })
        try cs.xdotool.key(["Return"])
        try trace.waitFor("send") { $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue == "ab🐱" }
        #expect(try cs.terminateApp() == 0)
        #expect(try trace.schemaViolations() == [])
        try Transcripts.replayAndKeep(cs.traceURL, as: "gtk-hex-entry-trim", in: cs.session)
    }
}
