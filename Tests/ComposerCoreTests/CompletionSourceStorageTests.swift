import ComposerCore
import Foundation
import Testing

/// `CompletionSource` keeps its entries packed (one UTF-8 buffer for their texts, the keys'
/// texts only in the matcher, 4 bytes per placement): what it gives back must be exactly
/// what it was given.
@Suite("Completion sources: packed entries come back as given")
struct CompletionSourceStorageTests {
    /// Every kind of placement, two different title affixes, texts in several scripts and
    /// with combining marks, empty details and glyphs, and ids that prefix one another.
    static let entries: [CompletionEntry] = [
        CompletionEntry(id: "c1", kind: .channel, title: "#general", detail: "General", glyph: "#",
                        insertion: "#general ", keys: [CompletionKey("general", .title(offset: 1)),
                                                       CompletionKey("General", .detail(offset: 0))]),
        CompletionEntry(id: "c10", kind: .channel, title: "#日本語", insertion: "#日本語 ",
                        keys: [CompletionKey("日本語", .title(offset: 1)), CompletionKey("にほんご", .titleWords(offset: 1))]),
        CompletionEntry(id: "1f431", kind: .emoji, title: ":cat_face:", detail: "cat face", glyph: "🐱", insertion: "🐱",
                        keys: [CompletionKey("cat_face", .asTitle(prefix: ":", suffix: ":")),
                               CompletionKey("cat", .asTitle(prefix: ":", suffix: ":")),
                               CompletionKey("ネコの顔", .asDetail)]),
        CompletionEntry(id: "t2", kind: .custom, title: "+開発", insertion: "+開発 ",
                        keys: [CompletionKey("開発", .asTitle(prefix: "+", suffix: "")), CompletionKey("secret", .hidden)]),
        CompletionEntry(id: "u0001", kind: .person, title: "Jiří Novák", detail: "@jiri", glyph: "J",
                        insertion: "@jiri ", keys: [CompletionKey("Jiří Novák", .title(offset: 0)),
                                                    CompletionKey("jiri", .detail(offset: 1)),
                                                    CompletionKey("Jiri\u{301} Nova\u{301}k", .titleWords(offset: 0))]),
        CompletionEntry(id: "c1", kind: .channel, title: "#general-2", insertion: "#general-2 ", keys: []),
    ]

    @Test func everyEntryComesBackAsItWasGiven() {
        let source = CompletionSource(name: "mixed", entries: Self.entries)
        #expect(source.count == Self.entries.count)
        #expect(source.keyCount == Self.entries.reduce(0) { $0 + $1.keys.count })
        for (index, entry) in Self.entries.enumerated() {
            #expect(source.entry(at: index) == entry)
        }
    }

    @Test func anIDFindsTheFirstEntryWithItAndAnUnknownOneNothing() {
        let source = CompletionSource(name: "mixed", entries: Self.entries)
        #expect(source.entry(id: "c1") == Self.entries[0])
        #expect(source.entry(id: "c10") == Self.entries[1])
        #expect(source.entry(id: "1f431")?.glyph == "🐱")
        #expect(source.entry(id: "c") == nil)
        #expect(source.entry(id: "c100") == nil)
        #expect(source.entry(id: "") == nil)
    }

    @Test func recentIDsRankFirstAmongEqualScoresAndUnknownOnesAreIgnored() {
        let source = CompletionSource(name: "mixed", entries: Self.entries)
        // The second "c1" has no keys: it never matches.
        #expect(source.search("gen", limit: 5).items.map(\.id) == ["c1"])
        source.setRecent(ids: ["nobody", "c10", "u0001"])
        #expect(source.search("", limit: 3).items.map(\.id) == ["c10", "u0001", "c1"])
    }

    @Test func theRowShowsTheKeyThatMatchedWhereItsPlacementSays() throws {
        let source = CompletionSource(name: "mixed", entries: Self.entries)
        let shortcode = try #require(source.search("cat", limit: 1).items.first)
        #expect(shortcode.title == ":cat:")
        #expect(shortcode.titleHighlights == [1..<4])
        let detail = try #require(source.search("ネコ", limit: 1).items.first)
        #expect(detail.detail == "ネコの顔")
        #expect(detail.detailHighlights == [0..<2])
        let custom = try #require(source.search("開発", limit: 1).items.first)
        #expect(custom.title == "+開発")
        #expect(custom.titleHighlights == [1..<3])
        let hidden = try #require(source.search("secret", limit: 1).items.first)
        #expect(hidden.title == "+開発" && hidden.titleHighlights.isEmpty && hidden.detailHighlights.isEmpty)
    }

    /// The emoji data as the app loads it: every emoji comes back with the keys the emoji
    /// factory gives it (shortcodes as `:…:` titles, then names and keywords as details).
    @Test func everyEmojiOfTheDataComesBackWithItsKeys() {
        let emoji = CompletionTestData.emoji
        #expect(emoji.count > 3000)
        let source = CompletionSource.emoji(emoji)
        #expect(source.count == emoji.count)
        for (index, item) in emoji.enumerated() {
            let entry = source.entry(at: index)
            #expect(entry.id == item.id && entry.glyph == item.char && entry.insertion == item.char)
            #expect(entry.title == (item.shortcodes.first.map { ":\($0):" } ?? item.char))
            #expect(Array(entry.keys.prefix(item.shortcodes.count))
                == item.shortcodes.map { CompletionKey($0, .asTitle(prefix: ":", suffix: ":")) })
            #expect(entry.keys.dropFirst(item.shortcodes.count).allSatisfy { $0.placement == .asDetail })
            #expect(source.entry(id: item.id) == entry)
        }
    }

    @Test func theMatcherGivesEachCandidatesKeysBackInOrder() {
        let matcher = FuzzyMatcher(keys: [["Tanaka Taro", "たなか"], [], ["🐱", "cat face"]])
        #expect(matcher.candidateCount == 3 && matcher.keyCount == 4)
        #expect((0..<3).map(matcher.keyCount(of:)) == [2, 0, 2])
        #expect(matcher.key(1, of: 0) == "たなか")
        #expect(matcher.key(0, of: 2) == "🐱")
        #expect(matcher.search("cat", limit: 3).matches.map(\.candidate) == [2])
    }
}
