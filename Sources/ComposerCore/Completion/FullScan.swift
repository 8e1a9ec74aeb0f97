/// The state of `FuzzyMatcher.scanAll`. Candidates come in tie-break order, so a candidate
/// must score more than the worst of a full list to enter it: one whose summary bounds its
/// score to no more is skipped without reading its text, and once the list is full of
/// `FuzzyScore.insideWord` matches (contiguous, the most a candidate not taken by the index
/// can score) the scan stops. A value type, so that the loop's updates need no run-time exclusivity checks.
struct FullScan {
    /// Candidates per block: their summaries and texts are fetched together.
    static let blockSize = 1024

    let limit: Int
    let excluding: Set<Int>
    let scorer: Scorer
    let order: UnsafeBufferPointer<UInt32>
    var best: SmallestK
    var matches: [UInt32] = []
    /// Whether a candidate was skipped unscored (then `matches` is incomplete).
    var skipped = false
    /// Where the prefetching loads go, so that they are not optimized away.
    var sink: UInt64 = 0

    init(limit: Int, excluding: Set<Int>, scorer: Scorer, order: UnsafeBufferPointer<UInt32>) {
        self.limit = limit
        self.excluding = excluding
        self.scorer = scorer
        self.order = order
        best = SmallestK(capacity: limit)
    }

    /// The worst score in the list when it is full (a candidate needs more), else 0.
    @inline(__always)
    private var threshold: Int {
        best.isFull ? FuzzyMatcher.score(ofRankKey: best.values[limit - 1]) : 0
    }

    /// The most `summary`'s candidate can score.
    @inline(__always)
    private func bound(_ summary: CandidateSummary) -> Int {
        scorer.contiguousPossible(summary) ? FuzzyScore.insideWord : scorer.scatteredBound(summary)
    }

    /// Loads the summaries of `candidates`, then the texts of those that may still enter,
    /// in tight loops of independent loads: the memory system fetches them in parallel,
    /// where scoring one candidate after another would wait for each in turn. This halves
    /// the time of a scattered query, which reads thousands of scattered candidates.
    mutating func prefetch(_ candidates: UnsafeBufferPointer<Int32>) {
        var sink: UInt64 = 0
        for candidate in candidates { sink &+= scorer.summaries[Int(candidate)].initials }
        let threshold = threshold
        for candidate in candidates {
            let summary = scorer.summaries[Int(candidate)]
            guard bound(summary) > threshold else { continue }
            var position = Int(summary.textStart)
            while position < Int(summary.textEnd) {
                sink &+= UInt64(scorer.text[position])
                position += 16  // one 64-byte line of UInt32
            }
        }
        self.sink &+= sink
    }

    /// Scores one candidate whose mask passed; false once no later candidate can enter.
    @inline(__always)
    mutating func visit(_ candidate: Int) -> Bool {
        let summary = scorer.summaries[candidate]
        let taken = !excluding.isEmpty && excluding.contains(candidate)
        if best.isFull {
            let threshold = threshold
            if threshold >= FuzzyScore.insideWord {
                skipped = true
                return false
            }
            if taken || bound(summary) <= threshold {
                skipped = true
                return true
            }
        }
        let score = scorer.bestScore(summary, contiguous: scorer.contiguousPossible(summary))
        guard score > 0 else { return true }
        matches.append(UInt32(candidate))
        if !taken { best.insert(FuzzyMatcher.rankKey(score: score, order: order[candidate])) }
        return true
    }
}
