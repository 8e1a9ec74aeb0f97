/// A sorted, merged set of scalar ranges that follows the text through edits.
///
/// This is how "text inserted since input last settled" stays correct while the
/// user keeps editing: each later edit moves, shrinks or extends the ranges the
/// same way it moves the text they cover.
struct InsertedRanges {
    private(set) var ranges: [Range<Int>] = []

    init(ranges: [Range<Int>] = []) {
        self.ranges = Self.merged(ranges)
    }

    /// Maps the ranges through `edit`; if `tagging`, the edit's inserted text is added.
    mutating func apply(_ edit: Edit, tagging: Bool) {
        let removedStart = edit.range.lowerBound
        let removedEnd = edit.range.upperBound
        let removedLength = removedEnd - removedStart
        let insertedLength = edit.insertedScalarCount

        func mapThroughRemoval(_ offset: Int) -> Int {
            if offset <= removedStart { return offset }
            if offset <= removedEnd { return removedStart }
            return offset - removedLength
        }

        var mapped: [Range<Int>] = []
        for range in ranges {
            let start = mapThroughRemoval(range.lowerBound)
            let end = mapThroughRemoval(range.upperBound)
            guard start < end else { continue }
            // Insertion at `removedStart`: text before a range shifts it, text at or
            // after its end leaves it alone, and text strictly inside splits it
            // around the new text (which, when tagged, rejoins it as one range).
            if removedStart <= start {
                mapped.append((start + insertedLength)..<(end + insertedLength))
            } else if removedStart < end {
                mapped.append(start..<removedStart)
                mapped.append((removedStart + insertedLength)..<(end + insertedLength))
            } else {
                mapped.append(start..<end)
            }
        }
        if tagging, insertedLength > 0 {
            mapped.append(removedStart..<(removedStart + insertedLength))
        }
        ranges = Self.merged(mapped)
    }

    /// Sorts and merges ranges that overlap or touch.
    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
