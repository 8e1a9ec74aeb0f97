/// Where hard mode cuts: the IME-safe limit's "replace, then cut the replacement"
/// algorithm, generalised to any insertion.
///
/// In its simple form, one change at a time, it rebuilds the text from the text before the
/// change plus the replacement cut to fit, and puts the caret after the kept part. Here
/// "the replacement" is everything inserted since input last settled with no composition
/// (several Hangul commits, a paste, an IM's delete-surrounding + commit), taken from the
/// edit log; it is cut from its end back to the limit on grapheme boundaries, and nothing
/// outside it is touched.
public enum LimitTrim {
    /// The ranges to delete (last first, so each stays valid after the previous cut), or
    /// none when the text is within the limit or nothing inserted can be cut.
    public static func cuts(in document: TextDocument, inserted: [Range<Int>],
                            limit: Int, unit: CountUnit) -> [Range<Int>] {
        var document = document
        var cuts: [Range<Int>] = []
        for range in inserted.reversed() {
            guard document.count(in: unit) > limit else { break }
            guard let cut = cut(in: document, within: range, limit: limit, unit: unit) else { continue }
            cuts.append(cut)
            document.replace(scalars: cut, with: "")
        }
        return cuts
    }

    /// The smallest tail of `range`, on grapheme boundaries, whose removal brings the
    /// document within `limit` — or all of `range` that can be cut when that is not enough.
    static func cut(in document: TextDocument, within range: Range<Int>,
                    limit: Int, unit: CountUnit) -> Range<Int>? {
        // Only whole graphemes inside the insertion: a combining mark inserted after a
        // letter joined that letter's grapheme, which started before the insertion.
        let firstGrapheme = document.isGraphemeBoundary(scalar: range.lowerBound)
            ? document.graphemeOffset(ofScalar: range.lowerBound)
            : document.graphemeOffset(ofScalar: range.lowerBound) + 1
        let endGrapheme = document.graphemeOffset(ofScalar: range.upperBound)
        guard firstGrapheme < endGrapheme else { return nil }
        let end = document.scalarOffset(ofGrapheme: endGrapheme)

        func countWithout(fromGrapheme grapheme: Int) -> Int {
            var trimmed = document
            trimmed.replace(scalars: document.scalarOffset(ofGrapheme: grapheme)..<end, with: "")
            return trimmed.count(in: unit)
        }
        // Keeping more graphemes never makes the text shorter: binary search the last
        // grapheme to keep, so a 1 MB paste costs O(log n) trials, not one per grapheme.
        var low = firstGrapheme, high = endGrapheme  // answer in low...high
        guard countWithout(fromGrapheme: low) <= limit else {
            return document.scalarOffset(ofGrapheme: firstGrapheme)..<end
        }
        while low < high {
            let middle = (low + high + 1) / 2
            if countWithout(fromGrapheme: middle) <= limit { low = middle } else { high = middle - 1 }
        }
        guard low < endGrapheme else { return nil }
        return document.scalarOffset(ofGrapheme: low)..<end
    }
}
