/// What a search remembers so that the next, longer query re-filters instead of starting over.
public struct FuzzySearchState {
    /// The folded query this state belongs to.
    public let query: [UInt32]
    /// The matcher that made it (a state is ignored by any other).
    private(set) weak var matcher: FuzzyMatcher?
    let headRange: Range<Int>
    let wordRange: Range<Int>
    /// Every candidate matching `query` (any tier), ascending; nil when the search did not
    /// score every candidate (enough prefix and word-start matches, or the full scan skipped
    /// candidates that could not enter): the next search then starts from the ranges.
    let allMatches: [UInt32]?

    /// Whether a search for `folded` may start from this state.
    func isExtended(by folded: [UInt32]) -> Bool {
        folded.count >= query.count && folded.starts(with: query)
    }
}
