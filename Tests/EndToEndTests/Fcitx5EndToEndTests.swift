import Foundation
import Testing
import ComposerCore
import TestHarness

/// ime-composer with a real fcitx5 (5.0.21, GTK 4 frontend) under Xvfb, with fcitx5-anthy
/// and fcitx5-hangul, observed through the trace (v1, JSON Lines).
///
/// What fcitx5 does here (seen in every run):
/// - The GTK 4 frontend asks for the surrounding text (`surrounding` `retrieve`) around
///   every key and every preedit update (the input context has the SurroundingText
///   capability); neither engine ever asked to delete surrounding text for these keys.
/// - Only Return is a composer command, so only its key line carries `consumed`.
///   fcitx5-anthy consumes the Return that accepts a conversion; fcitx5-hangul commits the
///   syllable in its preedit and does *not* consume Return (`consumed:false`): the composer
///   still does not send, because a composition was active when the key arrived.
/// - fcitx5-hangul commits each finished syllable while composing the next (commit 한, then
///   preedit ㄱ), so the committed text changes mid-composition.
@Suite(.serialized)
struct Fcitx5EndToEndTests {

    static let schemaURL = ComposerBinary.packageRoot.appendingPathComponent("docs/trace-schema.json")

    // MARK: fcitx5-anthy

    @Test(.timeLimit(.minutes(2)))
    func anthyKonekoConvertsCommitsSendsAndExitsCleanly() throws {
        let cs = try ComposerSession(.fcitxAnthy, name: "e2e-fcitx-anthy")
        defer { cs.stop() }
        let trace = cs.trace
        let from = cs.probeEndIndex

        // Romaji "koneko", space converts (子猫), Return accepts the conversion.
        try cs.xdotool.key(["k", "o", "n", "e", "k", "o", "space", "Return"])
        let commit = try trace.waitFor("the conversion's commit", from: from) { $0["ev"]?.stringValue == "commit" }
        let committed = try #require(commit["text"]?.stringValue, "commit event without text: \(commit)")
        #expect(!committed.isEmpty)
        try trace.waitFor("a text event with the committed text \"\(committed)\"", from: trace.lastMatchIndex + 1) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == committed
        }

        let entries = trace.entries
        let ours = entries[from...]
        let commitIndex = try #require(ours.firstIndex { $0.name == "commit" })
        let beforeCommit = entries[from..<commitIndex]
        #expect(beforeCommit.contains { $0.name == "preedit-start" }, "no preedit-start before the commit")

        let preedits = beforeCommit.filter { $0.name == "preedit" }.compactMap { $0.value["text"]?.stringValue }
        #expect(preedits.contains { $0.contains("こ") || $0.contains("ね") },
                "no hiragana preedit before conversion; preedits: \(preedits)")
        #expect(preedits.contains("こねこ"), "the kana never read こねこ; preedits: \(preedits)")
        let lastNonEmpty = preedits.last { !$0.isEmpty }
        #expect(lastNonEmpty == committed,
                "last non-empty preedit \(lastNonEmpty ?? "nil") ≠ commit \(committed); preedits: \(preedits)")
        #expect(ours.filter { $0.name == "commit" }.count == 1, "expected exactly one commit")

        // Return accepted the conversion: the IM took it, its key line precedes the commit,
        // and nothing was sent.
        let returnKey = try #require(ours.firstIndex { $0.name == "key" && $0.value["keyval"]?.stringValue == "Return" })
        #expect(ours[returnKey].value["consumed"]?.boolValue == true, "Return was taken by the IM")
        #expect(returnKey < commitIndex, "key Return is traced before the commit it caused")
        #expect(!trace.entries.contains { $0.name == "send" }, "Return consumed by the IM must not send")

        // fcitx5's GTK frontend reads the surrounding text around keys and preedit
        // updates; anthy never deletes any.
        #expect(ours.contains { $0.name == "surrounding" && $0.value["kind"]?.stringValue == "retrieve" },
                "fcitx5 never asked for the surrounding text")
        #expect(!ours.contains { $0.name == "surrounding" && $0.value["kind"]?.stringValue == "delete" },
                "anthy deleted surrounding text")

        // A second Return, nothing composing: sends.
        let sendFrom = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("a send event with text \"\(committed)\"", from: sendFrom) {
            $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue == committed
        }
        let secondReturn = trace.entries[sendFrom...].first { $0.name == "key" && $0.value["keyval"]?.stringValue == "Return" }
        #expect(secondReturn?.value["consumed"]?.boolValue == false, "the IM took the Return with nothing composing")
        try trace.waitFor("the text to be empty after sending", from: trace.lastMatchIndex + 1) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == ""
        }

        try Self.terminateAndCheckTrace(cs, transcript: "fcitx5-anthy-koneko-send")
    }

    // MARK: fcitx5-hangul

    @Test(.timeLimit(.minutes(2)))
    func hangulComposesInPreeditEnterCommitsThenSends() throws {
        let cs = try ComposerSession(.fcitxHangul, name: "e2e-fcitx-hangul")
        defer { cs.stop() }
        let trace = cs.trace
        let from = cs.probeEndIndex

        // Dubeolsik g k s r m f = ㅎ ㅏ ㄴ ㄱ ㅡ ㄹ → 한글; 글 stays in the preedit.
        try cs.xdotool.key(["g", "k", "s", "r", "m", "f"])
        try trace.waitFor("the preedit 글", from: from) {
            $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "글"
        }
        let typed = Array(trace.entries[from...])
        var preedits: [String] = []
        for text in typed.filter({ $0.name == "preedit" }).compactMap({ $0.value["text"]?.stringValue })
        where !text.isEmpty && preedits.last != text {
            preedits.append(text)
        }
        #expect(preedits == ["ㅎ", "하", "한", "ㄱ", "그", "글"], "syllables did not form in the preedit: \(preedits)")
        // 한 is committed while 글 is being composed; 글 is not committed yet.
        let commits = typed.filter { $0.name == "commit" }.compactMap { $0.value["text"]?.stringValue }
        #expect(commits == ["한"], "commits while composing: \(commits)")
        try trace.waitFor("a text event with 한 (committed mid-composition)", from: from) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "한"
        }
        #expect(!typed.contains { $0.name == "text" && ($0.value["text"]?.stringValue ?? "").contains("글") },
                "a text event holds the preedit 글")

        // Enter while 글 is in the preedit: fcitx5-hangul commits it (and passes Return on,
        // consumed:false); the composer must not send — certainly not half a word.
        let enterFrom = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("the text 한글 after Enter committed 글", from: enterFrom) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "한글"
        }
        let afterEnter = Array(trace.entries[enterFrom...])
        let enterKey = try #require(afterEnter.firstIndex { $0.name == "key" && $0.value["keyval"]?.stringValue == "Return" },
                                    "no key line for Return")
        #expect(afterEnter[enterKey].value["consumed"] != nil, "Return's key line lacks consumed")
        let enterCommit = try #require(afterEnter.firstIndex { $0.name == "commit" }, "Enter did not commit 글")
        #expect(afterEnter[enterCommit].value["text"]?.stringValue == "글")
        #expect(enterKey < enterCommit, "key Return is traced before the commit it caused")
        #expect(afterEnter.contains { $0.name == "preedit-end" }, "the composition did not end")
        // A Return the IM passes on could come back later (a forwarded key): wait until a
        // later key (Shift, harmless) is traced, so anything Return caused is in the trace.
        let probeFrom = trace.entries.count
        try cs.xdotool.key(["shift"])
        try trace.waitFor("the Shift key line after Enter was handled", from: probeFrom) {
            $0["ev"]?.stringValue == "key" && ($0["keyval"]?.stringValue ?? "").hasPrefix("Shift")
        }
        let sends = trace.events(named: "send").compactMap { $0["text"]?.stringValue }
        #expect(sends.allSatisfy { $0 == "한글" }, "sent half a word: \(sends)")
        #expect(sends.isEmpty, "Enter while composing must only confirm, not send: \(sends)")

        // Return with nothing composing sends 한글.
        let sendFrom = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("a send event with 한글", from: sendFrom) {
            $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue == "한글"
        }
        let secondReturn = trace.entries[sendFrom...].first { $0.name == "key" && $0.value["keyval"]?.stringValue == "Return" }
        #expect(secondReturn?.value["consumed"]?.boolValue == false, "the IM took the Return with nothing composing")
        #expect(trace.events(named: "send").count == 1, "expected exactly one send")
        try trace.waitFor("the text to be empty after sending", from: trace.lastMatchIndex + 1) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == ""
        }

        // fcitx5-hangul: the frontend reads the surrounding text (around every key and
        // preedit update); the engine never deleted any for these keys.
        let all = trace.entries[from...]
        #expect(all.contains { $0.name == "surrounding" && $0.value["kind"]?.stringValue == "retrieve" },
                "fcitx5 never asked for the surrounding text")
        #expect(!all.contains { $0.name == "surrounding" && $0.value["kind"]?.stringValue == "delete" },
                "hangul deleted surrounding text")

        try Self.terminateAndCheckTrace(cs, transcript: "fcitx5-hangul-enter-commits-then-sends")
    }

    // MARK: shared

    /// SIGTERM: `exit` (reason sigterm) is the last line, status 0, every line valid.
    static func terminateAndCheckTrace(_ cs: ComposerSession, transcript: String) throws {
        let trace = cs.trace
        cs.app.terminate(signal: SIGTERM)
        let exit = try trace.waitFor(event: "exit")
        #expect(exit["reason"]?.stringValue == "sigterm")
        let status = try cs.app.waitForExit(timeout: .seconds(10))
        #expect(status == 0, "exit status \(status)\n\(cs.app.diagnostics())")
        let finalEntries = trace.entries
        #expect(finalEntries.last?.name == "exit", "exit is not the last trace line: \(finalEntries.last?.line ?? "<none>")")
        #expect(finalEntries.filter { $0.name == "exit" }.count == 1)
        #expect(trace.malformedLines.isEmpty, "malformed trace lines: \(trace.malformedLines)")

        let schema = try TraceSchema(contentsOf: schemaURL)
        for entry in finalEntries {
            let problems = schema.validate(entry.line)
            #expect(problems.isEmpty, "line \(entry.index + 1) violates \(schemaURL.lastPathComponent): \(problems)\n    \(entry.line)")
        }
        try Transcripts.replayAndKeep(cs.traceURL, as: transcript, in: cs.session)
    }
}
