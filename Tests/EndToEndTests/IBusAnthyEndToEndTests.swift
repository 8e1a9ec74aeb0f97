import Foundation
import Testing
import ComposerCore
import TestHarness

/// ime-composer with the real ibus-anthy engine under Xvfb: romaji → kana preedit →
/// conversion → commit → send → SIGTERM, all observed through the trace (v1, JSON Lines).
@Suite(.serialized)
struct IBusAnthyEndToEndTests {

    static let schemaURL = ComposerBinary.packageRoot.appendingPathComponent("docs/trace-schema.json")

    @Test(.timeLimit(.minutes(2)))
    func konekoConvertsCommitsSendsAndExitsCleanly() throws {
        let cs = try ComposerSession(.ibusAnthy, name: "e2e-anthy")
        defer { cs.stop() }
        let trace = cs.trace

        // Romaji "koneko", space converts (子猫), Return commits the conversion.
        try cs.xdotool.key(["k", "o", "n", "e", "k", "o", "space", "Return"])
        let commit = try trace.waitFor("the conversion's commit", from: cs.probeEndIndex) { $0["ev"]?.stringValue == "commit" }
        let committed = try #require(commit["text"]?.stringValue, "commit event without text: \(commit)")
        #expect(!committed.isEmpty)

        // The committed text reaches the buffer (a later `text` event)…
        try trace.waitFor("a text event with the committed text \"\(committed)\"",
                          from: trace.lastMatchIndex + 1) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == committed
        }

        let entries = trace.entries
        let ours = entries[cs.probeEndIndex...]
        let commitIndex = try #require(ours.firstIndex { $0.name == "commit" })
        // Entries before probeEndIndex are the harness's engine probe, not this test's typing.
        let beforeCommit = entries[cs.probeEndIndex..<commitIndex]
        #expect(beforeCommit.contains { $0.name == "preedit-start" }, "no preedit-start before the commit")

        let preedits = beforeCommit.filter { $0.name == "preedit" }.compactMap { $0.value["text"]?.stringValue }
        #expect(preedits.contains { $0.contains("こ") || $0.contains("ね") },
                "no hiragana preedit before conversion; preedits: \(preedits)")
        let lastNonEmpty = preedits.last { !$0.isEmpty }
        #expect(lastNonEmpty == committed,
                "last non-empty preedit \(lastNonEmpty ?? "nil") ≠ commit \(committed); preedits: \(preedits)")

        #expect(ours.filter { $0.name == "commit" }.count == 1, "expected exactly one commit")
        // The router filtered Return itself: its key line comes before the IM's reaction.
        let returnKey = try #require(ours.firstIndex { $0.name == "key" && $0.value["keyval"]?.stringValue == "Return" })
        #expect(ours[returnKey].value["consumed"]?.boolValue == true, "Return was taken by the IM")
        #expect(returnKey < commitIndex, "key Return is traced before the commit it caused")
        let textAfter = entries[(commitIndex + 1)...].contains {
            $0.name == "text" && $0.value["text"]?.stringValue == committed
        }
        #expect(textAfter, "no text event after the commit carrying \(committed)")
        // …but the Return that ended the conversion belongs to the IM, not to "send".
        #expect(!trace.entries.contains { $0.name == "send" }, "Return consumed by the IM must not send")

        // A second Return with no preedit sends.
        try cs.xdotool.key(["Return"])
        try trace.waitFor("a send event with text \"\(committed)\"") {
            $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue == committed
        }

        // SIGTERM: the app writes `exit` as its last line and exits 0.
        cs.app.terminate(signal: SIGTERM)
        let exit = try trace.waitFor(event: "exit")
        #expect(exit["reason"]?.stringValue == "sigterm")
        let status = try cs.app.waitForExit(timeout: .seconds(10))
        #expect(status == 0, "exit status \(status)\n\(cs.app.diagnostics())")
        let finalEntries = trace.entries
        #expect(finalEntries.last?.name == "exit", "exit is not the last trace line: \(finalEntries.last?.line ?? "<none>")")
        #expect(finalEntries.filter { $0.name == "exit" }.count == 1)
        #expect(trace.malformedLines.isEmpty, "malformed trace lines: \(trace.malformedLines)")

        // Every line conforms to the trace schema.
        let schema = try TraceSchema(contentsOf: Self.schemaURL)
        for entry in finalEntries {
            let problems = schema.validate(entry.line)
            #expect(problems.isEmpty, "line \(entry.index + 1) violates \(Self.schemaURL.lastPathComponent): \(problems)\n    \(entry.line)")
        }
    }
}
