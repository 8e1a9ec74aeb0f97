/// A copy of the scalars around the latest reads and edits, kept in step with the document
/// by the edits themselves.
///
/// At every settle the settle steps read the same few hundred scalars around the caret (the
/// highlighter up to four times the longest name, completion the word before the caret).
/// Reading them out of the rope costs two index walks down the tree, a String and UTF-8
/// validation — tens of instructions per scalar, the largest part of a keystroke's settle.
/// Patching this copy with the typed text costs a few, so typing reads from the rope only
/// when a settle looks somewhere new.
struct NearbyScalars {
    /// The document offset of `scalars.first`.
    private(set) var start = 0
    private(set) var scalars: [Unicode.Scalar] = []

    /// Scalars kept at most; past it, the half far from the latest edit is dropped.
    static let capacity = 4096

    var range: Range<Int> { start..<(start + scalars.count) }

    /// The scalars of `range` (document offsets), when the copy holds all of them.
    func scalars(in range: Range<Int>) -> [Unicode.Scalar]? {
        guard range.lowerBound >= start, range.upperBound <= start + scalars.count else { return nil }
        return Array(scalars[(range.lowerBound - start)..<(range.upperBound - start)])
    }

    /// Keeps `scalars`, read from the document at `start`, instead of what was kept: all of
    /// them up to `capacity`; of a longer read (the first settle after a long paste reads
    /// the whole pasted text: 32 MB for 10 MB of text) only its end, where a paste leaves
    /// the caret and the next settles read. Kept whole, the copy stayed in memory until
    /// later edits wore it down.
    mutating func keep(_ scalars: [Unicode.Scalar], at start: Int) {
        guard scalars.count > Self.capacity else {
            self.start = start
            self.scalars = scalars
            return
        }
        let kept = Self.capacity / 2
        self.start = start + scalars.count - kept
        self.scalars = Array(scalars.suffix(kept))
    }

    /// Follows an edit of the document: the scalars of `range` (offsets before the edit)
    /// replaced by `inserted`. An edit inside the copy or at its ends patches it; one before
    /// it shifts it; one after it changes nothing; one across an end makes it forget.
    mutating func apply(range: Range<Int>, inserted: String) {
        let end = start + scalars.count
        if range.lowerBound >= start, range.upperBound <= end {
            let lower = range.lowerBound - start
            scalars.replaceSubrange(lower..<(range.upperBound - start), with: inserted.unicodeScalars)
            if scalars.count > Self.capacity { dropFarHalf(from: lower) }
        } else if range.upperBound <= start {
            start += inserted.unicodeScalars.count - range.count
        } else if range.lowerBound >= end {
            return
        } else {
            forget()
        }
    }

    mutating func forget() {
        start = 0
        scalars = []
    }

    /// Keeps the half of the copy around `edit` (an index into `scalars`).
    private mutating func dropFarHalf(from edit: Int) {
        let keep = Self.capacity / 2
        let lower = min(max(0, edit - keep / 2), scalars.count - keep)
        start += lower
        scalars = Array(scalars[lower..<(lower + keep)])
    }
}
