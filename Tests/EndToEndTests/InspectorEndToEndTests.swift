import Foundation
import Testing
import ComposerCore
import TestHarness

/// The IME inspector in the real app with ibus-anthy: F12 opens it beside the composer
/// during a conversion, typing goes on into the input method exactly as before (the trace
/// and its replay decide the same), and a picture of it is kept (docs/inspector.png is one).
@Suite(.serialized)
struct InspectorEndToEndTests {
    static let artifacts = ComposerBinary.packageRoot.appendingPathComponent("out/test-artifacts")

    @Test(.timeLimit(.minutes(2)))
    func theInspectorBesideAnAnthyConversionLeavesTheInputMethodAlone() throws {
        let cs = try ComposerSession(.ibusAnthy, name: "e2e-inspector")
        defer { cs.stop() }
        let trace = cs.trace
        try cs.xdotool.key(["F12"])
        try cs.xdotool.type("kyouhaiitenkidesu")
        try trace.waitFor("the kana", from: cs.probeEndIndex) {
            $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "きょうはいいてんきです"
        }
        let converting = trace.entries.count
        try cs.xdotool.key(["space"])
        try trace.waitFor("the conversion's segments", from: converting) {
            $0["ev"]?.stringValue == "preedit" && ($0["segments"]?.arrayValue?.count ?? 0) >= 2
        }
        #expect(!trace.entries[cs.probeEndIndex...].contains { $0.name == "key" && $0.value["keyval"]?.stringValue == "F12" },
                "F12 is the window's shortcut: it never reaches the input method or the text")
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let shot = try cs.screenshotWindow(to: Self.artifacts.appendingPathComponent("inspector.png"))
        #expect(FileManager.default.fileExists(atPath: shot.path))
        let committing = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("the commit", from: committing) { $0["ev"]?.stringValue == "commit" }
        let sending = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("the send", from: sending) { $0["ev"]?.stringValue == "send" }
        #expect(try cs.terminateApp() == 0)
        #expect(try trace.schemaViolations() == [])
        try Transcripts.replayAndKeep(cs.traceURL, as: "ibus-anthy-with-inspector-open", in: cs.session)
    }
}
