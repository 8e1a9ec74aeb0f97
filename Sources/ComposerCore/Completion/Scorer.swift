/// Scores keys against one query. Its pointers are valid only inside
/// `FuzzyMatcher.withScorer`, which is why it is a plain struct of pointers and not a copy
/// of the matcher's arrays: the full scan calls it for many candidates, and nothing in it
/// allocates. A key is given as its buffer range: `start`, and `end`, where its 0 is.
struct Scorer {
    /// The matcher's folded keys (each followed by 0).
    let text: UnsafeBufferPointer<UInt32>
    let query: UnsafeBufferPointer<UInt32>
    /// `FuzzyMatcher.maskBit` of each query character.
    let queryBits: UnsafeBufferPointer<UInt64>
    /// The query's adjacent pairs, as a set (`pairsLow`, `pairsHigh`) and one by one
    /// (`pairIndices[i]`: the pair ending at character i; entry 0 unused).
    let queryPairs: CandidateSummary
    let pairIndices: UnsafeBufferPointer<UInt32>
    let summaries: UnsafeBufferPointer<CandidateSummary>
    /// `query.count` rows of `width` for the alignment table, then the earliest and the
    /// latest position of each query character.
    let scratch: UnsafeMutablePointer<Int32>
    let width: Int

    /// Far below any real alignment score (at least −15 per query character).
    private static let impossible: Int32 = -1 << 24
    private static let separator = TextFolding.separator

    /// The scattered adjustments of `FuzzyScore`, in the alignment table's type.
    private static let wordStart = Int32(FuzzyScore.wordStart)
    private static let vowelGap = Int32(FuzzyScore.vowelGap)
    private static let consonantGap = Int32(FuzzyScore.consonantGap)
    private static let nextWordGap = Int32(FuzzyScore.nextWordGap)
    private static let midWordJump = Int32(FuzzyScore.midWordJump)
    private static let lateStart = Int32(FuzzyScore.lateStart)

    func bestScore(_ candidate: Int) -> Int {
        let summary = summaries[candidate]
        return bestScore(summary, contiguous: contiguousPossible(summary))
    }

    /// The candidate's score: the best over its keys; 0 when none matches. Contiguous
    /// matches (`FuzzyScore.insideWord` and up) beat every scattered one, so alignments are
    /// only computed when no key has the query as a whole; `contiguous` false says none can.
    @inline(__always)
    func bestScore(_ summary: CandidateSummary, contiguous: Bool) -> Int {
        let textEnd = Int(summary.textEnd)
        var best = 0
        if contiguous {
            var start = Int(summary.textStart)
            while start < textEnd {
                let found = self.contiguous(start)
                best = max(best, found.score)
                start = found.end + 1
            }
            if best > 0 { return best }
        }
        var start = Int(summary.textStart)
        while start < textEnd {
            var end = start
            while text[end] != 0 { end += 1 }
            best = max(best, scattered(start, end))
            start = end + 1
        }
        return best
    }

    /// Whether the candidate's keys may hold the query contiguously: every adjacent pair
    /// of query characters is adjacent somewhere (always, for one character).
    @inline(__always)
    func contiguousPossible(_ summary: CandidateSummary) -> Bool {
        summary.pairsLow & queryPairs.pairsLow == queryPairs.pairsLow
            && summary.pairsHigh & queryPairs.pairsHigh == queryPairs.pairsHigh
    }

    /// The most a scattered match in the candidate can score (see `CandidateSummary`).
    @inline(__always)
    func scatteredBound(_ summary: CandidateSummary) -> Int {
        var adjustment = 0
        for index in 0..<query.count {
            let initial = summary.initials & queryBits[index] != 0
            if index == 0 {
                adjustment += query[0] == Self.separator ? 0 : (initial ? FuzzyScore.wordStart : -FuzzyScore.lateStart)
            } else if query[index - 1] == Self.separator {
                adjustment += initial ? FuzzyScore.wordStart : 0
            } else if initial {
                adjustment += FuzzyScore.wordStart - FuzzyScore.nextWordGap
            } else if !summary.hasPair(index: pairIndices[index]) {
                adjustment -= FuzzyScore.vowelGap
            }
        }
        return FuzzyScore.scattered(adjustment)
    }

    /// The folded ranges (relative to the key) to highlight when the key scores `score`;
    /// nil when it scores something else.
    func positions(_ start: Int, _ end: Int, scoring score: Int) -> [Range<Int>]? {
        let contiguous = contiguous(start)
        if contiguous.score > 0 {
            guard contiguous.score == score else { return nil }
            let relative = contiguous.position - start
            return [relative..<relative + query.count]
        }
        guard scattered(start, end) == score else { return nil }
        var result: [Range<Int>] = []
        for position in alignment(start) {
            let relative = position - start
            if let last = result.last, last.upperBound == relative {
                result[result.count - 1] = last.lowerBound..<relative + 1
            } else {
                result.append(relative..<relative + 1)
            }
        }
        return result
    }

    /// The contiguous tiers (`FuzzyScore.wholeKey` … `insideWord`; 0: the query does not
    /// occur as a whole), where the best occurrence starts, and where the key ends (its 0).
    @inline(__always)
    func contiguous(_ start: Int) -> (score: Int, position: Int, end: Int) {
        let length = query.count
        // The key's 0 never equals a query character, so this never reads past the key.
        @inline(__always) func matches(at position: Int) -> Bool {
            for index in 0..<length where text[position + index] != query[index] { return false }
            return true
        }
        /// What follows the occurrence at `position`: the key's end (0), a separator, or more text.
        @inline(__always) func following(_ position: Int) -> UInt32 { text[position + length] }
        if text[start] == 0 { return (0, 0, start) }  // an empty key
        var best = (score: 0, position: 0)
        if matches(at: start) {
            let next = following(start)
            best = (next == 0 ? FuzzyScore.wholeKey : (next == Self.separator ? FuzzyScore.firstWord : FuzzyScore.keyPrefix),
                    start)
        }
        // Later word starts and inner occurrences (none scores more than `laterWord`).
        var position = start + 1
        let first = query[0]
        while text[position] != 0 {
            if best.score < FuzzyScore.laterWord, text[position] == first, matches(at: position) {
                let wordStart = text[position - 1] == Self.separator && first != Self.separator
                var score = FuzzyScore.insideWord
                if wordStart {
                    let next = following(position)
                    score = next == 0 || next == Self.separator ? FuzzyScore.laterWord : FuzzyScore.laterWordPrefix
                }
                if score > best.score { best = (score, position) }
            }
            position += 1
        }
        return (best.score, best.position, position)
    }

    @inline(__always)
    private static func isVowel(_ value: UInt32) -> Bool {
        switch value {
        case 0x61, 0x65, 0x69, 0x6F, 0x75: return true  // a e i o u
        default: return false
        }
    }

    @inline(__always)
    private func isWordStart(_ position: Int, keyStart: Int) -> Bool {
        text[position] != Self.separator && (position == keyStart || text[position - 1] == Self.separator)
    }

    /// The score of the best scattered alignment of the query in the key (see
    /// `FuzzyMatcher`: `FuzzyScore.scatteredRange`), or 0 when the query's characters do
    /// not occur in order.
    /// Leaves what `alignment(_:)` needs in the scratch memory.
    ///
    /// Row `i` of the table holds, per position where query character `i` can be, the best
    /// partial score of an alignment of characters 0…i ending there. The gap penalty depends
    /// only on whether the skipped text holds a separator or a consonant, so each row is one
    /// pass that keeps the best earlier entry per kind of gap (`acrossWords`, `withinWord`,
    /// `vowelsOnly`) instead of trying every earlier position. Rows are computed only
    /// between the earliest (greedy from the left) and latest (greedy from the right) place
    /// of each character; when those are equal for every character there is one alignment,
    /// scored without the table.
    func scattered(_ start: Int, _ end: Int) -> Int {
        let count = query.count
        guard count <= end - start else { return 0 }  // also keeps `scratch` in bounds
        let earliest = scratch + count * width, latest = earliest + count
        var position = start
        for index in 0..<count {
            let value = query[index]
            while position < end, text[position] != value { position += 1 }
            if position == end { return 0 }
            earliest[index] = Int32(position)
            position += 1
        }
        position = end - 1
        for index in stride(from: count - 1, through: 0, by: -1) {
            let value = query[index]
            while text[position] != value { position -= 1 }
            latest[index] = Int32(position)
            position -= 1
        }
        if isForced(count, earliest, latest) {
            var adjustment = Int(earliest[0]) > start ? -FuzzyScore.lateStart : 0
            for index in 0..<count {
                let position = Int(earliest[index])
                let wordStart = isWordStart(position, keyStart: start)
                if wordStart { adjustment += FuzzyScore.wordStart }
                if index > 0 { adjustment -= Int(gapPenalty(from: Int(earliest[index - 1]), to: position, wordStart: wordStart)) }
            }
            return FuzzyScore.scattered(adjustment)
        }
        let impossible = Self.impossible
        // Row 0: where the alignment starts.
        for position in Int(earliest[0])...Int(latest[0]) {
            guard text[position] == query[0] else {
                scratch[position - start] = impossible
                continue
            }
            scratch[position - start] = (isWordStart(position, keyStart: start) ? Self.wordStart : 0)
                - (position > start ? Self.lateStart : 0)
        }
        for index in 1..<max(1, count) {
            let previousRow = scratch + (index - 1) * width, row = scratch + index * width
            let previousLatest = Int(latest[index - 1]), rowEarliest = Int(earliest[index])
            let value = query[index]
            // The best entry of the previous row whose gap to here crosses a separator, holds
            // a consonant but no separator, or only vowels (the entry just before is apart).
            var acrossWords = impossible, withinWord = impossible, vowelsOnly = impossible
            for position in Int(earliest[index - 1]) + 1...Int(latest[index]) {
                let before = position - 1 <= previousLatest ? previousRow[position - 1 - start] : impossible
                let here = text[position]
                if position >= rowEarliest, here == value {
                    let wordStart = isWordStart(position, keyStart: start)
                    let best = max(before, vowelsOnly - Self.vowelGap, withinWord - Self.consonantGap,
                                   acrossWords - (wordStart ? Self.nextWordGap : Self.midWordJump))
                    row[position - start] = best < impossible / 2 ? impossible : best + (wordStart ? Self.wordStart : 0)
                } else {
                    row[position - start] = impossible
                }
                // Move on: `before` becomes an entry with a gap, of the kind `here` makes.
                if here == Self.separator {
                    acrossWords = max(acrossWords, withinWord, vowelsOnly, before)
                    withinWord = impossible
                    vowelsOnly = impossible
                } else if Self.isVowel(here) {
                    vowelsOnly = max(vowelsOnly, before)
                } else {
                    withinWord = max(withinWord, vowelsOnly, before)
                    vowelsOnly = impossible
                }
            }
        }
        let last = scratch + (count - 1) * width
        var best = impossible
        for position in Int(earliest[count - 1])...Int(latest[count - 1]) { best = max(best, last[position - start]) }
        return FuzzyScore.scattered(Int(best))
    }

    /// Whether each query character has one place only (its earliest is its latest): then
    /// there is one alignment, scored directly, and the table is not needed. Typical for a
    /// consonant skeleton (`tnk` in `tanaka`).
    @inline(__always)
    private func isForced(_ count: Int, _ earliest: UnsafeMutablePointer<Int32>, _ latest: UnsafeMutablePointer<Int32>) -> Bool {
        for index in 0..<count where earliest[index] != latest[index] { return false }
        return true
    }

    /// The positions of the alignment `scattered` just scored for the key starting at
    /// `start` (it must have matched): walked back from its leftmost best end, each step to
    /// the nearest entry that explains it.
    func alignment(_ start: Int) -> [Int] {
        let count = query.count
        let earliest = scratch + count * width, latest = earliest + count
        if isForced(count, earliest, latest) { return (0..<count).map { Int(earliest[$0]) } }
        let last = scratch + (count - 1) * width
        var position = Int(earliest[count - 1])
        for candidate in Int(earliest[count - 1])...Int(latest[count - 1]) where last[candidate - start] > last[position - start] {
            position = candidate
        }
        var result = [position]
        for index in stride(from: count - 1, through: 1, by: -1) {
            let row = scratch + index * width, previousRow = scratch + (index - 1) * width
            let wordStart = isWordStart(position, keyStart: start)
            let target = row[position - start] - (wordStart ? Self.wordStart : 0)
            var before = min(position - 1, Int(latest[index - 1]))
            while before >= Int(earliest[index - 1]) {
                if previousRow[before - start] > Self.impossible / 2,
                   previousRow[before - start] - gapPenalty(from: before, to: position, wordStart: wordStart) == target {
                    break
                }
                before -= 1
            }
            assert(before >= Int(earliest[index - 1]), "an alignment entry without a predecessor")
            position = before
            result.append(position)
        }
        return result.reversed()
    }

    /// What skipping the text strictly between `from` and `to` costs (see `scattered`).
    private func gapPenalty(from: Int, to: Int, wordStart: Bool) -> Int32 {
        guard to > from + 1 else { return 0 }
        var consonant = false
        for position in from + 1..<to {
            if text[position] == Self.separator { return wordStart ? Self.nextWordGap : Self.midWordJump }
            if !Self.isVowel(text[position]) { consonant = true }
        }
        return consonant ? Self.consonantGap : Self.vowelGap
    }
}
