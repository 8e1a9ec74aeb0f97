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
}
