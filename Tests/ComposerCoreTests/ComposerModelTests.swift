import ComposerCore
import Testing

@Suite("ComposerModel: observed edits, selection, preedit")
struct ComposerModelTests {
    @Test func caretDefaultsToTheEndAndIsClamped() {
        #expect(ComposerModel(text: "こねこ").selection == TextSelection(caret: 3))
        #expect(ComposerModel(text: "ab", caret: 1).selection == TextSelection(caret: 1))
        #expect(ComposerModel(text: "ab", caret: 99).selection == TextSelection(caret: 2))
        #expect(ComposerModel(text: "ab", caret: -4).selection == TextSelection(caret: 0))
    }

    @Test func insertShiftsPositionsAtOrAfterTheInsertionPoint() {
        let model = ComposerModel(text: "abcdef")
        model.setSelection(anchor: 1, caret: 4)
        model.applyInsert(at: 4, text: "XY", origin: .key)  // caret at the point: moves
        #expect(model.selection == TextSelection(anchor: 1, caret: 6))
        model.applyInsert(at: 1, text: "猫", origin: .imCommit)  // anchor at the point: moves
        #expect(model.selection == TextSelection(anchor: 2, caret: 7))
        model.applyInsert(at: 0, text: "👨‍👩‍👧", origin: .paste)  // 5 scalars before both
        #expect(model.selection == TextSelection(anchor: 7, caret: 12))
        model.applyInsert(at: 99, text: "!", origin: .key)  // clamped to the end, after both
        #expect(model.selection == TextSelection(anchor: 7, caret: 12))
        #expect(model.text == "👨‍👩‍👧a猫bcdXYef!")
    }

    @Test func deleteCollapsesInsideAndShiftsAfter() {
        let model = ComposerModel(text: "0123456789")
        model.setSelection(anchor: 3, caret: 8)
        model.applyDelete(range: 2..<5, origin: .key)  // anchor inside → 2, caret after → 5
        #expect(model.selection == TextSelection(anchor: 2, caret: 5))
        #expect(model.text == "0156789")
        model.applyDelete(range: 5..<7, origin: .key)  // caret at the lower bound stays
        #expect(model.selection == TextSelection(anchor: 2, caret: 5))
        model.applyDelete(range: 0..<100, origin: .program)  // clamped: deletes everything
        #expect(model.selection == TextSelection(caret: 0))
        #expect(model.text == "")
    }

    @Test func editsAreLoggedWithWhatTheyRemoved() {
        let model = ComposerModel(text: "しろくろ")
        model.applyDelete(range: 1..<3, origin: .deleteSurrounding)
        model.applyInsert(at: 1, text: "子猫", origin: .imCommit)
        let edits = model.log.editsSinceLastQuietSettle()
        #expect(edits.map(\.range) == [1..<3, 1..<1])
        #expect(edits.map(\.removed) == ["ろく", ""])
        #expect(edits.map(\.inserted) == ["", "子猫"])
        #expect(edits.map(\.origin) == [.deleteSurrounding, .imCommit])
    }

    @Test func emptyEditsAndBadOffsetsDoNotCrashOrLog() {
        let model = ComposerModel(text: "ab")
        model.applyInsert(at: -10, text: "", origin: .key)
        model.applyDelete(range: 5..<9, origin: .key)
        model.applyDelete(range: 1..<1, origin: .key)
        #expect(model.log.entries.isEmpty)
        model.applyInsert(at: -10, text: "x", origin: .key)
        #expect(model.text == "xab")
        model.setSelection(anchor: -1, caret: 50)
        #expect(model.selection == TextSelection(anchor: 0, caret: 3))
    }

    @Test func preeditLifecycle() {
        let model = ComposerModel()
        #expect(model.preedit == nil)
        #expect(!model.isComposing)
        model.preeditStarted()
        #expect(model.preedit == .empty)
        #expect(!model.isComposing)  // empty preedit: not composing for Send
        let preedit = Preedit(text: "こねこ", cursor: 3, segments: [PreeditSegment(start: 0, end: 3, styles: [.underline])])
        model.preeditChanged(preedit)
        #expect(model.preedit == preedit)
        #expect(model.isComposing)
        #expect(model.text == "")  // preedit never enters the committed text
        model.preeditEnded()
        #expect(model.preedit == nil)
        #expect(!model.isComposing)
    }

    @Test func preeditChangedWithoutStartStartsOnlyWithText() {
        let model = ComposerModel()
        model.preeditChanged(.empty)
        #expect(model.preedit == nil)
        model.preeditChanged(Preedit(text: "ㅎ", cursor: 1, segments: []))
        #expect(model.isComposing)
    }

    /// GtkIMMulticontext switching modules mid-composition: preedit-changed("") and no
    /// preedit-end. The composition is over; one that goes on starts again with its text.
    @Test func anEmptiedPreeditEndsTheCompositionWithoutAPreeditEnd() {
        let model = ComposerModel(text: "ab")
        model.preeditStarted()
        model.preeditChanged(Preedit(text: "か", cursor: 1, segments: []))
        model.preeditChanged(.empty)
        #expect(model.preedit == nil && !model.isComposing)
        model.preeditEnded()
        #expect(model.preedit == nil, "a late preedit-end changes nothing")
        model.preeditStarted()
        model.preeditChanged(.empty)
        #expect(model.preedit != nil, "started but not shown yet: still starting")
        model.preeditChanged(Preedit(text: "ㄱ", cursor: 1, segments: []))
        #expect(model.isComposing)
    }

    @Test func settleMarksRecordWhetherAPreeditWasActive() {
        let model = ComposerModel()
        model.markSettle()
        model.preeditStarted()
        model.markSettle()
        model.preeditEnded()
        model.markSettle()
        let marks = model.log.entries.compactMap { entry -> SettleMark? in
            if case let .settle(mark) = entry { return mark }
            return nil
        }
        #expect(marks.map(\.preeditActive) == [false, true, false])
        #expect(marks.map(\.sequence) == [0, 1, 2])
    }

    @Test func snapshotHoldsCommittedTextAndSelection() {
        let model = ComposerModel(text: "abc")
        model.setSelection(anchor: 3, caret: 1)
        model.preeditStarted()
        model.preeditChanged(Preedit(text: "x", cursor: 1, segments: []))
        #expect(model.snapshot == TextSnapshot(text: "abc", caret: 1, selection: TextSelection(anchor: 3, caret: 1)))
    }

    @Test func selectionBounds() {
        let backwards = TextSelection(anchor: 5, caret: 2)
        #expect(backwards.lower == 2 && backwards.upper == 5 && !backwards.isEmpty)
        #expect(TextSelection(caret: 4).isEmpty)
    }
}
