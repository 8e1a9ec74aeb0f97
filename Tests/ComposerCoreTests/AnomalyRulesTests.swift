import ComposerCore
import Testing

/// Each anomaly rule from crafted event sequences: the bug's shape flags the row it shows
/// on, and the correct sequence next to it flags nothing.
@Suite("Inspector anomaly rules")
struct AnomalyRulesTests {
    static func preedit(_ text: String, cursor: Int? = nil) -> TraceEvent {
        .preedit(Preedit(text: text, cursor: cursor ?? text.unicodeScalars.count,
                         segments: text.isEmpty ? [] : [PreeditSegment(start: 0, end: text.unicodeScalars.count, styles: [.underline])]))
    }

    static func edit(_ origin: EditOrigin, at: Int, removed: String = "", inserted: String = "") -> TraceEvent {
        .edit(Edit(sequence: 0, range: at..<(at + removed.unicodeScalars.count), removed: removed, inserted: inserted, origin: origin))
    }

    static func text(_ text: String, caret: Int? = nil) -> TraceEvent {
        let caret = caret ?? text.unicodeScalars.count
        return .text(TextSnapshot(text: text, caret: caret, selection: TextSelection(anchor: caret, caret: caret)))
    }

    /// The ids flagged on each event, in order (empty arrays for clean events).
    static func flags(_ events: [TraceEvent]) -> [[String]] {
        var detector = AnomalyDetector()
        return events.map { detector.inspect($0).map(\.id) }
    }

    static func flagged(_ events: [TraceEvent]) -> [String] { flags(events).flatMap { $0 } }

    @Test func aCommitWhosePreeditStaysShownIsFlaggedAtTheNextKey() {
        let stale: [TraceEvent] = [.key(keyval: "a", consumed: nil), .preeditStart, Self.preedit("あ"),
                                   .commit("あ"), Self.edit(.imCommit, at: 0, inserted: "あ"), .key(keyval: "k", consumed: nil)]
        #expect(Self.flags(stale).last == ["commit-without-preedit-end"])
        let clean: [TraceEvent] = [.key(keyval: "a", consumed: nil), .preeditStart, Self.preedit("あ"), .commit("あ"),
                                   Self.edit(.imCommit, at: 0, inserted: "あ"), Self.preedit(""), .preeditEnd,
                                   .key(keyval: "k", consumed: nil)]
        #expect(Self.flagged(clean) == [])
    }

    @Test func aPreeditThatVanishesWhenTheFocusLeavesIsFlagged() {
        let vanished: [TraceEvent] = [.preeditStart, Self.preedit("か"), .focus(in: false), Self.preedit(""), .preeditEnd]
        #expect(Self.flags(vanished)[3] == ["preedit-vanished"])
        let reset: [TraceEvent] = [Self.text("ab"), .preeditStart, Self.preedit("か"), .selection(anchor: 0, caret: 0), .preeditEnd]
        #expect(Self.flags(reset).last == ["preedit-vanished"], "a click moved the caret: GTK resets the input method")
        let cancelled: [TraceEvent] = [.preeditStart, Self.preedit("か"), .key(keyval: "Escape", consumed: nil), Self.preedit(""), .preeditEnd]
        #expect(Self.flagged(cancelled) == [], "Escape cancels on purpose")
        let committed: [TraceEvent] = [.preeditStart, Self.preedit("か"), .focus(in: false), .commit("か"),
                                       Self.edit(.imCommit, at: 0, inserted: "か"), Self.preedit(""), .preeditEnd]
        #expect(Self.flagged(committed) == [], "committed on focus-out: nothing lost")
    }

    @Test func aDeleteSurroundingPastTheTextIsFlagged() {
        #expect(Self.flagged([Self.text("ab"), .surroundingDelete(offset: -3, count: 1)]) == ["delete-surrounding-out-of-range"])
        #expect(Self.flagged([Self.text("ab", caret: 1), .surroundingDelete(offset: 0, count: 2)]) == ["delete-surrounding-out-of-range"])
        #expect(Self.flagged([Self.text("ab"), .surroundingDelete(offset: -2, count: 2)]) == [])
    }

    @Test func aDeleteSurroundingThroughAGraphemeIsFlagged() {
        #expect(Self.flagged([Self.text("e\u{301}"), .surroundingDelete(offset: -1, count: 1)]) == ["delete-surrounding-splits-grapheme"])
        var detector = AnomalyDetector()
        _ = detector.inspect(Self.text("a👨‍👩‍👧"))
        let family = detector.inspect(.surroundingDelete(offset: -2, count: 2))
        #expect(family.map(\.id) == ["delete-surrounding-splits-grapheme"])
        #expect(family.first?.explanation.contains("UTF-16") == true)
        #expect(Self.flagged([Self.text("ae\u{301}"), .surroundingDelete(offset: -2, count: 2)]) == [])
    }

    @Test func aDeleteSurroundingAfterTheCommitItShouldPrecedeIsFlagged() {
        let outOfOrder: [TraceEvent] = [Self.text("子"), .key(keyval: "a", consumed: nil), .commit("猫"),
                                        Self.edit(.imCommit, at: 1, inserted: "猫"), .surroundingDelete(offset: -1, count: 1)]
        #expect(Self.flags(outOfOrder).last == ["delete-surrounding-after-commit"])
        let inOrder: [TraceEvent] = [Self.text("子"), .key(keyval: "a", consumed: nil), .surroundingDelete(offset: -1, count: 1),
                                     Self.edit(.deleteSurrounding, at: 0, removed: "子"), .commit("猫"), Self.edit(.imCommit, at: 0, inserted: "猫")]
        #expect(Self.flagged(inOrder) == [])
    }

    @Test func aForwardedKeysTextBeforeTheCommitItFollowsIsFlagged() {
        let early: [TraceEvent] = [.preeditStart, Self.preedit("한"), .key(keyval: "space", consumed: nil),
                                   Self.edit(.key, at: 0, inserted: " "), .commit("한")]
        #expect(Self.flags(early).last == ["forwarded-key-before-commit"])
        let inOrder: [TraceEvent] = [.preeditStart, Self.preedit("한"), .key(keyval: "space", consumed: nil), .commit("한"),
                                     Self.edit(.imCommit, at: 0, inserted: "한"), Self.preedit(""), .preeditEnd, Self.edit(.key, at: 1, inserted: " ")]
        #expect(Self.flagged(inOrder) == [])
    }

    @Test func preeditCursorsOutsideTheTextOrStuckAtTheStartAreFlagged() {
        #expect(Self.flagged([.preeditStart, Self.preedit("ab", cursor: 3)]) == ["preedit-cursor-outside"])
        #expect(Self.flagged([.preeditStart, Self.preedit("あ", cursor: 0), Self.preedit("あい", cursor: 0)]) == ["preedit-cursor-stuck"])
        #expect(Self.flagged([.preeditStart, Self.preedit("こねこ"), Self.preedit("子猫", cursor: 0)]) == [],
                "a conversion puts the cursor at 0 legitimately")
    }

    @Test func aHangulSyllableLosingItsFirstConsonantAfterACommitIsFlagged() {
        let reset: [TraceEvent] = [.preeditStart, Self.preedit("한"), .key(keyval: "r", consumed: nil), .commit("한"),
                                   Self.edit(.imCommit, at: 0, inserted: "한"), Self.preedit("ㅡ")]
        #expect(Self.flags(reset).last == ["hangul-reset-after-commit"])
        // 하 has no final consonant: a vowel after it starts on its own.
        let vowel: [TraceEvent] = [.preeditStart, Self.preedit("하"), .key(keyval: "k", consumed: nil), .commit("하"),
                                   Self.edit(.imCommit, at: 0, inserted: "하"), Self.preedit("ㅏ")]
        #expect(Self.flagged(vowel) == [])
        let moved: [TraceEvent] = [.preeditStart, Self.preedit("한"), .key(keyval: "m", consumed: nil), .commit("하"),
                                   Self.edit(.imCommit, at: 0, inserted: "하"), Self.preedit("느")]
        #expect(Self.flagged(moved) == [])
    }

    @Test func theSameCommitTwiceForOneKeyIsFlagged() {
        #expect(Self.flagged([.key(keyval: "space", consumed: nil), .commit("変換"), .commit("変換")]) == ["duplicated-commit"])
        #expect(Self.flagged([.key(keyval: "a", consumed: nil), .commit("a"), .key(keyval: "a", consumed: nil), .commit("a")]) == [])
    }

    /// Run 25 of #31: ibus-anthy handled Return before drawing the conversion Space asked
    /// for, committed "" and ended the composition: こねこ was gone.
    @Test func aCommitOfNothingWhileComposingIsFlagged() {
        let lost: [TraceEvent] = [.key(keyval: "o", consumed: nil), .preeditStart, Self.preedit("こねこ"),
                                  .key(keyval: "space", consumed: nil), .key(keyval: "Return", consumed: true),
                                  .commit(""), Self.preedit(""), .preeditEnd]
        #expect(Self.flags(lost)[5] == ["empty-commit-while-composing"])
        #expect(Self.flagged(lost) == ["empty-commit-while-composing"])
        let confirmed: [TraceEvent] = [.preeditStart, Self.preedit("こねこ"), .key(keyval: "space", consumed: nil),
                                       Self.preedit("子猫"), .key(keyval: "Return", consumed: true), .commit("子猫"),
                                       Self.edit(.imCommit, at: 0, inserted: "子猫"), Self.preedit(""), .preeditEnd]
        #expect(Self.flagged(confirmed) == [])
        // Nothing shown, nothing lost: an empty commit with no composition is not flagged.
        #expect(Self.flagged([.key(keyval: "a", consumed: nil), .commit("")]) == [])
    }

    @Test func enterPassedOnWhileComposingOrTakenWithNothingToConfirmIsFlagged() {
        #expect(Self.flagged([.preeditStart, Self.preedit("간"), .key(keyval: "Return", consumed: false)]) == ["enter-passed-on-while-composing"])
        #expect(Self.flagged([.preeditStart, Self.preedit("간"), .preedit(Preedit(text: "", cursor: 0, segments: [])), .commit("간"),
                              .preeditEnd, .key(keyval: "Return", consumed: false, forwarded: true)]) == ["enter-forwarded-after-commit"])
        #expect(Self.flagged([.key(keyval: "Return", consumed: false)]).isEmpty, "a Return pressed after the commit is ordinary")
        #expect(Self.flagged([.key(keyval: "Return", consumed: true)]) == ["enter-consumed-without-composition"])
        #expect(Self.flagged([.preeditStart, Self.preedit("子猫"), .key(keyval: "Return", consumed: true)]) == [])
        #expect(Self.flagged([.key(keyval: "Return", consumed: false)]) == [])
        // After a click (GTK resets the input method) the engine no longer composes what is drawn.
        #expect(Self.flagged([.preeditStart, Self.preedit("tiếng"), .selection(anchor: 0, caret: 0),
                              .key(keyval: "Return", consumed: false)]) == ["preedit-orphaned"])
    }

    /// The recorded real sessions: the scripted engine deletes before it commits (in order),
    /// ibus-hangul passes Enter on while composing — flagged as such, and nothing else is.
    @Test func theRecordedSessionsFlagOnlyWhatTheirEnginesReallyDid() throws {
        let directory = repositoryRoot().appendingPathComponent("Tests/Transcripts")
        func ids(_ name: String) throws -> [String] {
            let transcript = try Transcript(contentsOf: directory.appendingPathComponent(name + ".jsonl").path)
            let log = InspectorLog()
            for line in transcript.lines { log.append(line.event, t: line.t) }
            // Slow answers are the recording machine's load as much as the engine's.
            return log.rows.flatMap { $0.anomalies.map(\.id) }.filter { $0 != "slow-answer" }
        }
        #expect(try ids("ibus-scripted-delete-surrounding") == [])
        #expect(try ids("ibus-anthy-koneko-send") == [])
        // ibus-anthy committed nothing for a Return in the same burst as Space.
        #expect(try ids("ibus-anthy-return-before-conversion") == ["empty-commit-while-composing"])
        #expect(try ids("ibus-hangul-enter-while-composing") == ["enter-passed-on-while-composing"])
        #expect(try ids("ibus-scripted-misdeeds") == ["duplicated-commit", "delete-surrounding-after-commit"])
        // IBus's GTK module ended the composition itself when the daemon died (preedit "",
        // preedit-end) before the name left the bus: nothing was lost unannounced.
        #expect(try ids("ibus-daemon-killed-mid-composition") == [])
        // fcitx5's module keeps its preedit when fcitx5 dies: flagged (once: it owned two names).
        #expect(try ids("fcitx5-killed-mid-composition").filter { $0 != "preedit-cursor-stuck" } == ["input-method-lost-while-composing"])
        // fcitx5-anthy (5.0.21) keeps its preedit cursor at 0 while the kana grow.
        #expect(try Set(ids("fcitx5-anthy-stuck-cursor")) == ["preedit-cursor-stuck"])
        #expect(try ids("fcitx5-anthy-koneko-send").contains("preedit-cursor-stuck"))
    }
}
