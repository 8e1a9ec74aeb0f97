@testable import ComposerCore
import Testing

/// The checklist judged from the rows a tester's session makes, each item passing and
/// failing the way it does live.
struct ChecklistJudgeTests {
    /// Runs `events` through an inspector log (so its anomaly rules flag rows, as live) and
    /// the judge.
    static func judged(_ events: [TraceEvent], limit: LengthLimit = LengthLimit()) -> (ChecklistJudge, [InspectorRow]) {
        let log = InspectorLog()
        var judge = ChecklistJudge()
        var rows: [InspectorRow] = []
        for (index, event) in ([TraceEvent.start(backend: "x11", imModule: "ibus", settings: TranscriptSettings(limit: limit))] + events).enumerated() {
            guard let row = log.append(event, t: index * 10) else { continue }
            rows.append(row)
            judge.judge(row)
        }
        return (judge, rows)
    }

    static func preedit(_ text: String) -> TraceEvent { .preedit(Preedit(text: text, cursor: text.count, segments: [])) }
    static func edit(_ at: Int, removed: String = "", inserted: String = "", _ origin: EditOrigin) -> TraceEvent {
        .edit(Edit(sequence: 0, range: at..<(at + removed.unicodeScalars.count), removed: removed, inserted: inserted, origin: origin))
    }
    static func text(_ text: String) -> TraceEvent {
        .text(TextSnapshot(text: text, caret: text.unicodeScalars.count, selection: TextSelection(anchor: text.unicodeScalars.count, caret: text.unicodeScalars.count)))
    }
    /// i n u, composed: いぬ on screen.
    static let composeInu: [TraceEvent] = [.key(keyval: "i", consumed: nil), .preeditStart, preedit("い"),
                                           .key(keyval: "n", consumed: nil), .key(keyval: "u", consumed: nil), preedit("いぬ")]
    /// Return confirms いぬ.
    static let confirmInu: [TraceEvent] = [.key(keyval: "Return", consumed: true), .commit("いぬ"), edit(0, inserted: "いぬ", .imCommit),
                                           preedit(""), .preeditEnd, .settle, text("いぬ")]

    func verdict(_ judge: ChecklistJudge, _ item: ChecklistItem) -> String {
        switch judge.result(item).verdict {
        case .notTried: "not tried"
        case .passed(let reason): "passed: " + reason
        case .failed(let reason): "failed: " + reason
        }
    }

    @Test func composeCommitThenEnterSends() throws {
        let (judge, rows) = Self.judged(Self.composeInu + Self.confirmInu + [.key(keyval: "Return", consumed: false), .send("いぬ")])
        #expect(verdict(judge, .composeAndCommit) == "passed: “いぬ” was committed from its composition")
        #expect(verdict(judge, .enterConfirmsThenSends) == "passed: Return confirmed “いぬ”; the next Return sent “いぬ”")
        let firstKey = try #require(rows.first { $0.event == .key(keyval: "i", consumed: nil) }?.number)
        let sent = try #require(rows.last?.number)
        #expect(judge.result(.enterConfirmsThenSends).rows == firstKey...sent, "from the first key of the composition")
        for item in ChecklistItem.allCases where ![.composeAndCommit, .enterConfirmsThenSends].contains(item) {
            #expect(judge.result(item).verdict == .notTried, "\(item)")
        }
    }

    @Test func aReturnPassedOnThatConfirmsAndSendsAtOnceFails() {
        let events: [TraceEvent] = Self.composeInu + [.key(keyval: "Return", consumed: false), .commit("いぬ"),
                                                       Self.edit(0, inserted: "いぬ", .imCommit), .preeditEnd, .send("いぬ")]
        #expect(verdict(Self.judged(events).0, .enterConfirmsThenSends) == "failed: the Return that confirmed “いぬ” also sent “いぬ”")
        // Passed on but only confirming (a Wayland input method's forwarded Return): passes.
        let confirming: [TraceEvent] = Self.composeInu + [.key(keyval: "Return", consumed: false), .commit("いぬ"),
                                                          Self.edit(0, inserted: "いぬ", .imCommit), .preeditEnd,
                                                          .key(keyval: "Return", consumed: false), .send("いぬ")]
        #expect(verdict(Self.judged(confirming).0, .enterConfirmsThenSends).hasPrefix("passed: "))
    }

    @Test func enterThatSendsMidCompositionFails() {
        let (judge, _) = Self.judged(Self.composeInu + [.key(keyval: "Return", consumed: false), .send("")])
        #expect(verdict(judge, .enterConfirmsThenSends).hasPrefix("failed: "), "\(verdict(judge, .enterConfirmsThenSends))")
    }

    @Test func hardLimitCutsOnlyAfterTheCommitAndALongCompositionShowsWhole() {
        let hard = LengthLimit(limit: 3, mode: .hard)
        let (judge, _) = Self.judged([Self.text("ab")] + Self.composeInu + Self.confirmInu.dropLast()
            + [Self.text("abいぬ"), .limit(removed: "ぬ", at: 3), Self.edit(3, removed: "ぬ", .program), Self.text("abい")], limit: hard)
        #expect(verdict(judge, .hardLimitMidComposition) == "passed: the limit cut “ぬ” only after “いぬ” was committed")
        #expect(verdict(judge, .compositionLongerThanLimit)
                    == "passed: “いぬ” (2) showed whole with 1 left; the limit cut “ぬ” after its commit")
        let (cutEarly, _) = Self.judged([Self.text("ab")] + Self.composeInu + [.limit(removed: "ぬ", at: 3)], limit: hard)
        #expect(verdict(cutEarly, .hardLimitMidComposition) == "failed: the limit cut “ぬ” while “いぬ” was still composing")
        #expect(verdict(cutEarly, .compositionLongerThanLimit).hasPrefix("failed: "))
        // Soft: a cut item is not judged at all.
        #expect(Self.judged([.limit(removed: "x", at: 0)]).0.result(.hardLimitMidComposition).verdict == .notTried)
    }

    @Test func softColouringOnlyAfterTheCommit() {
        let soft = LengthLimit(limit: 3)
        let (judge, _) = Self.judged([Self.text("ab")] + Self.composeInu + Self.confirmInu
            + [.overflow(start: 3, end: 4, over: 1, unit: .graphemes)], limit: soft)
        // The overflow came after the settle that followed the commit: still the commit's.
        #expect(verdict(judge, .softLimitColouring).hasPrefix("passed: the overflow (1 over) was coloured only after “いぬ”"),
                "\(verdict(judge, .softLimitColouring))")
        let (early, _) = Self.judged([Self.text("ab")] + Self.composeInu + [.overflow(start: 2, end: 4, over: 1, unit: .graphemes)], limit: soft)
        #expect(verdict(early, .softLimitColouring) == "failed: the overflow (1 over) was coloured while “いぬ” was still composing")
    }

    @Test func completionOpensAfterTheCommitNotWhileComposing() {
        let open = TraceEvent.completion(state: .open, prefix: "@", query: "いぬ", items: ["inu"], selected: 0)
        let (judge, _) = Self.judged([.key(keyval: "at", consumed: nil), Self.edit(0, inserted: "@", .key)] + Self.composeInu
            + Self.confirmInu.prefix(5) + [open])
        #expect(verdict(judge, .completionAfterCommit) == "passed: the completion list opened after “いぬ” was committed")
        let (early, _) = Self.judged(Self.composeInu + [open])
        #expect(verdict(early, .completionAfterCommit) == "failed: the completion list opened while “いぬ” was still composing")
    }

    @Test func backSpaceShrinksTheCompositionAndNeverTheCommittedText() {
        let (judge, _) = Self.judged(Self.composeInu + [.key(keyval: "BackSpace", consumed: nil), Self.preedit("い")])
        #expect(verdict(judge, .backSpaceInComposition) == "passed: “いぬ” became “い”; the committed text stayed")
        let (bad, _) = Self.judged([Self.text("a")] + Self.composeInu
            + [.key(keyval: "BackSpace", consumed: nil), Self.edit(0, removed: "a", .key)])
        #expect(verdict(bad, .backSpaceInComposition) == "failed: BackSpace deleted the committed “a” while “いぬ” was composing")
    }

    @Test func focusOutAndClickKeepOrLoseTheComposition() {
        let (kept, _) = Self.judged(Self.composeInu + [.focus(in: false), .commit("いぬ"), Self.edit(0, inserted: "いぬ", .imCommit), .preeditEnd])
        #expect(verdict(kept, .focusOutMidComposition) == "passed: “いぬ” was committed when the focus left")
        let (lost, _) = Self.judged(Self.composeInu + [.focus(in: false), .preeditEnd])
        #expect(verdict(lost, .focusOutMidComposition).hasPrefix("failed: the preedit \"いぬ\" vanished without a commit"),
                "\(verdict(lost, .focusOutMidComposition))")
        #expect(verdict(lost, .focusOutMidComposition).hasSuffix("(fcitx/fcitx5#687)"))
        let (clicked, _) = Self.judged(Self.composeInu + [.press(x: 5, y: 5), .preeditEnd, Self.edit(0, inserted: "いぬ", .program)])
        #expect(verdict(clicked, .clickMidComposition) == "passed: “いぬ” was kept where it was drawn")
        let (stillThere, _) = Self.judged(Self.composeInu + [.focus(in: false), .focus(in: true)])
        #expect(verdict(stillThere, .focusOutMidComposition) == "passed: “いぬ” was still composing when the focus came back")
    }

    @Test func theCandidateWindowIsJudgedByItsPlacement() {
        let (good, _) = Self.judged([.placement(CandidatePlacementTests.fcitxScale2)])
        #expect(verdict(good, .candidateWindowAtCaret).hasPrefix("passed: the candidate window (28,681 326×31) is next to the caret"))
        let (ibus, _) = Self.judged([.placement(CandidatePlacementTests.ibusScale1)])
        #expect(verdict(ibus, .candidateWindowAtCaret).hasSuffix("(ibus/ibus#2522)"), "\(verdict(ibus, .candidateWindowAtCaret))")
        // A failure stays: the window placed well later does not hide it.
        let (both, _) = Self.judged([.placement(CandidatePlacementTests.ibusScale1), .placement(CandidatePlacementTests.fcitxScale2)])
        #expect(verdict(both, .candidateWindowAtCaret).hasPrefix("failed: "))
        // The text view's rectangle alone judges nothing.
        let (none, _) = Self.judged([.placement(CandidatePlacement(given: PixelRect(x: 1, y: 1, width: 0, height: 17)))])
        #expect(none.result(.candidateWindowAtCaret).verdict == .notTried)
    }

    @Test func undoRemovesExactlyTheCommit() {
        let (judge, _) = Self.judged(Self.composeInu + Self.confirmInu + [Self.edit(0, removed: "いぬ", .undo)])
        #expect(verdict(judge, .undoAfterCommit) == "passed: Ctrl+Z removed exactly the commit “いぬ”")
        let (partial, _) = Self.judged(Self.composeInu + Self.confirmInu + [Self.edit(1, removed: "ぬ", .undo)])
        #expect(verdict(partial, .undoAfterCommit) == "failed: Ctrl+Z removed “ぬ”, not the commit “いぬ”")
    }

    @Test func wordsComeFromTheLabsEngineFilesElseGenericOnes() throws {
        #expect(ChecklistWords.slug(forEngine: "IBus anthy") == "ibus-anthy")
        #expect(ChecklistWords.slug(forEngine: "Fcitx5 hangul") == "fcitx5-hangul")
        #expect(ChecklistWords.slug(forEngine: "IBus m17n:vi:telex") == "ibus-m17n-vi-telex")
        #expect(ChecklistWords.slug(forEngine: "IBus mozc-jp") == "ibus-mozc")
        #expect(ChecklistWords.slug(forEngine: "gtk-im-context-simple") == nil)
        let file = try String(contentsOf: repositoryRoot().appendingPathComponent("data/lab/engines/fcitx5-hangul.json"), encoding: .utf8)
        let words = try #require(ChecklistWords(engineFile: file, slug: "fcitx5-hangul"))
        #expect(words.compose == ["g", "k", "s"] && words.showing == "한" && words.commitKeys == ["space"])
        #expect(ChecklistItem.composeAndCommit.instruction(words, limit: LengthLimit()) == "Type g k s (it shows “한”), then space to commit it.")
        #expect(ChecklistItem.hardLimitMidComposition.instruction(words, limit: LengthLimit()).hasPrefix("Start with --limit-mode hard"))
        #expect(ChecklistItem.composeAndCommit.instruction(.generic, limit: LengthLimit()).contains("k a n a (a word your engine composes)"))
    }

    /// Seen under load: a report copied before the daemons answered said the lab had no data
    /// for the engine. It says the engine is not known yet, and still what to type.
    @Test func aReportCopiedBeforeTheEngineIsKnownSaysSo() {
        let (judge, rows) = Self.judged([])
        let report = ChecklistReport.markdown(environment: [("IM module", "fcitx"), ("input method", "being asked")],
                                              words: .engineNotYetKnown, limit: LengthLimit(), judge: judge, rows: rows,
                                              transcripts: [:])
        #expect(report.contains("- what to type: generic words (the engine in use is not known yet)"), "\(report)")
        #expect(report.contains("- input method: being asked"), "\(report)")
        #expect(!report.contains("no data for this engine"), "\(report)")
        #expect(ChecklistItem.composeAndCommit.instruction(.engineNotYetKnown, limit: LengthLimit())
            == ChecklistItem.composeAndCommit.instruction(.generic, limit: LengthLimit()))
    }

    @Test func theReportListsEveryItemAndTheFailedRows() {
        let (judge, rows) = Self.judged(Self.composeInu + [.focus(in: false), .preeditEnd])
        let report = ChecklistReport.markdown(environment: [("IM module", "ibus")], words: .generic, limit: LengthLimit(),
                                              judge: judge, rows: rows, transcripts: [.focusOutMidComposition: "focus.jsonl"])
        #expect(report.hasPrefix("## Input method checklist"))
        #expect(report.contains("### Items: 0 passed, 1 failed, 10 not tried"), "\(report)")
        #expect(report.contains("- ✘ **Focus out mid-composition**: failed: the preedit"))
        #expect(report.contains("- ○ **Undo after a commit**: not yet tried — Type k a n a"))
        #expect(report.contains("### Focus out mid-composition: the rows that failed"))
        #expect(report.contains("Transcript: `focus.jsonl`"))
        #expect(report.contains("focus out"), "the attempt's rows: \(report)")
    }
}
