import ComposerCore
import Testing

/// Ranking quality: for each labelled query, the first person offered is one a person
/// typing it expects. The expectations were written from the names in data/people.jsonl
/// (who a Japanese, Korean, Czech or English speaker means by the query), not copied from
/// a run. The same set is the benchmark's ranking column (Sources/completion-benchmark),
/// which also scores GtkSourceView on it.
@Suite("Completion ranking: the first result is the one a person expects")
struct CompletionRankingTests {
    struct Labelled: CustomTestStringConvertible, Sendable {
        let query: String
        let expected: String
        let accepts: @Sendable (DirectoryEntry) -> Bool
        var testDescription: String { "\(query) → \(expected)" }

        static func handle(_ query: String, startingWith prefix: String, _ expected: String) -> Labelled {
            Labelled(query: query, expected: expected) { $0.name.hasPrefix(prefix) }
        }

        static func display(_ query: String, startingWith prefix: String, _ expected: String) -> Labelled {
            Labelled(query: query, expected: expected) { $0.display.hasPrefix(prefix) }
        }

        static func displayWord(_ query: String, _ word: String, _ expected: String) -> Labelled {
            Labelled(query: query, expected: expected) { $0.display.split(separator: " ").contains { $0 == word } }
        }
    }

    static let labelled: [Labelled] = [
        .handle("tana", startingWith: "tanaka", "a Tanaka"),
        Labelled(query: "tanaka", expected: "@tanaka, the handle typed in full") { $0.name == "tanaka" },
        .display("たな", startingWith: "田中", "a 田中 (read たなか)"),
        .display("タナカ", startingWith: "田中", "a 田中 (read たなか)"),
        .display("田中", startingWith: "田中", "a 田中"),
        .handle("ｔａｎａ", startingWith: "tanaka", "a Tanaka (typed full-width)"),
        .display("ﾀﾅ", startingWith: "田中", "a 田中 (half-width kana)"),
        .handle("suzu", startingWith: "suzuki", "a Suzuki (鈴木)"),
        .display("さと", startingWith: "佐藤", "a 佐藤 (read さとう)"),
        .display("佐藤", startingWith: "佐藤", "a 佐藤"),
        .handle("kim", startingWith: "kim.", "a Kim (김)"),
        .display("김지", startingWith: "김지", "a 김지…"),
        Labelled(query: "민준", expected: "a …민준 (given name 민준)") { $0.display.contains("민준") },
        .display("jiri", startingWith: "Jiří ", "a Jiří"),
        Labelled(query: "novák", expected: "a Novák, not a Nováková") { $0.latin.split(separator: " ").contains("novak") },
        .handle("novot", startingWith: "novotn", "a Novotný or Novotná"),
        .displayWord("emma", "Emma", "an Emma"),
        .displayWord("smith", "Smith", "a Smith"),
        .handle("naka", startingWith: "naka", "a name starting naka (中村, 中島…), not tanaka"),
        .handle("tnk", startingWith: "tanaka", "a Tanaka: t·n·k are its consonants"),
        .handle("nvtn", startingWith: "novotn", "a Novotný or Novotná: n·v·t·n"),
        .handle("ymzk", startingWith: "yamazaki", "a Yamazaki: y·m·z·k"),
    ]

    @Test(arguments: labelled)
    func theFirstResultIsTheExpectedPerson(_ labelled: Labelled) throws {
        let people = CompletionTestData.people
        let first = try #require(people.search(labelled.query, limit: 20).items.first, "no result for \(labelled.query)")
        let person = try #require(CompletionTestData.directory.people.first { $0.id == first.id })
        #expect(labelled.accepts(person), "\(labelled.query): expected \(labelled.expected), got \(person.display) (@\(person.name))")
    }

    @Test func aQueryNobodyMatchesOffersNothing() {
        #expect(CompletionTestData.people.search("zzq", limit: 20).items.isEmpty)
    }

    /// The case: `tnk` ranked Tereza Vaňková (t…nk, mid-word in her surname) above
    /// tanaka; every Tanaka now comes before any Vaňková.
    @Test func aConsonantSkeletonBeatsAJumpIntoALaterWord() throws {
        let people = CompletionTestData.people
        let items = people.search("tnk", limit: 40).items
        let titles = items.map(\.title)
        let lastTanaka = try #require(titles.lastIndex { $0.hasPrefix("田中") })
        let firstVankova = try #require(titles.firstIndex { $0.hasSuffix("Vaňková") })
        #expect(lastTanaka < firstVankova, "\(titles)")
        // Highlighted where a person sees the skeleton: t·n·k of the handle @tanaka.
        let tanaka = try #require(items.first { $0.id == "u0001" })
        #expect(tanaka.detailHighlights == [1..<2, 3..<4, 5..<6])
    }
}
