@testable import ComposerCore
import PropertyBased
import Testing

/// The highlighter's ranges after edits: ShiftedRanges (a pending shift, moved to each
/// edit) must say exactly what shifting every range after each edit said.
@Suite("ShiftedRanges")
struct ShiftedRangesTests {
    /// The straightforward algorithm (every range after the edit moved), as the
    /// highlighter had it before: the reference.
    static func referenceMap(_ ranges: inout [Range<Int>], through edit: Edit) {
        let start = edit.range.lowerBound, end = edit.range.upperBound
        let delta = edit.insertedScalarCount - (end - start)
        func mapped(_ offset: Int) -> Int {
            offset <= start ? offset : offset <= end ? start : offset - (end - start)
        }
        let first = ranges.firstIndex { $0.upperBound > start } ?? ranges.count
        guard first < ranges.count else { return }
        var tail: [Range<Int>] = []
        tail.reserveCapacity(ranges.count - first + 1)
        for range in ranges[first...] {
            let piece: [Range<Int>]
            if range.lowerBound >= end {
                piece = [(range.lowerBound + delta)..<(range.upperBound + delta)]
            } else {
                let lower = mapped(range.lowerBound), upper = mapped(range.upperBound)
                let inserted = edit.insertedScalarCount
                if lower >= upper {
                    piece = []
                } else if start <= lower {
                    piece = [(lower + inserted)..<(upper + inserted)]
                } else if start < upper {
                    piece = [lower..<start, (start + inserted)..<(upper + inserted)]
                } else {
                    piece = [lower..<upper]
                }
            }
            for range in piece where !range.isEmpty {
                if let last = tail.last, range.lowerBound <= last.upperBound {
                    tail[tail.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
                } else {
                    tail.append(range)
                }
            }
        }
        ranges.replaceSubrange(first..., with: tail)
        // A deletion can make the last untouched range meet the first mapped one.
        if first > 0, first < ranges.count, ranges[first].lowerBound <= ranges[first - 1].upperBound {
            ranges[first - 1] = ranges[first - 1].lowerBound..<max(ranges[first - 1].upperBound, ranges[first].upperBound)
            ranges.remove(at: first)
        }
    }

    static func disjoint(_ cuts: [Int]) -> [Range<Int>] {
        let sorted = Array(Set(cuts)).sorted()
        return stride(from: 0, to: sorted.count - 1, by: 2).map { sorted[$0]..<sorted[$0 + 1] }
    }

    @Test func editsAnywhereGiveTheReferencesRanges() async {
        let cuts = Gen.int(in: 0...300).array(of: 0...40)
        let edit = Gen.int(in: 0...320).array(of: 3)
        await propertyCheck(count: 500, input: cuts, edit.array(of: 1...25), Gen.int(in: 0...300).array(of: 0...6)) { cuts, edits, windows in
            var reference = Self.disjoint(cuts)
            var shifted = ShiftedRanges(reference)
            var length = 330
            for (step, numbers) in edits.enumerated() {
                let start = min(numbers[0], length), end = min(max(start, numbers[1]), length)
                let inserted = String(repeating: "x", count: numbers[2] % 7)
                let edit = Edit(sequence: step, range: start..<end, removed: String(repeating: "y", count: end - start),
                                inserted: inserted, origin: .key)
                Self.referenceMap(&reference, through: edit)
                shifted.map(through: edit)
                length += inserted.count - (end - start)
                #expect(shifted.elements == reference, "after \(edit)")
                // A window re-scanned in between, as the highlighter does.
                if let first = windows.first, step < windows.count {
                    let window = min(first, length)..<min(first + windows[step], length)
                    let replacement = window.isEmpty ? [] : [window.lowerBound..<(window.lowerBound + (window.count + 1) / 2)]
                    let outside = reference.flatMap { range -> [Range<Int>] in
                        var parts: [Range<Int>] = []
                        let before = min(range.upperBound, window.lowerBound)
                        if range.lowerBound < before { parts.append(range.lowerBound..<before) }
                        let after = max(range.lowerBound, window.upperBound)
                        if after < range.upperBound { parts.append(after..<range.upperBound) }
                        return parts
                    }
                    let plain = InsertedRanges.merged((outside + replacement).sorted { $0.lowerBound < $1.lowerBound })
                    shifted.replace(in: window, with: replacement)
                    reference = plain
                    #expect(shifted.elements == reference, "after replacing \(window)")
                }
                for offset in [start, end, max(0, start - 1)] {
                    #expect(shifted.contains(offset) == reference.contains { $0.contains(offset) })
                }
            }
        }
    }

    /// Typing in one place after a paste full of mentions moves no range: the cost is the
    /// edit's, whatever follows it.
    @Test func typingInOnePlaceLeavesTheRangesAfterItAlone() {
        let ranges = (0..<100_000).map { (index: Int) -> Range<Int> in (index * 10)..<(index * 10 + 5) }
        var shifted = ShiftedRanges(ranges)
        for step in 0..<1_000 {
            shifted.map(through: Edit(sequence: step, range: (3 + step)..<(3 + step), removed: "", inserted: "a", origin: .key))
        }
        // The first range was split around the typing (its tail moved with it); the others moved by 1,000.
        #expect(shifted[0] == 0..<3 && shifted[1] == 1003..<1005 && shifted.count == 100_001)
        #expect(shifted[2] == 1010..<1015)
        #expect(shifted[100_000] == 1_000_990..<1_000_995)
    }
}
