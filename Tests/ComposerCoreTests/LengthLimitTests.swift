import ComposerCore
import Testing

@Suite("Counting in graphemes, scalars and UTF-16")
struct CountingTests {
    @Test(arguments: ["👨‍👩‍👧", "🇯🇵", "e\u{301}", "간", "C\u{30C}", "\r\n"])
    func oneGraphemeEach(text: String) {
        let document = TextDocument(text)
        #expect(document.count(in: .graphemes) == 1)
        #expect(document.count(in: .scalars) == text.unicodeScalars.count)
        #expect(document.count(in: .utf16) == text.utf16.count)
    }

    @Test func theLimitBoundaryNeverSplitsAGrapheme() {
        let document = TextDocument("ab🇯🇵c\u{30C}d")  // a b 🇯🇵 Č d: 5 graphemes, 7 scalars, 9 UTF-16
        #expect(document.limitBoundary(2, in: .graphemes) == 2)
        #expect(document.limitBoundary(3, in: .graphemes) == 4)
        #expect(document.limitBoundary(5, in: .graphemes) == 7)  // not over: the end
        // 3 scalars reach into the flag: the flag is over, whole.
        #expect(document.limitBoundary(3, in: .scalars) == 2)
        #expect(document.limitBoundary(5, in: .scalars) == 4)  // "C" + caron: Č is over whole
        // UTF-16: the flag is 4 units; a limit inside it leaves it out.
        #expect(document.limitBoundary(4, in: .utf16) == 2)
        #expect(document.limitBoundary(6, in: .utf16) == 4)
    }

    @Test func theCounterShowsWhatIsLeftAMinusWhenOverAndTheProvisionalCount() {
        #expect(LimitStatus(count: 158, provisionalCount: nil, limit: 200).counterText == "42")
        let over = LimitStatus(count: 207, provisionalCount: nil, limit: 200)
        #expect(over.counterText == "\u{2212}7" && over.isOver && over.counterIsOver)
        let composing = LimitStatus(count: 195, provisionalCount: 203, limit: 200)
        #expect(composing.counterText == "\u{2212}3" && composing.isProvisional)
        #expect(!composing.isOver && composing.counterIsOver)
        #expect(!over.isProvisional, "the window's tooltip says what the number means from this")
    }

    @Test func theCounterAppearsNearTheLimitAndStaysWhileOver() {
        // A limit of 200: shown from 40 left (the last fifth), also when a composition
        // brings the text there, and while over.
        #expect(!LimitStatus(count: 0, provisionalCount: nil, limit: 200).counterIsShown)
        #expect(!LimitStatus(count: 159, provisionalCount: nil, limit: 200).counterIsShown)
        #expect(LimitStatus(count: 160, provisionalCount: nil, limit: 200).counterIsShown)
        #expect(LimitStatus(count: 150, provisionalCount: 165, limit: 200).counterIsShown)
        #expect(!LimitStatus(count: 165, provisionalCount: 150, limit: 200).counterIsShown,
                "a composition that shortens the text (a conversion) counts as it would commit")
        #expect(LimitStatus(count: 260, provisionalCount: nil, limit: 200).counterIsShown)
        // Small limits: never later than 20 left.
        #expect(LimitStatus(count: 0, provisionalCount: nil, limit: 20).counterIsShown)
        #expect(!LimitStatus(count: 9, provisionalCount: nil, limit: 30).counterIsShown)
        #expect(LimitStatus(count: 10, provisionalCount: nil, limit: 30).counterIsShown)
        #expect(LimitStatus(count: 0, provisionalCount: nil, limit: 0).counterIsShown)
    }

    @Test func blankTextIsNotSentAndOverLimitTextIsNot() {
        let limit = LengthLimit(limit: 3)
        #expect(ComposerModel(text: " \n\t").sendRefusal(limit: limit) == .empty)
        #expect(ComposerModel(text: "abcd").sendRefusal(limit: limit) == .overLimit(by: 1))
        #expect(ComposerModel(text: "abc").sendDecision(limit: limit) == .send("abc"))
    }
}

@Suite("Hard limit: seed 004")
struct HardLimitTests {
    /// The IME-safe limit's example, literally: limit 10, しろくろの|がいる, こねこにゃー composed
    /// (14 on screen, nothing limited), 子🐱ニャー committed → しろくろの子🐱がいる.
    @Test func theSeedExample() {
        let composer = SimulatedComposer(text: "しろくろのがいる", caret: 5, limit: LengthLimit(limit: 10, mode: .hard))
        composer.settle()
        for preedit in ["k", "こ", "こね", "こねこ", "こねこにゃー", "子🐱ニャー"] {
            composer.compose(preedit)
            composer.settle()
            #expect(composer.text == "しろくろのがいる", "nothing limited while composing")
        }
        #expect(composer.status.provisionalCount == 13, "the preedit counts, provisionally (seed: 13)")
        composer.commit("子🐱ニャー")
        composer.compose("")
        composer.endComposition()
        let events = composer.settle()
        #expect(composer.text == "しろくろの子🐱がいる")
        #expect(composer.caret == 7, "right after the kept part")
        #expect(events.contains(.limit(removed: "ニャー", at: 7)))
        #expect(composer.trims.map(\.removed) == ["ニャー"])
    }

    @Test func hangulCommitsWithoutAPauseAreOneInsertion() {
        let composer = SimulatedComposer(text: "abc", limit: LengthLimit(limit: 5, mode: .hard))
        composer.settle()
        // ibus-hangul: 한 commits as 글 starts composing; settles in between are not quiet.
        composer.compose("ㅎ"); composer.settle()
        composer.compose("한"); composer.settle()
        composer.commit("한"); composer.compose("ㄱ"); composer.settle()
        composer.compose("글"); composer.settle()
        composer.commit("글"); composer.compose("ㅇ"); composer.settle()
        composer.commit("ㅇ"); composer.compose(""); composer.endComposition()
        #expect(composer.text == "abc한글ㅇ")
        composer.settle()
        #expect(composer.text == "abc한글", "the three commits were one insertion, cut from its end")
    }

    @Test func aCombiningMarkAtTheLimitIsAccepted() {
        let composer = SimulatedComposer(text: "abC", limit: LengthLimit(limit: 3, mode: .hard))
        composer.settle()
        composer.commit("\u{30C}")
        composer.settle()
        #expect(composer.text == "abC\u{30C}", "C → Č does not add a grapheme")
        #expect(composer.trims.isEmpty)
    }

    @Test func undoIsNeverTrimmedItShowsAsOverflow() {
        let composer = SimulatedComposer(text: "", limit: LengthLimit(limit: 4, mode: .hard))
        composer.settle()
        composer.insert("abcdef", origin: .paste)
        composer.settle()
        #expect(composer.text == "abcd")
        // Undoing the trim brings "ef" back in one step: not cut again, coloured instead.
        composer.insert("ef", at: 4, origin: .undo)
        let events = composer.settle()
        #expect(composer.text == "abcdef")
        #expect(events.contains(.overflow(start: 4, end: 6, over: 2, unit: .graphemes)))
        #expect(composer.taggedRanges == [4..<6])
    }

    @Test func loweringTheLimitNeverCutsOldText() {
        let composer = SimulatedComposer(text: "abcdef", limit: LengthLimit(limit: 10, mode: .hard))
        composer.settle()
        composer.limit = LengthLimit(limit: 3, mode: .hard)
        composer.settle()
        #expect(composer.text == "abcdef")
        #expect(composer.taggedRanges == [3..<6])
    }

    @Test func textBeforeAndAfterTheInsertionIsNeverTouched() {
        let composer = SimulatedComposer(text: "0123456789", caret: 5, limit: LengthLimit(limit: 12, mode: .hard))
        composer.settle()
        composer.insert("abcdef", origin: .paste)
        composer.settle()
        #expect(composer.text == "01234ab56789")
        #expect(composer.caret == 7)
    }

    @Test(arguments: CountUnit.allCases)
    func eachUnitCutsOnGraphemeBoundaries(unit: CountUnit) {
        let composer = SimulatedComposer(text: "ab", limit: LengthLimit(limit: 5, mode: .hard, unit: unit))
        composer.settle()
        composer.commit("🇯🇵e\u{301}x")  // UTF-16: 4 + 2 + 1; scalars: 2 + 2 + 1
        composer.settle()
        let expected: String
        switch unit {
        case .graphemes: expected = "ab🇯🇵e\u{301}x"   // 5 graphemes: fits
        case .scalars: expected = "ab🇯🇵"              // 4 scalars; é would make 6
        case .utf16: expected = "ab"                    // the flag alone would make 6
        }
        #expect(Array(composer.text.unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test func recolouringCostsTheEditNotTheDocument() {
        let composer = SimulatedComposer(text: String(repeating: "a", count: 100_000), limit: LengthLimit(limit: 10))
        composer.settle()
        #expect(composer.effects == [.overflowTag(add: [10..<100_000], remove: [])])
        composer.commit("b")
        composer.settle()
        // Only the typed character is (re)tagged; the 99,990 coloured before are left alone.
        #expect(composer.effects.last == .overflowTag(add: [100_000..<100_001], remove: []))
        composer.delete(0..<1, origin: .key)
        composer.settle()
        // The tagged text moved left by one; the character now at 9 is within the limit again.
        #expect(composer.effects.last == .overflowTag(add: [], remove: [9..<10]))
        composer.settle()
        #expect(composer.effects.count == 3, "nothing changed, nothing to do")
    }

    @Test func textTypedPastTheLimitIsTaggedWhenTheUserActionEnds() {
        let composer = SimulatedComposer(text: "abcdef", limit: LengthLimit(limit: 3), inheritance: [false])
        composer.settle()
        #expect(composer.taggedRanges == [3..<6])
        composer.commit("g")
        #expect(composer.taggedRanges == [3..<6], "GTK does not extend a tag over text typed at its end")
        composer.userActionEnded()
        #expect(composer.effects.last == .overflowTag(add: [6..<7], remove: []))
        #expect(composer.taggedRanges == [3..<7], "tagged before the settle, in the same main-loop turn")
        composer.commit("h")
        composer.commit("i")
        composer.userActionEnded()
        #expect(composer.effects.last == .overflowTag(add: [7..<9], remove: []), "what is new since the last one")
        composer.settle()
        #expect(composer.taggedRanges == [3..<9])
        #expect(composer.effects.count == 3, "the settle finds the typed text tagged: nothing to ask of GTK")
        composer.userActionEnded()
        #expect(composer.effects.count == 3, "nothing inserted since the settle: nothing to do")
    }

    @Test func textAtTheLimitOrBeforeItWaitsForTheSettle() {
        // At the boundary: a combining mark joins the last grapheme within the limit.
        let joining = SimulatedComposer(text: "abc", limit: LengthLimit(limit: 3), inheritance: [false])
        joining.settle()
        joining.commit("\u{301}")
        joining.userActionEnded()
        #expect(joining.effects.isEmpty)
        joining.settle()
        #expect(joining.taggedRanges.isEmpty)
        // Before the boundary: the tagged text moves; only the settle knows where it ends.
        let before = SimulatedComposer(text: "abcdef", limit: LengthLimit(limit: 3), inheritance: [false])
        before.settle()
        before.insert("x", at: 0, origin: .imCommit)
        before.userActionEnded()
        #expect(before.effects.count == 1)
        before.settle()
        #expect(before.taggedRanges == [3..<7])
        // Past the boundary, a combining mark joins an overflowing grapheme: tagged at once.
        let past = SimulatedComposer(text: "abcde", limit: LengthLimit(limit: 3), inheritance: [false])
        past.settle()
        past.commit("\u{301}")
        past.userActionEnded()
        #expect(past.taggedRanges == [3..<6])
    }

    @Test func softModeNeverChangesTheText() {
        let composer = SimulatedComposer(text: "", limit: LengthLimit(limit: 3))
        composer.settle()
        composer.insert("abcdef", origin: .paste)
        let events = composer.settle()
        #expect(composer.text == "abcdef")
        #expect(events.contains(.overflow(start: 3, end: 6, over: 3, unit: .graphemes)))
        #expect(composer.taggedRanges == [3..<6])
        composer.delete(2..<6, origin: .key)
        #expect(composer.settle().contains(.overflow(start: 2, end: 2, over: 0, unit: .graphemes)))
        #expect(composer.taggedRanges.isEmpty)
    }
}

@Suite struct LimitHintTests {
    /// The core says how far over, of what limit, in what unit; the window phrases it.
    @Test func theHintSaysHowFarOverInTheUnitCounted() {
        #expect(LengthLimit(limit: 200).overLimitHint(by: 7) == LimitHint(over: 7, limit: 200, unit: .graphemes))
        #expect(LengthLimit(limit: 10, unit: .utf16).overLimitHint(by: 2) == LimitHint(over: 2, limit: 10, unit: .utf16))
    }
}
