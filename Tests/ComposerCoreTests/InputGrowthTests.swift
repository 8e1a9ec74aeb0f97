import ComposerCore
import Testing

@Suite struct InputGrowthTests {
    @Test func growsWithTheContentUpToSixLines() {
        let bottoms = [16, 32, 48, 64, 80, 96]
        #expect(InputGrowth.maximumHeight(displayLineBottoms: [], verticalPadding: 12) == nil)
        #expect(InputGrowth.maximumHeight(displayLineBottoms: bottoms, verticalPadding: 12) == nil)
    }

    @Test func stopsAtTheBottomOfTheSixthLineOnceThereIsASeventh() {
        let bottoms = [16, 32, 48, 64, 80, 96, 112, 128]
        #expect(InputGrowth.maximumHeight(displayLineBottoms: bottoms, verticalPadding: 12) == 108)
    }

    @Test func tallCJKLinesCountAsTheyAreDrawn() {
        // Latin 16 px, then kanji lines of 21 px: the cap follows the real lines.
        let bottoms = [16, 37, 58, 79, 100, 121, 142]
        #expect(InputGrowth.maximumHeight(displayLineBottoms: bottoms, verticalPadding: 0) == 121)
        #expect(InputGrowth.maximumHeight(displayLineBottoms: bottoms, verticalPadding: 0, maxLines: 2) == 37)
    }

    @Test func nonsenseLimitsAreRepaired() {
        #expect(InputGrowth.maximumHeight(displayLineBottoms: [10, 20], verticalPadding: -5, maxLines: 0) == 10)
    }

    @Test func typingWithinTheLastParagraphsLinesNeedsNoRemeasure() {
        // A short text, typed at its end, the last line's bottom where it was.
        #expect(!InputGrowth.needsRemeasure(editFrom: 40, lastParagraphStart: 10, bottomMoved: false, measuredThrough: nil))
        // The same key wrapped the line: the bottom moved.
        #expect(InputGrowth.needsRemeasure(editFrom: 40, lastParagraphStart: 10, bottomMoved: true, measuredThrough: nil))
        // An edit above the last paragraph: its bottom is only GTK's estimate.
        #expect(InputGrowth.needsRemeasure(editFrom: 5, lastParagraphStart: 10, bottomMoved: false, measuredThrough: nil))
    }

    @Test func aFullInputRemeasuresOnlyForEditsAmongTheLinesThatSetItsCap() {
        #expect(InputGrowth.needsRemeasure(editFrom: 30, lastParagraphStart: 0, bottomMoved: false, measuredThrough: 50))
        #expect(InputGrowth.needsRemeasure(editFrom: 50, lastParagraphStart: 0, bottomMoved: false, measuredThrough: 50))
        #expect(!InputGrowth.needsRemeasure(editFrom: 51, lastParagraphStart: 0, bottomMoved: false, measuredThrough: 50))
        // Past the lines that set the cap, neither the last paragraph nor its bottom matters.
        #expect(!InputGrowth.needsRemeasure(editFrom: 51, lastParagraphStart: 80, bottomMoved: true, measuredThrough: 50))
        #expect(InputGrowth.keepsCap(editFrom: 51, measuredThrough: 50))
        #expect(!InputGrowth.keepsCap(editFrom: 50, measuredThrough: 50))
        #expect(!InputGrowth.keepsCap(editFrom: 51, measuredThrough: nil), "not full")
        #expect(!InputGrowth.keepsCap(editFrom: nil, measuredThrough: 50), "a new width")
    }

    @Test func aNewWidthAlwaysRemeasures() {
        #expect(InputGrowth.needsRemeasure(editFrom: nil, lastParagraphStart: 0, bottomMoved: false, measuredThrough: 50))
    }

    @Test func aLongDraftIsGivenSixLinesOfItsFontBeforeTheWindowIsShown() {
        #expect(InputGrowth.estimatedFullHeight(draftBytes: 2048, lineHeight: 17, verticalPadding: 12) == 6 * 17 + 12)
        #expect(InputGrowth.estimatedFullHeight(draftBytes: 2047, lineHeight: 17, verticalPadding: 12) == nil)
        #expect(InputGrowth.estimatedFullHeight(draftBytes: 1_000_000, lineHeight: 0, verticalPadding: 12) == nil)
    }

    @Test func theEstimateSampleHoldsTheFirstSixParagraphsAtMostTwoThousandScalars() {
        let paragraphs = (1...10).map { "line \($0) 日本語" }.joined(separator: "\n")
        let sample = InputGrowth.estimateSample(of: paragraphs)
        #expect(sample == (1...6).map { "line \($0) 日本語" }.joined(separator: "\n") + "\n")
        #expect(InputGrowth.estimateSample(of: "short") == "short")
        #expect(InputGrowth.estimateSample(of: "") == "")
        let oneParagraph = String(repeating: "あ", count: 5000)
        #expect(InputGrowth.estimateSample(of: oneParagraph).unicodeScalars.count == InputGrowth.sampleScalars)
        // A scalar at a time: a combining mark may be cut from its base (only heights matter).
        let marks = String(repeating: "e\u{301}", count: 1500)
        #expect(InputGrowth.estimateSample(of: marks).unicodeScalars.count == InputGrowth.sampleScalars)
    }
}
