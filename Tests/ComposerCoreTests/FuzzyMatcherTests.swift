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
