import Foundation
import Testing
import ComposerCore
import TestHarness

/// ime-composer with the real ibus-hangul engine: jamo compose into a syllable in the
/// preedit (unlike iOS, where they commit and recompose), commits follow one another
/// without a pause, and Enter while a syllable is composing commits it but never sends.
@Suite(.serialized)
struct IBusHangulEndToEndTests {
    @Test(.timeLimit(.minutes(2)))
    func jamoComposeASyllableAndEnterWhileComposingNeverSends() throws {
        let cs = try ComposerSession(.ibusHangul, name: "e2e-hangul")
        defer { cs.stop() }
        let trace = cs.trace
        let from = cs.probeEndIndex

        try cs.xdotool.key(["r", "k", "s"])
        try trace.waitFor("the syllable 간 in the preedit", from: from) {
            $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "간"
        }
        let preedits = trace.entries[from...].filter { $0.name == "preedit" }.compactMap { $0.value["text"]?.stringValue }
        #expect(preedits.starts(with: ["ㄱ", "가", "간"]), "jamo compose in the preedit: \(preedits)")
        #expect(!trace.entries[from...].contains { $0.name == "commit" }, "nothing commits while composing")

        // Enter while 간 is composing: the IM commits it; the composer must not send.
        let enterFrom = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("the commit of 간", from: enterFrom) {
            $0["ev"]?.stringValue == "commit" && $0["text"]?.stringValue == "간"
        }
        try trace.waitFor("a text event with 간", from: enterFrom) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "간"
        }
        // ibus-hangul commits the syllable and reports Return as unused; the composer still
        // treats it as confirming the composition.
        let enter = try #require(trace.entries[enterFrom...].first { $0.name == "key" })
        #expect(enter.value["keyval"]?.stringValue == "Return")
        #expect(enter.value["consumed"]?.boolValue == false)

        // A second Return, with nothing composing, sends. The trace is ordered, so
        // "no send before the second Return's key line" is exact, not a race.
        let sendFrom = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("send 간", from: sendFrom) {
            $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue == "간"
        }
        let entries = trace.entries
        let secondReturn = try #require(entries[sendFrom...].firstIndex { $0.name == "key" })
        #expect(!entries[..<secondReturn].contains { $0.name == "send" }, "Enter while composing never sends")
        #expect(entries.filter { $0.name == "send" }.count == 1)
        #expect(entries[..<secondReturn].last { $0.name == "text" }?.value["text"]?.stringValue == "간",
                "the first Return added no newline either")
        cs.app.terminate(signal: SIGTERM)
        #expect(try cs.app.waitForExit(timeout: .seconds(10)) == 0)
        #expect(trace.entries.last?.name == "exit")
        #expect(try trace.schemaViolations() == [])
        try Transcripts.replayAndKeep(cs.traceURL, as: "ibus-hangul-enter-while-composing", in: cs.session)
    }
}
