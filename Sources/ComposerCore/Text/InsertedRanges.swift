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

        // Mapping keeps the order, and the inserted text goes before the first piece at or
        // after it: the pieces come out sorted, and one pass merges what now touches (this
        // runs for every edit at every settle: no sort, one array).
        var pending: Range<Int>? = tagging && insertedLength > 0
            ? removedStart..<(removedStart + insertedLength) : nil
        var mapped: [Range<Int>] = []
        mapped.reserveCapacity(ranges.count + 2)
        func add(_ piece: Range<Int>) {
            if let inserted = pending, piece.lowerBound >= inserted.lowerBound {
                pending = nil
                add(inserted)
            }
            if let last = mapped.last, piece.lowerBound <= last.upperBound {
                mapped[mapped.count - 1] = last.lowerBound..<max(last.upperBound, piece.upperBound)
            } else {
                mapped.append(piece)
            }
        }
        for range in ranges {
            let start = mapThroughRemoval(range.lowerBound)
            let end = mapThroughRemoval(range.upperBound)
            guard start < end else { continue }
            // Insertion at `removedStart`: text before a range shifts it, text at or
            // after its end leaves it alone, and text strictly inside splits it
            // around the new text (which, when tagged, rejoins it as one range).
            if removedStart <= start {
                add((start + insertedLength)..<(end + insertedLength))
            } else if removedStart < end {
                add(start..<removedStart)
                add((removedStart + insertedLength)..<(end + insertedLength))
            } else {
                add(start..<end)
            }
        }
        if let inserted = pending { add(inserted) }
        ranges = mapped
    }

    /// Sorts and merges ranges that overlap or touch. Most callers pass them in order
    /// already (tokens found left to right, windows around sorted edits): no sort then.
    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        guard ranges.count > 1 else { return ranges }
        var sorted = true
        for index in 1..<ranges.count where ranges[index].lowerBound < ranges[index - 1].lowerBound {
            sorted = false
            break
        }
        var result: [Range<Int>] = []
        result.reserveCapacity(ranges.count)
        for range in sorted ? ranges : ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
