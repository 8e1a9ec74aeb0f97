import ComposerCore
import Foundation
import Testing

/// data/emoji.jsonl (from scripts/generate-emoji.py: CLDR + python3-emoji) and its loader.
@Suite("Emoji data")
struct EmojiDataTests {
    @Test func theCommittedFileLoadsWithoutProblems() throws {
        let (emoji, problems) = EmojiLoader.load(from: CompletionTestData.dataURL)
        #expect(problems == [])
        #expect(emoji.count > 3000)
        let cat = try #require(emoji.first { $0.char == "🐱" })
        #expect(cat.id == "1f431")
        #expect(cat.shortcodes.first == "cat_face" && cat.shortcodes.contains("cat"))
        #expect(cat.names == ["en": "cat face", "ja": "ネコの顔"])
        #expect(cat.keywords["ja"]?.contains("ネコ") == true)
        let smileyCat = try #require(emoji.first { $0.char == "😺" })
        #expect(smileyCat.shortcodes.contains("smiley_cat"))
        #expect(Set(emoji.map(\.id)).count == emoji.count)
    }

    /// `:cat` finds 🐱 and 😺, `:ねこ` finds 🐱, as the controller sees it.
    @Test func catAndNeko() {
        let emoji = CompletionTestData.emojiSource
        let cat = emoji.search("cat", limit: 20).items.map(\.insertion)
        #expect(cat.contains("🐱") && cat.contains("😺"))
        #expect(emoji.search("ねこ", limit: 20).items.map(\.insertion).contains("🐱"))
        #expect(emoji.search("ネコ", limit: 20).items.map(\.insertion).contains("🐱"))
    }

    @Test func badLinesAreReportedAndSkipped() {
        var problems: [DirectoryProblem] = []
        let text = """
        {"id": "1f431", "char": "🐱", "shortcodes": ["cat_face"], "names": {"en": "cat face"}, "keywords": {"en": ["cat"]}}
        {"id": "", "char": "x", "shortcodes": []}
        {"id": "1f431", "char": "🐱", "shortcodes": []}
        not json

        {"id": "1f436", "char": "🐶", "shortcodes": "dog"}
        """
        let emoji = EmojiLoader.parse(Array(text.utf8), path: "emoji.jsonl", problems: &problems)
        #expect(emoji.map(\.id) == ["1f431"])
        #expect(problems.map(\.line) == [2, 3, 4, 6])
    }

    /// data/emoji.jsonl is exactly what the generator writes from the installed packages
    /// (run `scripts/generate-emoji.py` and commit after changing it or upgrading them).
    @Test(.timeLimit(.minutes(1)))
    func theCommittedFileEqualsAFreshGeneration() throws {
        let output = try runGenerator("generate-emoji.py")
        defer { try? FileManager.default.removeItem(at: output) }
        let fresh = try Data(contentsOf: output.appendingPathComponent(EmojiLoader.fileName))
        let committed = try Data(contentsOf: CompletionTestData.dataURL.appendingPathComponent(EmojiLoader.fileName))
        #expect(fresh == committed, "data/emoji.jsonl differs from a fresh run of scripts/generate-emoji.py; regenerate and commit it")
    }
}
