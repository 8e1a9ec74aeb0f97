/// One match of a query against a candidate: its score, the key that matched best, and
/// where (scalar ranges in that key's original text, for highlighting).
public struct FuzzyMatch: Equatable, Sendable {
    /// Index of the candidate in the list the matcher was built from.
    public var candidate: Int
    public var score: Int
    /// Which of the candidate's keys matched best (the first one, on equal scores).
    public var key: Int
    /// Matched scalar ranges in the original (unfolded) key text, sorted, not touching.
    public var ranges: [Range<Int>]

    public init(candidate: Int, score: Int, key: Int, ranges: [Range<Int>]) {
        self.candidate = candidate
        self.score = score
        self.key = key
        self.ranges = ranges
    }
}
