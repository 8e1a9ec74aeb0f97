/// Sorted, disjoint scalar ranges that an edit shifts in time proportional to what it
/// touches, not to how many ranges follow it.
///
/// Why: the highlighter keeps every @mention, #channel and :shortcode: of the draft. After
/// a paste of 10 MB full of mentions, typing near the start used to move each of the
/// 100,000 ranges after the caret on every keystroke. Here the ranges from `shiftFrom` on
/// carry one pending `shift` instead (as a gap buffer keeps its gap where the typing is):
/// an edit moves that boundary to itself, which costs the number of ranges between the
/// last edit and this one — none while typing in one place.
struct ShiftedRanges: Equatable {
    /// The ranges; those from `shiftFrom` on are `shift` scalars further on than stored.
    private var storage: [Range<Int>]
    private var shiftFrom: Int
    private var shift = 0

    init(_ ranges: [Range<Int>] = []) {
        storage = ranges
        shiftFrom = ranges.count
    }

    var count: Int { storage.count }
    var isEmpty: Bool { storage.isEmpty }

    subscript(index: Int) -> Range<Int> {
        let range = storage[index]
        return index >= shiftFrom ? (range.lowerBound + shift)..<(range.upperBound + shift) : range
    }

    /// Every range (O(n): tests and inspection).
    var elements: [Range<Int>] { (0..<count).map { self[$0] } }

    static func == (lhs: ShiftedRanges, rhs: ShiftedRanges) -> Bool { lhs.elements == rhs.elements }

    /// The first index whose range satisfies `isPast` (which must be monotonic).
    func firstIndex(where isPast: (Range<Int>) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if isPast(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Whether `offset` lies in one of the ranges.
    func contains(_ offset: Int) -> Bool {
        let index = firstIndex { $0.upperBound > offset }
        return index < count && self[index].lowerBound <= offset
    }

    /// The parts of the ranges inside `window`.
    func clip(to window: Range<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var index = firstIndex { $0.upperBound > window.lowerBound }
        while index < count, self[index].lowerBound < window.upperBound {
            let range = self[index].clamped(to: window)
            if !range.isEmpty { result.append(range) }
            index += 1
        }
        return result
    }

    /// Maps the ranges through `edit` (the inserted text is not counted as in a range):
    /// ranges before it stay, ranges after it move by what it added or removed, ranges it
    /// touches lose what it removed and are split around what it inserted.
    mutating func map(through edit: Edit) {
        let start = edit.range.lowerBound, end = edit.range.upperBound
        let inserted = edit.insertedScalarCount
        let first = firstIndex { $0.upperBound > start }
        guard first < count else { return }
        var last = first
        while last < count, self[last].lowerBound < end { last += 1 }
        // [first, last) is touched and becomes plain; everything after moves by the edit.
        moveBoundary(to: last)
        shift += inserted - (end - start)
        func mapped(_ offset: Int) -> Int {
            offset <= start ? offset : offset <= end ? start : offset - (end - start)
        }
        var pieces: [Range<Int>] = []
        for range in storage[first..<last] {
            let lower = mapped(range.lowerBound), upper = mapped(range.upperBound)
            let split: [Range<Int>]
            if lower >= upper {
                split = []
            } else if start <= lower {
                split = [(lower + inserted)..<(upper + inserted)]
            } else if start < upper {
                split = [lower..<start, (start + inserted)..<(upper + inserted)]
            } else {
                split = [lower..<upper]
            }
            for piece in split where !piece.isEmpty {
                if let previous = pieces.last, piece.lowerBound <= previous.upperBound {
                    pieces[pieces.count - 1] = previous.lowerBound..<max(previous.upperBound, piece.upperBound)
                } else {
                    pieces.append(piece)
                }
            }
        }
        storage.replaceSubrange(first..<last, with: pieces)
        shiftFrom += pieces.count - (last - first)
        // A deletion can make neighbours meet: the last piece and the first moved range,
        // and the range before the edit and what follows it.
        mergeIfTouching(at: first + pieces.count)
        mergeIfTouching(at: first)
    }

    /// The ranges with what lies inside `window` replaced by `replacement` (inside it).
    mutating func replace(in window: Range<Int>, with replacement: [Range<Int>]) {
        let first = firstIndex { $0.upperBound > window.lowerBound }
        var last = first
        while last < count, self[last].lowerBound < window.upperBound { last += 1 }
        let lower = first > 0 ? first - 1 : first
        let upper = last < count ? last + 1 : last
        moveBoundary(to: upper)
        var middle: [Range<Int>] = []
        if first < last, storage[first].lowerBound < window.lowerBound {
            middle.append(storage[first].lowerBound..<window.lowerBound)
        }
        middle += replacement
        if first < last, storage[last - 1].upperBound > window.upperBound {
            middle.append(window.upperBound..<storage[last - 1].upperBound)
        }
        // Merged with the neighbours the window touches.
        let merged = InsertedRanges.merged(Array(storage[lower..<first]) + middle + Array(storage[last..<upper]))
        storage.replaceSubrange(lower..<upper, with: merged)
        shiftFrom += merged.count - (upper - lower)
    }

    /// Moves the start of the shifted ranges to `index`: the ranges it passes get the
    /// shift written into them (or out of them), the others keep it pending.
    private mutating func moveBoundary(to index: Int) {
        if shift != 0 {
            if index < shiftFrom {
                for i in index..<shiftFrom { storage[i] = (storage[i].lowerBound - shift)..<(storage[i].upperBound - shift) }
            } else if index > shiftFrom {
                for i in shiftFrom..<index { storage[i] = (storage[i].lowerBound + shift)..<(storage[i].upperBound + shift) }
            }
        }
        shiftFrom = index
        if shiftFrom == count { shift = 0 }
    }

    /// Merges the ranges at `index - 1` and `index` if they meet.
    private mutating func mergeIfTouching(at index: Int) {
        guard index > 0, index < count, self[index].lowerBound <= self[index - 1].upperBound else { return }
        let merged = self[index - 1].lowerBound..<max(self[index - 1].upperBound, self[index].upperBound)
        moveBoundary(to: max(shiftFrom, index + 1))
        storage[index - 1] = merged
        storage.remove(at: index)
        shiftFrom -= 1
    }
}
