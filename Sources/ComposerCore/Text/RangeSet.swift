/// Set operations on sorted, disjoint scalar ranges: the tagged and the wanted text of the
/// overflow and highlight settle steps. Linear in the ranges, one array out: they run on
/// every keystroke.
enum RangeSet {
    static func union(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        return InsertedRanges.merged(a + b)
    }

    /// `a` without `b`.
    static func subtract(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
        guard !a.isEmpty, !b.isEmpty else { return a }
        var result: [Range<Int>] = []
        var cut = 0
        for range in a {
            var lower = range.lowerBound
            while cut < b.count, b[cut].upperBound <= lower { cut += 1 }
            var index = cut
            while index < b.count, b[index].lowerBound < range.upperBound {
                if b[index].lowerBound > lower { result.append(lower..<b[index].lowerBound) }
                lower = max(lower, b[index].upperBound)
                index += 1
            }
            if lower < range.upperBound { result.append(lower..<range.upperBound) }
        }
        return result
    }
}
