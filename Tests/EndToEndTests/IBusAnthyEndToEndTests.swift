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

        // Romaji "koneko", space converts (子猫), Return commits the conversion once shown.
        try cs.typeConvertAndConfirm(romaji: "koneko", kana: "こねこ")
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

        // The live session, replayed without the engine, decides the same (the replay
        // exits 1 with the first difference otherwise) and sends the same message.
        let replayed = try Transcripts.replayAndKeep(cs.traceURL, as: "ibus-anthy-koneko-send", in: cs.session)
        #expect(replayed.contains(#""ev":"send","#) && replayed.contains(#""text":"\#(committed)"}"#),
                "the replay sends \(committed) too")
    }

    /// Highlighted segments of a preedit event: [start, end) of those with "highlight".
    static func highlighted(_ preedit: JSONValue) -> [[Int]] {
        (preedit["segments"]?.arrayValue ?? []).compactMap { segment in
            guard let parts = segment.arrayValue, parts.count == 3,
                  let start = parts[0].intValue, let end = parts[1].intValue,
                  let styles = parts[2].arrayValue?.compactMap(\.stringValue),
                  styles.contains("highlight") else { return nil }
            return [start, end]
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func conversionSegmentsAndTheirStylesFollowTheArrowKeys() throws {
        let cs = try ComposerSession(.ibusAnthy, name: "e2e-anthy-segments")
        defer { cs.stop() }
        let trace = cs.trace
        // "kyouhaiitenkidesu" → 今日は/いい/天気です: several conversion segments.
        try cs.xdotool.type("kyouhaiitenkidesu")
        try trace.waitFor("the kana preedit", from: cs.probeEndIndex) {
            $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "きょうはいいてんきです"
        }
        let converting = trace.entries.count
        try cs.xdotool.key(["space"])
        let converted = try trace.waitFor("a converted preedit with segments", from: converting) {
            $0["ev"]?.stringValue == "preedit" && ($0["segments"]?.arrayValue?.count ?? 0) >= 2
        }
        let first = Self.highlighted(converted)
        #expect(first.count == 1, "exactly one segment is the selected one: \(converted)")
        #expect(first.first?.first == 0, "conversion starts at the first segment: \(converted)")

        let moving = trace.entries.count
        try cs.xdotool.key(["Right"])
        let moved = try trace.waitFor("the selected segment to move right", from: moving) {
            $0["ev"]?.stringValue == "preedit" && (Self.highlighted($0).first?.first ?? 0) > 0
        }
        #expect(moved["text"]?.stringValue?.isEmpty == false)
        #expect(Self.highlighted(moved).first?.first == first.first?.last,
                "the next segment starts where the first ended: \(converted) → \(moved)")

        let committing = trace.entries.count
        try cs.xdotool.key(["Return"])
        let commit = try trace.waitFor("the commit", from: committing) { $0["ev"]?.stringValue == "commit" }
        let lastPreedit = trace.entries[..<trace.lastMatchIndex].last {
            $0.name == "preedit" && !($0.value["text"]?.stringValue ?? "").isEmpty
        }
        #expect(commit["text"]?.stringValue == lastPreedit?.value["text"]?.stringValue)
        #expect(!trace.entries.contains { $0.name == "send" })
        // ibus-anthy ends its emptied preedit just after the commit; a Return before that
        // only confirms the composition (by design), so wait for it.
        try trace.waitFor("the composition's end", from: committing) { $0["ev"]?.stringValue == "preedit-end" }
        // Return once more sends the sentence; the session is kept as a transcript.
        let sending = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("the send", from: sending) { $0["ev"]?.stringValue == "send" }
        #expect(try cs.terminateApp() == 0)
        try Transcripts.replayAndKeep(cs.traceURL, as: "ibus-anthy-segment-moves", in: cs.session)
    }
}
