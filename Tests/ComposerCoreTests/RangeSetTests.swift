@testable import ComposerCore
import PropertyBased
import Testing

@Suite("Set operations on sorted, disjoint ranges")
struct RangeSetTests {
    /// Sorted, disjoint, non-empty ranges below 60, from a set of offsets.
    private static func ranges() -> Generator<[Range<Int>], some Sequence & SendableMetatype> {
        Gen.int(in: 0...59).array(of: 0...40).map { Self.ranges(of: Set($0)) }
    }

    private static func ranges(of offsets: Set<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for offset in offsets.sorted() {
            if let last = result.last, last.upperBound == offset {
                result[result.count - 1] = last.lowerBound..<(offset + 1)
            } else {
                result.append(offset..<(offset + 1))
            }
        }
        return result
    }

    private static func offsets(_ ranges: [Range<Int>]) -> Set<Int> { Set(ranges.flatMap { Array($0) }) }

    @Test func subtractAndUnionAgreeWithSetsOfOffsets() async {
        await propertyCheck(count: 500, input: Self.ranges(), Self.ranges()) { a, b in
            #expect(RangeSet.subtract(a, b) == Self.ranges(of: Self.offsets(a).subtracting(Self.offsets(b))))
            #expect(RangeSet.union(a, b) == Self.ranges(of: Self.offsets(a).union(Self.offsets(b))))
        }
    }

    @Test func examples() {
        #expect(RangeSet.subtract([0..<10], [2..<3, 5..<7]) == [0..<2, 3..<5, 7..<10])
        #expect(RangeSet.subtract([0..<3, 5..<8], []) == [0..<3, 5..<8])
        #expect(RangeSet.subtract([], [0..<3]) == [])
        #expect(RangeSet.union([0..<2], [2..<4, 6..<7]) == [0..<4, 6..<7])
    }
}
