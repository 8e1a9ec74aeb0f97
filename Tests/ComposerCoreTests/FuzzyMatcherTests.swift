import ComposerCore
import Foundation
import PropertyBased
import Testing

/// The committed people, channels and emoji, loaded once.
enum CompletionTestData {
    static let dataURL = repositoryRoot().appendingPathComponent("data")
    static let directory = DirectoryLoader.load(from: dataURL).directory
    static let emoji = EmojiLoader.load(from: dataURL).emoji
    static var people: CompletionSource { .people(directory.people) }
    static var channels: CompletionSource { .channels(directory.channels) }
    static var emojiSource: CompletionSource { .emoji(emoji) }
}

@Suite("FuzzyMatcher: tiers, tie-breaks, highlights")
struct FuzzyMatcherTests {
    func ids(_ matcher: FuzzyMatcher, _ query: String, limit: Int = 20) -> [Int] {
        matcher.search(query, limit: limit).matches.map(\.candidate)
    }

    @Test func tiersRankPrefixThenWordStartThenContiguousThenScattered() {
        let matcher = FuzzyMatcher(keys: [
            ["xtanax"],         // 0: contiguous (inside a word)
            ["taxnxa"],         // 1: scattered
            ["mori tanaka"],    // 2: a later word starts with it
            ["tanaka"],         // 3: the key starts with it
            ["tana"],           // 4: the key is the query
            ["tana mori"],      // 5: the key starts with it as a whole word
            ["mori tana"],      // 6: a later word is the query
            ["nothing"],        // 7: no match
        ])
        let matches = matcher.search("tana", limit: 20).matches
        #expect(matches.map(\.candidate) == [4, 5, 3, 6, 2, 0, 1])
        #expect(matches.map(\.score).prefix(6) == [350, 325, 300, 225, 200, 100])
        #expect((1...99).contains(matches[6].score))
        #expect(matches.map(\.ranges) == [[0..<4], [0..<4], [0..<4], [5..<9], [5..<9], [1..<5], [0..<2, 3..<4, 5..<6]])
    }

    @Test func scatteredHighlightsEveryMatchedCharacter() throws {
        let matcher = FuzzyMatcher(keys: [["taxnxa"]])
        let match = try #require(matcher.search("tana", limit: 5).matches.first)
        #expect(match.ranges == [0..<2, 3..<4, 5..<6])
    }

    /// Scattered matches are scored by their best alignment: a consonant skeleton inside a
    /// word beats a jump into the middle of a later word (the issue's `tnk`), initials beat
    /// a skeleton, and a skeleton beats word starts reached by skipping consonants.
    @Test func scatteredMatchesPreferSkeletonsAndInitials() {
        #expect(ids(FuzzyMatcher(keys: [["Tereza Vaňková"], ["tanaka"]]), "tnk") == [1, 0])
        #expect(ids(FuzzyMatcher(keys: [["jana"], ["jan novak"]]), "jn") == [1, 0])
        #expect(ids(FuzzyMatcher(keys: [["navratilova nada"], ["novotna petra"]]), "nvtn") == [1, 0])
        // Fewer skipped consonants first; starting at the key's start first.
        #expect(ids(FuzzyMatcher(keys: [["tbnbk"], ["tanak"]]), "tnk") == [1, 0])
        #expect(ids(FuzzyMatcher(keys: [["xtanak"], ["tanak"]]), "tnk") == [1, 0])
        let scores = FuzzyMatcher(keys: [["tanaka"], ["Tereza Vaňková"], ["jan novak"], ["jana"]])
        #expect(scores.match(candidate: 0, query: "tnk")?.score == 60 + 8 - 1 - 1)
        #expect(scores.match(candidate: 1, query: "tnk")?.score == 60 + 8 - 10)
        #expect(scores.match(candidate: 2, query: "jn")?.score == 60 + 8 + 8 - 6)
        #expect(scores.match(candidate: 3, query: "jn")?.score == 60 + 8 - 1)
    }

    /// The highlight shows the alignment that scored, not the first one found: `jn` in
    /// `jana novak` lights the initials, not j·(a)·n of jana.
    @Test func scatteredHighlightsTheBestAlignment() throws {
        let matcher = FuzzyMatcher(keys: [["Jana Novák"]])
        #expect(try #require(matcher.search("jn", limit: 1).matches.first).ranges == [0..<1, 5..<6])
        // Not the greedy t·(a)·n·(a)·k either: the k that starts a word.
        let skeleton = FuzzyMatcher(keys: [["tanaka kei"]])
        #expect(try #require(skeleton.search("tnk", limit: 1).matches.first).ranges == [0..<1, 2..<3, 7..<8])
    }

    @Test func equalScoresKeepTheGivenOrderAndRecentsComeFirst() {
        let matcher = FuzzyMatcher(keys: [["tanaka a"], ["tanaka b"], ["tanaka c"], ["tanaka"]])
        #expect(ids(matcher, "tana") == [0, 1, 2, 3])
        matcher.setRecent([2, 1])
        #expect(ids(matcher, "tana") == [2, 1, 0, 3])
        // Recency only breaks ties: the exact key still wins.
        #expect(ids(matcher, "tanaka") == [3, 2, 1, 0])
        matcher.setRecent([])
        #expect(ids(matcher, "tana") == [0, 1, 2, 3])
    }

    @Test func theBestKeyIsReportedAndTheFirstWinsTies() throws {
        let matcher = FuzzyMatcher(keys: [["田中 太郎", "tanaka", "tanaka taro", "たなか たろう"]])
        let byName = try #require(matcher.search("tana", limit: 1).matches.first)
        #expect(byName.key == 1 && byName.ranges == [0..<4] && byName.score == 300)
        let byReading = try #require(matcher.search("タナ", limit: 1).matches.first)
        #expect(byReading.key == 3 && byReading.ranges == [0..<2])
        let byDisplay = try #require(matcher.search("田", limit: 1).matches.first)
        #expect(byDisplay.key == 0 && byDisplay.ranges == [0..<1])
        let secondWord = try #require(matcher.search("taro", limit: 1).matches.first)
        #expect(secondWord.key == 2 && secondWord.ranges == [7..<11] && secondWord.score == 225)
    }

    @Test func highlightsAreInOriginalScalars() throws {
        let matcher = FuzzyMatcher(keys: [["Jiří Novák"], ["C\u{30C}eská"], ["김민준"]])
        #expect(try #require(matcher.search("novak", limit: 1).matches.first).ranges == [5..<10])
        #expect(try #require(matcher.search("ces", limit: 1).matches.first).ranges == [0..<4])
        #expect(try #require(matcher.search("김미", limit: 1).matches.first).ranges == [0..<2])
    }

    @Test func emptyQueryListsRecentsThenTheRest() {
        let matcher = FuzzyMatcher(keys: [["a"], ["b"], ["c"]])
        matcher.setRecent([2])
        #expect(ids(matcher, "") == [2, 0, 1])
        #expect(ids(matcher, "", limit: 2) == [2, 0])
    }

    @Test func noMatchIsEmpty() {
        let matcher = FuzzyMatcher(keys: [["tanaka"], ["suzuki"]])
        #expect(ids(matcher, "zzq").isEmpty)
        #expect(ids(matcher, "tanakax").isEmpty)
    }

    // MARK: - The real data

    @Test(arguments: ["tana", "たな", "田", "タナ", "ｔａｎａ", "田中", "tanaka", "たなか", "ﾀﾅｶ"])
    func tanakaTaroComesFirst(query: String) throws {
        let people = CompletionTestData.people
        let first = try #require(people.search(query, limit: 20).items.first)
        #expect(first.id == "u0001", "\(query)")
        #expect(first.title == "田中 太郎")
    }

    @Test func peopleRowsHighlightWhereTheMatchShows() throws {
        let people = CompletionTestData.people
        let byName = try #require(people.search("tana", limit: 1).items.first)
        #expect(byName.detail == "@tanaka" && byName.detailHighlights == [1..<5] && byName.titleHighlights == [])
        let byDisplay = try #require(people.search("田", limit: 1).items.first)
        #expect(byDisplay.titleHighlights == [0..<1])
        // A reading highlights the title word it reads.
        let byReading = try #require(people.search("たろ", limit: 20).items.first { $0.id == "u0001" })
        #expect(byReading.titleHighlights == [3..<5])
        // Matched in the display (first among equal keys), diacritics folded.
        let czech = try #require(people.search("jiri", limit: 20).items.first { $0.title == "Jiří Pospíšil" })
        #expect(czech.titleHighlights == [0..<4] && czech.detailHighlights == [])
        // The handle starts with it as a whole word (325), the display has it as a later word (225).
        let byHandle = try #require(people.search("pospíšil", limit: 20).items.first { $0.title == "Jiří Pospíšil" })
        #expect(byHandle.detailHighlights == [1..<9] && byHandle.score == 325)
        #expect(byName.insertion == "@tanaka " && byName.glyph == "田")
    }

    @Test func channelsMatchInTheirOwnScriptAndByReading() throws {
        let channels = CompletionTestData.channels
        #expect(channels.search("gen", limit: 5).items.first?.insertion == "#general ")
        #expect(channels.search("にほ", limit: 5).items.first?.title == "#日本語")
        #expect(channels.search("ニホ", limit: 5).items.first?.titleHighlights == [1..<4])
        #expect(channels.search("cest", limit: 5).items.first?.title == "#čeština")
        #expect(channels.search("한국", limit: 5).items.first?.id == "c21")
        #expect(channels.search("input.m", limit: 5).items.first?.id == "c08")
    }

    @Test func emojiMatchShortcodesNamesAndKeywordsInEnglishAndJapanese() throws {
        let emoji = CompletionTestData.emojiSource
        let cat = emoji.search("cat", limit: 20).items
        #expect(cat.contains { $0.insertion == "🐱" })
        #expect(cat.contains { $0.insertion == "😺" })
        #expect(cat.first?.insertion == "🐱" || cat.first?.insertion == "🐈")
        let neko = emoji.search("ねこ", limit: 20).items
        #expect(neko.contains { $0.insertion == "🐱" })
        let smiley = try #require(emoji.search("smiley_cat", limit: 1).items.first)
        #expect(smiley.insertion == "😺" && smiley.title == ":smiley_cat:" && smiley.titleHighlights == [1..<11])
        let byKeyword = try #require(neko.first { $0.insertion == "🐱" })
        #expect(byKeyword.detail == "ネコ" && byKeyword.detailHighlights == [0..<2])
        #expect(emoji.search("thumbs_up", limit: 1).items.first?.insertion == "👍")
    }

    // MARK: - Properties

    static let pieces = ["a", "b", "A", "ア", "あ", "か", "ガ", "ｶ", " ", ".", "č", "c", "김", "ㄱ", "-"]

    static func keysGenerator() -> Generator<[[String]], some Sequence & SendableMetatype> {
        Gen.element(of: pieces).map { $0! }.array(of: 0...6).map { $0.joined() }
            .array(of: 1...3).array(of: 0...40)
    }

    static func queryGenerator() -> Generator<String, some Sequence & SendableMetatype> {
        Gen.element(of: pieces).map { $0! }.array(of: 0...4).map { $0.joined() }
    }

    /// The index (binary searches, classes, early stop) ranks exactly like scoring every
    /// candidate one by one and sorting by score, then recency, then order.
    @Test func searchEqualsScoringEveryCandidate() async {
        await propertyCheck(count: 300, input: Self.keysGenerator(), Self.queryGenerator(), Gen.int(in: 0...8),
                            Gen.int(in: 0...40).array(of: 0...4)) { keys, query, limit, recent in
            let matcher = FuzzyMatcher(keys: keys)
            matcher.setRecent(recent)
            var seen = Set<Int>()
            let recentRank = Dictionary(uniqueKeysWithValues: recent.filter { $0 < keys.count && seen.insert($0).inserted }
                .enumerated().map { ($1, $0) })
            let oracle = (0..<keys.count).compactMap { matcher.match(candidate: $0, query: query) }
                .sorted { a, b in
                    if a.score != b.score { return a.score > b.score }
                    let ra = recentRank[a.candidate] ?? Int.max, rb = recentRank[b.candidate] ?? Int.max
                    return ra != rb ? ra < rb : a.candidate < b.candidate
                }
            let found = matcher.search(query, limit: limit).matches
            #expect(found == Array(oracle.prefix(limit)), "\(keys) \(query)")
        }
    }

    static let latinPieces = ["a", "e", "o", "t", "n", "k", "ta", "na", "ka", " ", ".", "T", "č", "あ"]

    static func latinKeys() -> Generator<[[String]], some Sequence & SendableMetatype> {
        Gen.element(of: latinPieces).map { $0! }.array(of: 0...7).map { $0.joined() }
            .array(of: 1...3).array(of: 0...60)
    }

    static func latinQuery() -> Generator<String, some Sequence & SendableMetatype> {
        Gen.element(of: latinPieces).map { $0! }.array(of: 1...4).map { $0.joined() }
    }

    /// Every score, and so the search's whole result (which candidates, in which order), is
    /// what the plain definition gives: the fast path (masks, summaries, bounds, forced
    /// alignments, the one-pass alignment table, early stops) changes speed only.
    @Test func searchEqualsTheReferenceDefinition() async {
        await propertyCheck(count: 400, input: Self.latinKeys(), Self.latinQuery(), Gen.int(in: 0...8),
                            Gen.int(in: 0...60).array(of: 0...3)) { keys, query, limit, recent in
            let matcher = FuzzyMatcher(keys: keys)
            matcher.setRecent(recent)
            let expected = ReferenceScoring.ranking(keys: keys, query: query, recent: recent)
            for (candidate, candidateKeys) in keys.enumerated() {
                #expect(matcher.match(candidate: candidate, query: query)?.score
                        == ReferenceScoring.score(keys: candidateKeys, query: query), "\(candidateKeys) \(query)")
            }
            let found = matcher.search(query, limit: limit).matches
            #expect(found.map(\.candidate) == Array(expected.prefix(limit).map(\.candidate)), "\(keys) \(query)")
            #expect(found.map(\.score) == Array(expected.prefix(limit).map(\.score)), "\(keys) \(query)")
        }
    }

    /// A scattered match's highlight is an alignment of the query that scores what the match
    /// says (ASCII keys, so highlighted scalars are folded positions).
    @Test func scatteredHighlightsAreABestAlignment() async {
        let pieces = ["a", "e", "t", "n", "k", "ta", "na", " ", "K"]
        let keys = Gen.element(of: pieces).map { $0! }.array(of: 1...8).map { $0.joined() }.array(of: 1...3).array(of: 1...20)
        let query = Gen.element(of: ["a", "t", "n", "k", " "]).map { $0! }.array(of: 2...4).map { $0.joined() }
        await propertyCheck(count: 300, input: keys, query) { keys, query in
            let matcher = FuzzyMatcher(keys: keys)
            let folded = TextFolding.foldedScalars(query)
            for match in matcher.search(query, limit: 100).matches {
                let key = TextFolding.foldedScalars(keys[match.candidate][match.key])
                let positions = match.ranges.flatMap { Array($0) }
                #expect(positions.map { key[$0] } == folded, "\(keys[match.candidate]) \(query) \(match)")
                guard match.score < 100, positions.count == folded.count else { continue }
                #expect(ReferenceScoring.clamped(ReferenceScoring.alignmentScore(key, positions)) == match.score,
                        "\(keys[match.candidate]) \(query) \(match)")
            }
        }
    }

    /// The full scan skips a candidate when its summary bounds its score to no more than
    /// the worst result held: the bound must be reached exactly, never underestimated.
    /// Here the second candidate's initials (t·n·k, each word reached across a separator)
    /// score exactly its bound, 72, and the first holds the single result at 70.
    @Test func theScanNeverSkipsACandidateThatScoresItsBound() {
        let matcher = FuzzyMatcher(keys: [["t nka"], ["ta na ka"]])
        #expect(matcher.match(candidate: 0, query: "tnk")?.score == 60 + 8 + 2)
        #expect(matcher.match(candidate: 1, query: "tnk")?.score == 60 + 8 + 2 + 2)
        #expect(ids(matcher, "tnk", limit: 1) == [1])
        // After a separator in the query, a word start costs nothing to reach.
        let spaced = FuzzyMatcher(keys: [["ax b k"], ["ax kb"]])
        #expect(spaced.match(candidate: 1, query: "a k")?.score == 60 + 8 - 6 + 8)
        #expect(ids(spaced, "a k", limit: 1) == [1])
    }

    /// Thousands of candidates, so the full scan runs over several blocks, fills its list
    /// early and skips by bound: still exactly the reference ranking, with and without recents.
    @Test(arguments: ["tnk", "nk", "ana", "t n", "k", "ktt", "zzq", "a.t", "eo"])
    func aLargeScanEqualsTheReference(query: String) {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let syllables = ["ta", "na", "ka", "te", "no", "ko", "a", "e", "tt", "n", "k", ".", " ", "ヤ", "č"]
        let keys: [[String]] = (0..<3000).map { _ in
            (0..<(1 + next(3))).map { _ in (0..<(1 + next(6))).map { _ in syllables[next(syllables.count)] }.joined() }
        }
        let matcher = FuzzyMatcher(keys: keys)
        for recent in [[], [2999, 5, 1500, 7]] {
            matcher.setRecent(recent)
            let expected = ReferenceScoring.ranking(keys: keys, query: query, recent: recent)
            for limit in [1, 20] {
                let found = matcher.search(query, limit: limit).matches
                #expect(found.map(\.candidate) == expected.prefix(limit).map(\.candidate), "\(query) \(limit) \(recent)")
                #expect(found.map(\.score) == expected.prefix(limit).map(\.score), "\(query) \(limit) \(recent)")
            }
        }
    }

    /// Extending a query and passing the previous state gives exactly a fresh search.
    @Test func incrementalRefilterEqualsAFreshSearch() async {
        await propertyCheck(count: 300, input: Self.keysGenerator(), Self.queryGenerator().array(of: 1...4),
                            Gen.int(in: 1...8)) { keys, steps, limit in
            let matcher = FuzzyMatcher(keys: keys)
            var query = ""
            var state: FuzzySearchState?
            for step in steps {
                query += step
                let incremental = matcher.search(query, limit: limit, previous: state)
                let fresh = matcher.search(query, limit: limit)
                #expect(incremental.matches == fresh.matches, "\(keys) \(query)")
                state = incremental.state
            }
        }
    }

    @Test func aStateFromAnotherMatcherIsIgnored() {
        let small = FuzzyMatcher(keys: [["tanaka"]])
        let large = FuzzyMatcher(keys: (0..<500).map { ["tanaka \($0)"] })
        let state = large.search("ta", limit: 5).state
        #expect(small.search("tan", limit: 5, previous: state).matches.map(\.candidate) == [0])
    }

    /// The same on the real people: typing a name one character at a time.
    @Test(arguments: ["tanaka.mayumi", "たなかまゆみ", "kimminj", "novak", "tnk", "ak", "田中真"])
    func incrementalTypingOnRealPeople(name: String) {
        let people = CompletionTestData.people
        var query = ""
        var state: FuzzySearchState?
        for character in name {
            query.append(character)
            let incremental = people.search(query, limit: 20, previous: state)
            #expect(incremental.items == people.search(query, limit: 20).items, "\(query)")
            state = incremental.state
        }
    }
}

/// The scores by their definition (`FuzzyMatcher`'s table and scattered rule), written
/// plainly: every occurrence for the contiguous tiers, every alignment for the scattered
/// one. Slow, and the oracle the matcher's fast path is checked against.
enum ReferenceScoring {
    static let separator: UInt32 = 0x20
    static let vowels: Set<UInt32> = Set("aeiou".unicodeScalars.map(\.value))

    /// The candidate's score: the best over its keys; nil when none matches.
    static func score(keys: [String], query: String) -> Int? {
        let folded = TextFolding.foldedScalars(query)
        let best = keys.map { score(key: TextFolding.foldedScalars($0), query: folded) }.max() ?? 0
        return best > 0 ? best : nil
    }

    static func score(key: [UInt32], query: [UInt32]) -> Int {
        guard !key.isEmpty, !query.isEmpty, key.count >= query.count else { return 0 }
        func after(_ end: Int) -> Int { end == key.count ? 50 : (key[end] == separator ? 25 : 0) }
        var best = 0
        for position in 0...(key.count - query.count) where Array(key[position..<position + query.count]) == query {
            if position == 0 {
                best = max(best, 300 + after(query.count))
            } else if key[position - 1] == separator, query[0] != separator {
                best = max(best, after(position + query.count) > 0 ? 225 : 200)
            } else {
                best = max(best, 100)
            }
        }
        if best > 0 { return best }
        var scattered: Int?
        func align(_ index: Int, from: Int, _ positions: [Int]) {
            if index == query.count {
                scattered = max(scattered ?? .min, alignmentScore(key, positions))
                return
            }
            for position in from..<key.count where key[position] == query[index] {
                align(index + 1, from: position + 1, positions + [position])
            }
        }
        align(0, from: 0, [])
        return scattered.map(clamped) ?? 0
    }

    /// An alignment's score before the base and the clamp: +8 per character at a word start;
    /// per gap −1 for vowels only, −6 for a consonant or a later word's start, −10 for the
    /// middle of a later word; −5 when it does not start at the key's start.
    static func alignmentScore(_ key: [UInt32], _ positions: [Int]) -> Int {
        var score = positions[0] > 0 ? -5 : 0
        for (index, position) in positions.enumerated() {
            let wordStart = key[position] != separator && (position == 0 || key[position - 1] == separator)
            if wordStart { score += 8 }
            guard index > 0 else { continue }
            let gap = key[(positions[index - 1] + 1)..<position]
            if gap.isEmpty { continue }
            if gap.contains(separator) {
                score -= wordStart ? 6 : 10
            } else {
                score -= gap.allSatisfy(vowels.contains) ? 1 : 6
            }
        }
        return score
    }

    static func clamped(_ score: Int) -> Int { min(99, max(1, 60 + score)) }

    /// Every matching candidate, by score, then recency, then index.
    static func ranking(keys: [[String]], query: String, recent: [Int]) -> [(candidate: Int, score: Int)] {
        var seen = Set<Int>()
        let recentRank = Dictionary(uniqueKeysWithValues: recent.filter { $0 < keys.count && seen.insert($0).inserted }
            .enumerated().map { ($1, $0) })
        return keys.indices.compactMap { candidate in score(keys: keys[candidate], query: query).map { (candidate, $0) } }
            .sorted { a, b in
                if a.score != b.score { return a.score > b.score }
                let ra = recentRank[a.candidate] ?? Int.max, rb = recentRank[b.candidate] ?? Int.max
                return ra != rb ? ra < rb : a.candidate < b.candidate
            }
    }
}
