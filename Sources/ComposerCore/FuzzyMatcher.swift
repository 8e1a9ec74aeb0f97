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

/// What a search remembers so that the next, longer query re-filters instead of starting over.
public struct FuzzySearchState {
    /// The folded query this state belongs to.
    public let query: [UInt32]
    /// The matcher that made it (a state is ignored by any other).
    private(set) weak var matcher: FuzzyMatcher?
    let headRange: Range<Int>
    let wordRange: Range<Int>
    /// Every candidate matching `query` (any tier), ascending; nil when the search could stop
    /// early (enough prefix and word-start matches), which is when re-filtering is not needed.
    let allMatches: [UInt32]?

    /// Whether a search for `folded` may start from this state.
    func isExtended(by folded: [UInt32]) -> Bool {
        folded.count >= query.count && folded.starts(with: query)
    }
}

/// Fuzzy, ranked matching of typed queries against candidates with several keys each
/// (a person's display name, handle, reading and Latin form; an emoji's shortcodes,
/// names and keywords).
///
/// **Ranking.** Both query and keys are folded (`TextFolding`). A candidate's score is the
/// best over its keys:
///
/// | tier | score |
/// | --- | --- |
/// | the key is the query | 350 |
/// | the key starts with the query, which is a whole word of it (`tanaka` in `tanaka taro`) | 325 |
/// | the key starts with the query | 300 |
/// | a later word of the key is the query | 225 |
/// | a later word starts with the query | 200 |
/// | the query occurs inside a word (contiguous) | 100 |
/// | the query's characters occur in order (scattered) | 1…99 (more at word starts, fewer gaps) |
///
/// Among equal scores, recently accepted candidates come first (most recent first,
/// `setRecent(_:)`), then the order the candidates were given in.
///
/// **Speed.** Keys are folded once, at build time, into one flat buffer. Key starts and
/// word starts are sorted by the text that follows them, so the prefix and word-start
/// tiers are two binary searches and one scan of the matching range; only when those
/// give fewer than `limit` results is every candidate checked (a 64-bit character mask
/// rejects most without looking at their text). A longer query that extends the previous
/// one searches only inside the previous ranges, or only the previous matches.
public final class FuzzyMatcher {
    public let candidateCount: Int
    /// Original key texts, per candidate (for highlighting).
    private let keys: [[String]]

    /// Folded keys, each followed by 0; buffer[0] is 0 too, so `position - 1` is always valid.
    private let buffer: [UInt32]
    /// Start of each candidate's keys in `keyStarts` (candidateCount + 1 entries).
    private let firstKey: [Int32]
    /// Buffer position of every key, candidate by candidate.
    private let keyStarts: [Int32]
    /// A 64-bit mask of the folded characters of all of a candidate's keys.
    private let masks: [UInt64]
    /// Key starts, sorted by the folded text from there; with their candidates.
    private let heads: [Int32]
    private let headOwners: [Int32]
    /// Word starts after the first word, sorted likewise.
    private let words: [Int32]
    private let wordOwners: [Int32]
    /// Tie-break per candidate: recent rank (0…) or `recentLimit + candidate`.
    private var order: [UInt32]
    private var recentCandidates: [Int] = []
    /// At most this many recent candidates rank first among equal scores.
    public let recentLimit: Int

    /// - Parameter keys: per candidate, its searchable texts in tie-break order (the
    ///   one shown to the user first, so highlights land there when scores are equal).
    public init(keys: [[String]], recentLimit: Int = 64) {
        self.keys = keys
        self.candidateCount = keys.count
        self.recentLimit = max(0, recentLimit)
        var buffer: [UInt32] = [0]
        var firstKey: [Int32] = []
        var keyStarts: [Int32] = []
        var masks: [UInt64] = []
        var heads: [Int32] = []
        var headOwners: [Int32] = []
        var words: [Int32] = []
        var wordOwners: [Int32] = []
        firstKey.reserveCapacity(keys.count + 1)
        masks.reserveCapacity(keys.count)
        for (candidate, candidateKeys) in keys.enumerated() {
            firstKey.append(Int32(keyStarts.count))
            var mask: UInt64 = 0
            for key in candidateKeys {
                let start = buffer.count
                keyStarts.append(Int32(start))
                TextFolding.fold(key) { value, _, _ in buffer.append(value) }
                let end = buffer.count
                buffer.append(0)
                guard end > start else { continue }
                heads.append(Int32(start))
                headOwners.append(Int32(candidate))
                for position in start..<end {
                    let value = buffer[position]
                    mask |= Self.maskBit(value)
                    if position > start, value != TextFolding.separator, buffer[position - 1] == TextFolding.separator {
                        words.append(Int32(position))
                        wordOwners.append(Int32(candidate))
                    }
                }
            }
            masks.append(mask)
        }
        firstKey.append(Int32(keyStarts.count))
        self.buffer = buffer
        self.firstKey = firstKey
        self.keyStarts = keyStarts
        self.masks = masks
        (self.heads, self.headOwners) = Self.sortedBySuffix(heads, owners: headOwners, in: buffer)
        (self.words, self.wordOwners) = Self.sortedBySuffix(words, owners: wordOwners, in: buffer)
        let limit = UInt32(self.recentLimit)
        self.order = (0..<keys.count).map { limit + UInt32($0) }
    }

    /// The candidates accepted recently, most recent first: they rank first among equal
    /// scores. Indices outside the candidates and repeats are ignored; at most `recentLimit`.
    public func setRecent(_ candidates: [Int]) {
        let limit = UInt32(recentLimit)
        for candidate in recentCandidates { order[candidate] = limit + UInt32(candidate) }
        var seen = Set<Int>()
        recentCandidates = candidates.filter { $0 >= 0 && $0 < candidateCount && seen.insert($0).inserted }
        recentCandidates = Array(recentCandidates.prefix(recentLimit))
        for (rank, candidate) in recentCandidates.enumerated() { order[candidate] = UInt32(rank) }
    }

    /// The best `limit` matches for `query`, best first, and the state for a next search.
    /// Pass the previous state when the user extended the query: the result is the same
    /// as a fresh search, found faster.
    public func search(_ query: String, limit: Int, previous: FuzzySearchState? = nil) -> (matches: [FuzzyMatch], state: FuzzySearchState) {
        let folded = TextFolding.foldedScalars(query)
        let limit = max(0, limit)
        let previous = previous.flatMap { $0.matcher === self && $0.isExtended(by: folded) ? $0 : nil }
        if folded.isEmpty {
            let state = FuzzySearchState(query: folded, matcher: self, headRange: 0..<heads.count, wordRange: 0..<words.count,
                                         allMatches: nil)
            return (emptyQueryMatches(limit: limit), state)
        }
        if let all = previous?.allMatches {
            let (ranked, matches) = rankAll(all.lazy.map(Int.init), folded, limit: limit)
            return (details(ranked, folded), FuzzySearchState(query: folded, matcher: self, headRange: 0..<0, wordRange: 0..<0,
                                                               allMatches: matches))
        }
        let headRange = Self.prefixRange(of: folded, in: heads, within: previous?.headRange ?? 0..<heads.count,
                                         buffer: buffer)
        let wordRange = Self.prefixRange(of: folded, in: words, within: previous?.wordRange ?? 0..<words.count,
                                         buffer: buffer)
        var ranked: [(candidate: Int, score: Int)] = []
        var taken = Set<Int>()
        // Tiers 350, 325, 300 from key starts; then 225, 200 from later word starts.
        // A class per score: what follows the match is the key's end, a separator, or more text.
        for (entries, owners, range, classOf, scores) in [
            (heads, headOwners, headRange, (0, 1, 2), [350, 325, 300]),
            (words, wordOwners, wordRange, (0, 0, 1), [225, 200]),
        ] {
            guard ranked.count < limit else { break }
            let best = bestByClass(folded, entries: entries, owners: owners, range: range, classOf: classOf,
                                   count: scores.count, limit: limit)
            for (classIndex, candidates) in best.enumerated() {
                for candidate in candidates where ranked.count < limit && !taken.contains(candidate) {
                    taken.insert(candidate)
                    ranked.append((candidate, scores[classIndex]))
                }
            }
        }
        var allMatches: [UInt32]?
        if ranked.count < limit {
            // Fewer than `limit` prefix/word-start matches: check every candidate.
            let (rest, matches) = rankAll(0..<candidateCount, folded, limit: limit, excluding: taken)
            ranked += rest.prefix(limit - ranked.count)
            allMatches = matches
        }
        let state = FuzzySearchState(query: folded, matcher: self, headRange: headRange, wordRange: wordRange, allMatches: allMatches)
        return (details(ranked, folded), state)
    }

    /// Scores one candidate against a query (the same scores `search` ranks by); nil if no key matches.
    public func match(candidate: Int, query: String) -> FuzzyMatch? {
        guard candidate >= 0, candidate < candidateCount else { return nil }
        let folded = TextFolding.foldedScalars(query)
        if folded.isEmpty { return FuzzyMatch(candidate: candidate, score: 0, key: 0, ranges: []) }
        let score = buffer.withUnsafeBufferPointer { text in
            folded.withUnsafeBufferPointer { query in bestScore(candidate, query, text) }
        }
        guard let score else { return nil }
        return details([(candidate, score)], folded).first
    }

    // MARK: - Empty query

    private func emptyQueryMatches(limit: Int) -> [FuzzyMatch] {
        var result = recentCandidates.prefix(limit).map { FuzzyMatch(candidate: $0, score: 0, key: 0, ranges: []) }
        let recent = Set(recentCandidates)
        var candidate = 0
        while result.count < limit, candidate < candidateCount {
            if !recent.contains(candidate) { result.append(FuzzyMatch(candidate: candidate, score: 0, key: 0, ranges: [])) }
            candidate += 1
        }
        return result
    }

    // MARK: - Sorted starts

    private static func maskBit(_ value: UInt32) -> UInt64 {
        1 << UInt64((value &* 0x9E37_79B1) >> 26)
    }

    private static func sortedBySuffix(_ positions: [Int32], owners: [Int32], in buffer: [UInt32]) -> ([Int32], [Int32]) {
        var permutation = Array(positions.indices)
        buffer.withUnsafeBufferPointer { text in
            positions.withUnsafeBufferPointer { starts in
                permutation.sort { left, right in
                    var a = Int(starts[left]), b = Int(starts[right])
                    while true {
                        let x = text[a], y = text[b]
                        if x != y { return x < y }
                        if x == 0 { return left < right }  // equal texts: keep candidate order
                        a += 1
                        b += 1
                    }
                }
            }
        }
        return (permutation.map { positions[$0] }, permutation.map { owners[$0] })
    }

    /// The entries in `within` whose text starts with `query` (entries are sorted by text).
    private static func prefixRange(of query: [UInt32], in entries: [Int32], within: Range<Int>, buffer: [UInt32]) -> Range<Int> {
        buffer.withUnsafeBufferPointer { text in
            query.withUnsafeBufferPointer { query in
                entries.withUnsafeBufferPointer { entries in
                    /// -1: the entry's text sorts before every text starting with `query`;
                    /// 0: it starts with `query`; 1: after.
                    func compare(_ entry: Int) -> Int {
                        var position = Int(entries[entry])
                        for value in query {
                            let x = text[position]
                            if x != value { return x < value ? -1 : 1 }
                            position += 1
                        }
                        return 0
                    }
                    func partition(_ isBefore: (Int) -> Bool) -> Int {
                        var low = within.lowerBound, high = within.upperBound
                        while low < high {
                            let middle = (low + high) / 2
                            if isBefore(middle) { low = middle + 1 } else { high = middle }
                        }
                        return low
                    }
                    let lower = partition { compare($0) < 0 }
                    let upper = partition { compare($0) <= 0 }
                    return lower..<max(lower, upper)
                }
            }
        }
    }

    /// For the entries in `range` (all start with `query`), the best `limit` distinct
    /// candidates (by tie-break order) of each class; `classOf` gives the class by what
    /// follows the query: the key's end, a separator, or more text.
    private func bestByClass(_ query: [UInt32], entries: [Int32], owners: [Int32], range: Range<Int>,
                             classOf: (end: Int, separator: Int, other: Int), count: Int, limit: Int) -> [[Int]] {
        var classes = Array(repeating: SmallestK(capacity: limit), count: count)
        let length = query.count
        buffer.withUnsafeBufferPointer { text in
            entries.withUnsafeBufferPointer { entries in
                owners.withUnsafeBufferPointer { owners in
                    order.withUnsafeBufferPointer { order in
                        for entry in range {
                            let next = text[Int(entries[entry]) + length]
                            let classIndex = next == 0 ? classOf.end
                                : (next == TextFolding.separator ? classOf.separator : classOf.other)
                            let candidate = UInt32(owners[entry])
                            classes[classIndex].insert(UInt64(order[Int(candidate)]) << 32 | UInt64(candidate))
                        }
                    }
                }
            }
        }
        return classes.map { $0.values.map { Int($0 & 0xFFFF_FFFF) } }
    }

    // MARK: - Per-candidate scoring

    /// Scores `candidates`; returns the best `limit` (by score, then tie-break order)
    /// and every candidate that matched, ascending.
    private func rankAll(_ candidates: some Sequence<Int>, _ query: [UInt32], limit: Int,
                         excluding: Set<Int> = []) -> (ranked: [(candidate: Int, score: Int)], matches: [UInt32]) {
        var queryMask: UInt64 = 0
        for value in query { queryMask |= Self.maskBit(value) }
        var matches: [UInt32] = []
        var best = SmallestK(capacity: limit)
        buffer.withUnsafeBufferPointer { text in
            query.withUnsafeBufferPointer { query in
                masks.withUnsafeBufferPointer { masks in
                    for candidate in candidates {
                        guard masks[candidate] & queryMask == queryMask,
                              let score = bestScore(candidate, query, text) else { continue }
                        matches.append(UInt32(candidate))
                        if excluding.isEmpty || !excluding.contains(candidate) {
                            best.insert(UInt64(1023 - score) << 40 | UInt64(order[candidate]))
                        }
                    }
                }
            }
        }
        let ranked = best.values.map { value -> (candidate: Int, score: Int) in
            let rank = Int(value & 0xFF_FFFF_FFFF)
            let candidate = rank < recentLimit ? recentCandidates[rank] : rank - recentLimit
            return (candidate, 1023 - Int(value >> 40))
        }
        return (ranked, matches)
    }

    private func bestScore(_ candidate: Int, _ query: UnsafeBufferPointer<UInt32>, _ text: UnsafeBufferPointer<UInt32>) -> Int? {
        var best = 0
        for key in Int(firstKey[candidate])..<Int(firstKey[candidate + 1]) {
            let score = Self.score(text, at: Int(keyStarts[key]), query).score
            if score > best { best = score }
        }
        return best > 0 ? best : nil
    }

    /// The score of the folded key starting at `start` (0: no match) and, for contiguous
    /// tiers, where the match starts.
    @inline(__always)
    private static func score(_ text: UnsafeBufferPointer<UInt32>, at start: Int, _ query: UnsafeBufferPointer<UInt32>) -> (score: Int, position: Int) {
        let separator = TextFolding.separator
        let length = query.count
        @inline(__always) func matches(at position: Int) -> Bool {
            for index in 0..<length where text[position + index] != query[index] { return false }
            return true
        }
        @inline(__always) func bonus(after position: Int) -> Int {
            let next = text[position + length]
            return next == 0 ? 50 : (next == separator ? 25 : 0)
        }
        if text[start] == 0 { return (0, 0) }  // an empty key
        if matches(at: start) { return (300 + bonus(after: start), start) }
        // Later word starts and inner occurrences.
        var best = (score: 0, position: 0)
        var position = start + 1
        let first = query[0]
        while text[position] != 0 {
            if text[position] == first, matches(at: position) {
                let wordStart = text[position - 1] == separator && first != separator
                let score = wordStart ? 200 + (bonus(after: position) == 0 ? 0 : 25) : 100
                if score > best.score { best = (score, position) }
                if score == 225 { break }
            }
            position += 1
        }
        if best.score > 0 { return best }
        // Scattered: the query's characters in order, taken greedily.
        var wordStartHits = 0, runs = 0, index = 0
        var previous = -2
        var firstPosition = -1
        position = start
        while index < length, text[position] != 0 {
            if text[position] == query[index] {
                if position == start || text[position - 1] == separator { wordStartHits += 1 }
                if position != previous + 1 { runs += 1 }
                if firstPosition < 0 { firstPosition = position }
                previous = position
                index += 1
            }
            position += 1
        }
        guard index == length else { return (0, 0) }
        let score = 60 + 8 * wordStartHits - 4 * (runs - 1) - (firstPosition > start ? 5 : 0)
        return (min(99, max(1, score)), firstPosition)
    }

    /// The folded positions (relative to the key) of the matched characters, for a key
    /// that scored `score`.
    private static func positions(_ text: UnsafeBufferPointer<UInt32>, at start: Int, _ query: UnsafeBufferPointer<UInt32>,
                                  scored: (score: Int, position: Int)) -> [Range<Int>] {
        if scored.score >= 100 {
            let relative = scored.position - start
            return [relative..<relative + query.count]
        }
        var result: [Range<Int>] = []
        var index = 0
        var position = start
        while index < query.count, text[position] != 0 {
            if text[position] == query[index] {
                let relative = position - start
                if let last = result.last, last.upperBound == relative {
                    result[result.count - 1] = last.lowerBound..<relative + 1
                } else {
                    result.append(relative..<relative + 1)
                }
                index += 1
            }
            position += 1
        }
        return result
    }

    /// Matches with the best key and the highlight ranges in its original text.
    private func details(_ ranked: [(candidate: Int, score: Int)], _ query: [UInt32]) -> [FuzzyMatch] {
        buffer.withUnsafeBufferPointer { text in
            query.withUnsafeBufferPointer { query in
                ranked.map { candidate, score in
                    for (offset, key) in (Int(firstKey[candidate])..<Int(firstKey[candidate + 1])).enumerated() {
                        let start = Int(keyStarts[key])
                        let scored = Self.score(text, at: start, query)
                        guard scored.score == score else { continue }
                        let folded = TextFolding.foldWithSources(keys[candidate][offset])
                        let positions = Self.positions(text, at: start, query, scored: scored)
                        return FuzzyMatch(candidate: candidate, score: score, key: offset,
                                          ranges: folded.originalRanges(ofFolded: positions))
                    }
                    return FuzzyMatch(candidate: candidate, score: score, key: 0, ranges: [])
                }
            }
        }
    }
}

/// The `capacity` smallest distinct values seen, ascending.
struct SmallestK {
    let capacity: Int
    private(set) var values: [UInt64] = []

    init(capacity: Int) {
        self.capacity = capacity
        values.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func insert(_ value: UInt64) {
        if values.count == capacity {
            guard let last = values.last, value < last else { return }
        }
        var index = values.count
        while index > 0, values[index - 1] > value { index -= 1 }
        if index > 0, values[index - 1] == value { return }
        if values.count == capacity { values.removeLast() }
        values.insert(value, at: index)
    }
}
