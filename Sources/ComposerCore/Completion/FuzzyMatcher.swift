/// Fuzzy, ranked matching of typed queries against candidates with several keys each
/// (a person's display name, handle, reading and Latin form; an emoji's shortcodes,
/// names and keywords).
///
/// **Ranking.** Both query and keys are folded (`TextFolding`). A candidate's score is the
/// best over its keys (the scores are named in `FuzzyScore`, with why each is what it is):
///
/// | tier | score | `FuzzyScore` |
/// | --- | --- | --- |
/// | the key is the query | 350 | `wholeKey` |
/// | the key starts with the query, which is a whole word of it (`tanaka` in `tanaka taro`) | 325 | `firstWord` |
/// | the key starts with the query | 300 | `keyPrefix` |
/// | a later word of the key is the query | 225 | `laterWord` |
/// | a later word starts with the query | 200 | `laterWordPrefix` |
/// | the query occurs inside a word (contiguous) | 100 | `insideWord` |
/// | the query's characters occur in order (scattered) | 1…99 (see below) | `scatteredRange` |
///
/// A scattered match is scored by its best alignment (not the first one found), so that
/// what a person means by a scattered query wins: initials (`jn` → **J**an **N**ovák) and
/// consonant skeletons (`tnk` → **t**a**n**a**k**a). From 60 (`scatteredBase`): +8 per
/// character at a word start (`wordStart`); per gap between two matched characters −1
/// when it skips only vowels inside a word (`a` in t·a·n; `vowelGap`), −6 when it skips a
/// consonant (`consonantGap`) or goes on at a later word's start (`nextWordGap`), and −10
/// when it jumps into the middle of a later word (`tnk` in **T**ereza Va**nk**ová;
/// `midWordJump`); −5 when the first character is not at the key's start (`lateStart`).
/// Clamped to 1…99. So a skeleton inside one word (`nvtn` → **n**o**v**o**t**ná) beats
/// word starts found by skipping consonants (**n**a**v**ra**t**ilová **n**aďa), and
/// initials (`jn`) beat a skeleton.
///
/// Among equal scores, recently accepted candidates come first (most recent first,
/// `setRecent(_:)`), then the order the candidates were given in.
///
/// **Speed.** Keys are folded once, at build time, into one flat buffer. Key starts and
/// word starts are sorted by the text that follows them, so the prefix and word-start
/// tiers are two binary searches and one scan of the matching range; only when those
/// give fewer than `limit` results is every candidate checked. That full scan is what a
/// mid-word, scattered or no-match query costs (at 100,000 people its memory traffic, not
/// its arithmetic, is the cost), so it reads as little as it can:
/// - a 64-bit character mask per candidate rejects most (Latin letters and digits have a
///   bit each, so for Latin queries it is exact);
/// - then a 32-byte summary (`CandidateSummary`) tells whether a contiguous match is
///   possible at all and bounds the scattered score. Candidates come in tie-break order,
///   so once `limit` results are held, one that cannot beat the worst is skipped without
///   reading its text, and the scan stops when the results are all contiguous matches;
/// - summaries and texts are fetched a block of candidates at a time, so their cache
///   misses overlap instead of queueing one after another;
/// - a scattered alignment is scored directly when each character has one possible place,
///   else with a one-pass-per-character table limited to the places each can take.
///
/// A longer query that extends the previous one searches only inside the previous ranges,
/// or only the previous matches (when the previous scan read every candidate).
public final class FuzzyMatcher {
    public let candidateCount: Int
    /// Original key texts, candidate by candidate (for highlighting, and for the rows that
    /// show the key that matched): key `k` is `originals[k]`.
    private let originals: PackedStrings

    /// Folded keys, each followed by 0; buffer[0] is 0 too, so `position - 1` is always valid.
    private let buffer: [UInt32]
    /// Start of each candidate's keys in `keyStarts` (candidateCount + 1 entries).
    private let firstKey: [Int32]
    /// Buffer position of every key, candidate by candidate, then `buffer.count`: key `k`
    /// ends (its 0) at `keyStarts[k + 1] - 1`.
    private let keyStarts: [Int32]
    /// A 64-bit mask of the folded characters of all of a candidate's keys (`maskBit`).
    private let masks: [UInt64]
    /// Per candidate, what the full scan reads before any text (see `CandidateSummary`).
    private let summaries: [CandidateSummary]
    /// The longest folded key: the scattered tier's alignment table needs one row this wide.
    private let longestKey: Int
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
    public convenience init(keys: [[String]], recentLimit: Int = 64) {
        var originals = PackedStrings()
        var firstKey: [Int32] = []
        for candidateKeys in keys {
            firstKey.append(Int32(originals.count))
            for key in candidateKeys { originals.append(key) }
        }
        firstKey.append(Int32(originals.count))
        self.init(originals: originals, firstKey: firstKey, recentLimit: recentLimit)
    }

    /// - Parameters:
    ///   - originals: every candidate's keys, candidate by candidate, each candidate's in
    ///     tie-break order;
    ///   - firstKey: where each candidate's keys start in `originals`, then `originals.count`.
    init(originals: PackedStrings, firstKey: [Int32], recentLimit: Int = 64) {
        precondition(firstKey.last.map { Int($0) == originals.count } ?? false, "FuzzyMatcher: firstKey must end with the key count")
        self.originals = originals.compacted()
        self.candidateCount = firstKey.count - 1
        self.recentLimit = max(0, recentLimit)
        var buffer: [UInt32] = [0]
        var keyStarts: [Int32] = []
        var masks: [UInt64] = []
        var summaries: [CandidateSummary] = []
        var longestKey = 0
        var heads: [Int32] = []
        var headOwners: [Int32] = []
        var words: [Int32] = []
        var wordOwners: [Int32] = []
        keyStarts.reserveCapacity(originals.count + 1)
        masks.reserveCapacity(candidateCount)
        summaries.reserveCapacity(candidateCount)
        for candidate in 0..<candidateCount {
            var mask: UInt64 = 0
            var summary = CandidateSummary()
            summary.textStart = UInt32(buffer.count)
            for key in Int(firstKey[candidate])..<Int(firstKey[candidate + 1]) {
                let start = buffer.count
                keyStarts.append(Int32(start))
                TextFolding.fold(originals[key]) { value, _, _ in buffer.append(value) }
                let end = buffer.count
                buffer.append(0)
                longestKey = max(longestKey, end - start)
                guard end > start else { continue }
                heads.append(Int32(start))
                headOwners.append(Int32(candidate))
                for position in start..<end {
                    let value = buffer[position]
                    mask |= Self.maskBit(value)
                    let previous = buffer[position - 1]  // 0 at the key's start
                    if position > start { summary.addPair(previous, value) }
                    guard value != TextFolding.separator, position == start || previous == TextFolding.separator else { continue }
                    summary.initials |= Self.maskBit(value)
                    if position > start {
                        words.append(Int32(position))
                        wordOwners.append(Int32(candidate))
                    }
                }
            }
            summary.textEnd = UInt32(buffer.count)
            masks.append(mask)
            summaries.append(summary)
        }
        keyStarts.append(Int32(buffer.count))
        // Kept for the index's life: without the spare capacity appending left.
        self.buffer = buffer.compacted()
        self.firstKey = firstKey.compacted()
        self.keyStarts = keyStarts.compacted()
        self.masks = masks
        self.summaries = summaries
        self.longestKey = longestKey
        (self.heads, self.headOwners) = Self.sortedBySuffix(heads, owners: headOwners, in: buffer)
        (self.words, self.wordOwners) = Self.sortedBySuffix(words, owners: wordOwners, in: buffer)
        let limit = UInt32(self.recentLimit)
        self.order = (0..<candidateCount).map { limit + UInt32($0) }
    }

    /// How many keys the candidates have in all.
    public var keyCount: Int { originals.count }

    /// How many keys `candidate` has.
    public func keyCount(of candidate: Int) -> Int {
        Int(firstKey[candidate + 1] - firstKey[candidate])
    }

    /// The text of `candidate`'s key number `key`, as given.
    public func key(_ key: Int, of candidate: Int) -> String {
        originals[keyIndex(key, of: candidate)]
    }

    /// Where `candidate`'s key number `key` is among all keys.
    func keyIndex(_ key: Int, of candidate: Int) -> Int {
        precondition(key >= 0 && key < keyCount(of: candidate), "FuzzyMatcher: no key \(key) of candidate \(candidate)")
        return Int(firstKey[candidate]) + key
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
            let (ranked, matches) = rankAll(all, folded, limit: limit)
            return (details(ranked, folded), FuzzySearchState(query: folded, matcher: self, headRange: 0..<0, wordRange: 0..<0,
                                                               allMatches: matches))
        }
        let headRange = Self.prefixRange(of: folded, in: heads, within: previous?.headRange ?? 0..<heads.count,
                                         buffer: buffer)
        let wordRange = Self.prefixRange(of: folded, in: words, within: previous?.wordRange ?? 0..<words.count,
                                         buffer: buffer)
        var ranked: [(candidate: Int, score: Int)] = []
        var taken = Set<Int>()
        // The tiers from key starts (whole key, first word, prefix); then from later word
        // starts (whole word, prefix). A class per score: what follows the match is the
        // key's end, a separator, or more text.
        for (entries, owners, range, classOf, scores) in [
            (heads, headOwners, headRange, (0, 1, 2), [FuzzyScore.wholeKey, FuzzyScore.firstWord, FuzzyScore.keyPrefix]),
            (words, wordOwners, wordRange, (0, 0, 1), [FuzzyScore.laterWord, FuzzyScore.laterWordPrefix]),
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
            // Fewer than `limit` prefix/word-start matches, so every candidate scoring
            // `laterWordPrefix` or more is taken: check the others, which score `insideWord`
            // at most.
            let (rest, matches) = scanAll(folded, limit: limit - ranked.count, excluding: taken)
            ranked += rest
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
        let score = withScorer(folded) { scorer in scorer.bestScore(candidate) }
        guard score > 0 else { return nil }
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

    /// The mask bit of a folded character: `a`…`z` bits 0–25, `0`…`9` bits 26–35, the
    /// separator bit 36, anything else one of bits 37–63 by hash. Dedicated bits keep the
    /// mask exact for Latin queries: hashing every character into all 64 bits would let
    /// Japanese candidates, with their many distinct kanji and kana, pass Latin queries.
    static func maskBit(_ value: UInt32) -> UInt64 {
        switch value {
        case 0x61...0x7A: return 1 << UInt64(value - 0x61)
        case 0x30...0x39: return 1 << UInt64(value - 0x30 + 26)
        case TextFolding.separator: return 1 << 36
        default: return 1 << UInt64(37 + ((value &* 0x9E37_79B1) >> 16) % 27)
        }
    }

    /// The mask a candidate must contain (all of it) to possibly match `query`.
    static func mask(of query: [UInt32]) -> UInt64 {
        query.reduce(0) { $0 | maskBit($1) }
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

    /// A rank key holds `rankCeiling - score` above bit 40, so that smaller keys rank first:
    /// every score (at most `FuzzyScore.wholeKey`) is below it.
    private static let rankCeiling = 1023

    /// The key a best-`limit` list is ordered by: higher score first, then tie-break order.
    @inline(__always)
    static func rankKey(score: Int, order: UInt32) -> UInt64 {
        UInt64(rankCeiling - score) << 40 | UInt64(order)
    }

    /// The score `rankKey` was made from.
    @inline(__always)
    static func score(ofRankKey key: UInt64) -> Int {
        rankCeiling - Int(key >> 40)
    }

    private func ranked(_ best: SmallestK) -> [(candidate: Int, score: Int)] {
        best.values.map { value in
            let rank = Int(value & 0xFF_FFFF_FFFF)
            let candidate = rank < recentLimit ? recentCandidates[rank] : rank - recentLimit
            return (candidate, Self.score(ofRankKey: value))
        }
    }

    /// Runs `body` with a scorer for `query` (not empty) over this matcher's keys. The
    /// scorer's pointers, and its scratch memory (allocated here once, not per candidate),
    /// are valid only inside `body`.
    private func withScorer<Result>(_ query: [UInt32], _ body: (Scorer) -> Result) -> Result {
        let width = longestKey + 1
        let queryBits = query.map(Self.maskBit)
        var queryPairs = CandidateSummary()
        for index in query.indices.dropFirst() { queryPairs.addPair(query[index - 1], query[index]) }
        let pairIndices = query.indices.map { $0 == 0 ? 0 : CandidateSummary.pairIndex(query[$0 - 1], query[$0]) }
        return buffer.withUnsafeBufferPointer { text in
            query.withUnsafeBufferPointer { query in
                summaries.withUnsafeBufferPointer { summaries in
                    queryBits.withUnsafeBufferPointer { queryBits in
                        pairIndices.withUnsafeBufferPointer { pairIndices in
                            // No key is longer than `longestKey`, so a longer query cannot align.
                            let rows = query.count <= longestKey ? query.count : 0
                            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, rows * (width + 2))) { scratch in
                                body(Scorer(text: text, query: query, queryBits: queryBits, queryPairs: queryPairs,
                                            pairIndices: pairIndices, summaries: summaries,
                                            scratch: scratch.baseAddress!, width: width))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Scores `candidates` (the matches of a query this one extends); returns the best
    /// `limit` (by score, then tie-break order) and every candidate that matched, in the
    /// given order.
    private func rankAll(_ candidates: [UInt32], _ query: [UInt32], limit: Int)
        -> (ranked: [(candidate: Int, score: Int)], matches: [UInt32]) {
        let (best, matches) = withScorer(query) { scorer in
            order.withUnsafeBufferPointer { order in
                var matches: [UInt32] = []
                var best = SmallestK(capacity: limit)
                for candidate in candidates {
                    let score = scorer.bestScore(Int(candidate))
                    guard score > 0 else { continue }
                    matches.append(candidate)
                    best.insert(Self.rankKey(score: score, order: order[Int(candidate)]))
                }
                return (best, matches)
            }
        }
        return (ranked(best), matches)
    }

    /// Scores every candidate not in `excluding` (which must hold every candidate scoring
    /// `FuzzyScore.laterWordPrefix` or more), in tie-break order: recent ones first, then by index. Returns the best
    /// `limit`, and every candidate that matched (ascending), or nil for those when it
    /// skipped some (see `FullScan`).
    private func scanAll(_ query: [UInt32], limit: Int, excluding: Set<Int>)
        -> (ranked: [(candidate: Int, score: Int)], matches: [UInt32]?) {
        let queryMask = Self.mask(of: query)
        let firstNonRecent = UInt32(recentLimit)
        let recent = recentCandidates
        let scan = withScorer(query) { scorer in
            masks.withUnsafeBufferPointer { masks in
                order.withUnsafeBufferPointer { order in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: FullScan.blockSize) { block in
                        var scan = FullScan(limit: limit, excluding: excluding, scorer: scorer, order: order)
                        for candidate in recent where masks[candidate] & queryMask == queryMask {
                            guard scan.visit(candidate) else { return scan }
                        }
                        // Block by block: the candidates whose mask passes, then their summaries
                        // and texts fetched together (`prefetch`), then scored one by one.
                        var blockStart = 0
                        while blockStart < masks.count {
                            let blockEnd = min(masks.count, blockStart + FullScan.blockSize)
                            var count = 0
                            for candidate in blockStart..<blockEnd
                            where masks[candidate] & queryMask == queryMask && order[candidate] >= firstNonRecent {
                                block[count] = Int32(candidate)
                                count += 1
                            }
                            let passed = UnsafeBufferPointer(rebasing: block[0..<count])
                            scan.prefetch(passed)
                            for candidate in passed {
                                guard scan.visit(Int(candidate)) else { return scan }
                            }
                            blockStart = blockEnd
                        }
                        return scan
                    }
                }
            }
        }
        if scan.skipped { return (ranked(scan.best), nil) }
        return (ranked(scan.best), recent.isEmpty ? scan.matches : scan.matches.sorted())
    }

    /// Matches with the best key and the highlight ranges in its original text.
    private func details(_ ranked: [(candidate: Int, score: Int)], _ query: [UInt32]) -> [FuzzyMatch] {
        withScorer(query) { scorer in
            ranked.map { candidate, score in
                for (offset, key) in (Int(firstKey[candidate])..<Int(firstKey[candidate + 1])).enumerated() {
                    let start = Int(keyStarts[key]), end = Int(keyStarts[key + 1]) - 1
                    guard let positions = scorer.positions(start, end, scoring: score) else { continue }
                    let folded = TextFolding.foldWithSources(originals[key])
                    return FuzzyMatch(candidate: candidate, score: score, key: offset,
                                      ranges: folded.originalRanges(ofFolded: positions))
                }
                return FuzzyMatch(candidate: candidate, score: score, key: 0, ranges: [])
            }
        }
    }
}
