import Foundation
import Testing
import ComposerCore
import TestHarness

/// A long typing session through the real app, with GLib warnings and criticals fatal
/// (ComposerSession runs it with G_DEBUG=fatal-warnings): thousands of keys, completion
/// lists opening and closing, the overflow colour and its trim, an input grown past six
/// lines, twenty sends (the message list scrolls). The app must
/// end it with exit status 0 and nothing on stderr but its own lines.
@Suite(.serialized)
struct CleanRunEndToEndTests {
    @Test(.timeLimit(.minutes(5)))
    func aLongTypingSessionLeavesStderrClean() throws {
        let cs = try ComposerSession(.gtkSimple, name: "e2e-clean")
        defer { cs.stop() }
        var xdotool = cs.xdotool
        xdotool.delayMs = 4
        let trace = cs.trace
        let phrases = ["hello @tan", "a", " see #gen", " and :smi", "le ok", " fine, more words to wrap the line"]
        var keys = 0
        for round in 1...20 {
            let from = trace.entries.count
            for phrase in phrases {
                try xdotool.type(phrase)
                keys += phrase.count
                // Line breaks: the input grows to six lines, then scrolls.
                if round.isMultiple(of: 3) { try xdotool.key(["shift+Return"]); keys += 1 }
            }
            if round.isMultiple(of: 5) {
                // Past the limit of 200: coloured, refused, then trimmed in one step.
                let long = String(repeating: "overflowing text ", count: 10)
                try xdotool.type(long)
                keys += long.count
                try trace.waitFor("the overflow in round \(round)", from: from) {
                    $0["ev"]?.stringValue == "overflow" && ($0["over"]?.intValue ?? 0) > 0
                }
                try xdotool.key(["ctrl+shift+t"])
                try trace.waitFor("the trim in round \(round)", from: from) {
                    $0["ev"]?.stringValue == "overflow" && $0["over"]?.intValue == 0
                }
            }
            try xdotool.key(["Escape", "Return"])  // close any completion list, then send
            keys += 2
            try trace.waitFor("send \(round)", timeout: .seconds(60), from: from) { $0["ev"]?.stringValue == "send" }
        }
        #expect(keys > 1_500, "a long session: \(keys) keys")
        #expect(trace.events(named: "send").count == 20)
        #expect(try cs.terminateApp() == 0, "the app survived the session\n\(cs.app.diagnostics())")
        let stderr = cs.app.stderr
        #expect(!stderr.contains("WARNING") && !stderr.contains("CRITICAL"), "stderr: \(stderr)")
        #expect(try trace.schemaViolations() == [])
    }

    /// The same through ibus-anthy: kana preedits, conversions, commits and sends, fifteen
    /// times over, leave the app's stderr clean too (IBus's own warnings included).
    @Test(.timeLimit(.minutes(5)))
    func aLongJapaneseSessionThroughIBusLeavesStderrClean() throws {
        let cs = try ComposerSession(.ibusAnthy, name: "e2e-clean-anthy")
        defer { cs.stop() }
        let trace = cs.trace
        let romaji = "watashihanihongowobenkyoushiteimasu"
        for round in 1...15 {
            let from = trace.entries.count
            try cs.xdotool.key(romaji.map(String.init) + ["space"])
            // Return only once the conversion shows (its segment selected): ibus-anthy takes
            // a Return that arrives while it is still converting and commits nothing.
            try trace.waitFor("round \(round)'s conversion", timeout: .seconds(60), from: from) {
                $0["ev"]?.stringValue == "preedit" && ($0["segments"]?.arrayValue ?? []).contains {
                    $0.arrayValue?.last?.arrayValue?.contains(.string("highlight")) == true
                }
            }
            try cs.xdotool.key(["Return"])
            try trace.waitFor("round \(round)'s conversion committed", timeout: .seconds(60), from: from) {
                $0["ev"]?.stringValue == "preedit-end"
            }
            try cs.xdotool.key(["Return"])
            try trace.waitFor("send \(round)", timeout: .seconds(60), from: from) { $0["ev"]?.stringValue == "send" }
        }
        #expect(trace.events(named: "send").count == 15)
        #expect(try cs.terminateApp() == 0, "the app survived the session\n\(cs.app.diagnostics())")
        let stderr = cs.app.stderr
        #expect(!stderr.contains("WARNING") && !stderr.contains("CRITICAL"), "stderr: \(stderr)")
        #expect(try trace.schemaViolations() == [])
    }
}
