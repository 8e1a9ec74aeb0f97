@testable import ComposerApp
import Testing

/// The translations' integer formats (`trn`): what `String(format:)` would make of them.
@Suite @MainActor struct IntegerFormatTests {
    @Test func sequentialPositionalAndPercent() {
        #expect(integerFormat("%d characters over the limit of %d", [7, 200]) == "7 characters over the limit of 200")
        #expect(integerFormat("上限の %2$d 文字を %1$d 文字超えています", [7, 200]) == "上限の 200 文字を 7 文字超えています")
        #expect(integerFormat("100%% — %d left", [-3]) == "100% — -3 left")
        #expect(integerFormat("%d", [Int.max]) == String(Int.max))
    }

    @Test func whatIsNotAnIntegerDirectiveIsKept() {
        #expect(integerFormat("%@ and %s", [1]) == "%@ and %s")
        #expect(integerFormat("%3$d of two", [1, 2]) == "%3$d of two")
        #expect(integerFormat("%5 trailing %", [1]) == "%5 trailing %")
        #expect(integerFormat("%d %d %d", [1, 2]) == "1 2 %d")
    }
}
