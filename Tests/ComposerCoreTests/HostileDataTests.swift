import ComposerCore
import Foundation
import Testing

/// Data files written to harm: names with controls, NULs and line breaks. Whatever they
/// hold, a completion never inserts a control.
@Suite("Hostile data files")
struct HostileDataTests {
    static let good = #"{"id": "u1", "name": "tanaka", "display": "田中 太郎", "reading": "たなか たろう", "latin": "tanaka taro"}"#

    func parse(_ lines: [String]) -> ([DirectoryEntry], [String]) {
        var problems: [DirectoryProblem] = []
        let entries = DirectoryLoader.parse(Array((lines.joined(separator: "\n") + "\n").utf8), path: "p.jsonl",
                                            problems: &problems)
        return (entries, problems.map(\.description))
    }

    @Test func aNulInANameRefusesTheLine() {
        let nul = #"{"id": "u2", "name": "kim\u0000.minjun", "display": "김민준", "reading": "", "latin": "kim"}"#
        let (entries, problems) = parse([Self.good, nul])
        #expect(entries.map(\.id) == ["u1"])
        #expect(problems == [#"p.jsonl:2: a NUL character in "name"; skipped"#])
    }

    @Test func controlsAreRemovedAndReportedTheLineIsKept() throws {
        let hostile = #"{"id": "u2", "name": "kim\u200b.minjun", "display": "\u202eNUJNIM MIK", "reading": "", "latin": "kim\nminjun"}"#
        let (entries, problems) = parse([Self.good, hostile])
        let kim = try #require(entries.last)
        #expect(kim == DirectoryEntry(id: "u2", name: "kim.minjun", display: "NUJNIM MIK", reading: "", latin: "kim minjun"))
        #expect(problems == [
            #"p.jsonl:2: "name": removed invisible control U+200B; "display": removed invisible control U+202E; "#
                + #""latin": line breaks and tabs made spaces"#,
        ])
        // What accepting inserts has no control left.
        let row = try #require(CompletionSource.people(entries).entries.last)
        #expect(row.insertion == "@kim.minjun ")
        #expect(!row.insertion.unicodeScalars.contains(where: InvisibleControls.isControl))
    }

    @Test func namesEqualButForInvisibleCharactersAreDuplicates() {
        let lookalike = #"{"id": "u2", "name": "tana\u2060ka", "display": "Tanaka", "reading": "", "latin": "tanaka"}"#
        let (entries, problems) = parse([Self.good, lookalike])
        #expect(entries.map(\.id) == ["u1"])
        #expect(problems == [#"p.jsonl:2: duplicate name "tanaka" (first on line 1); skipped"#])
    }

    @Test func emojiLoseControlsButKeepTheirJoinersAndFlags() throws {
        let lines = [
            #"{"id": "1f469-200d-1f4bb", "char": "👩‍💻", "shortcodes": ["technologist"]}"#,
            #"{"id": "1f3f4-e0067-e0062-e0073-e0063-e0074-e007f", "char": "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "shortcodes": ["scotland"]}"#,
            #"{"id": "1f600", "char": "😀\u202e", "shortcodes": ["grin\u200bning"], "names": {"en": "grinning\nface"}}"#,
            #"{"id": "1f431", "char": "\u0000", "shortcodes": ["cat"]}"#,
        ]
        var problems: [DirectoryProblem] = []
        let emoji = EmojiLoader.parse(Array(lines.joined(separator: "\n").utf8), path: "e.jsonl", problems: &problems)
        #expect(emoji.map(\.char) == ["👩‍💻", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "😀"])
        #expect(emoji.last?.shortcodes == ["grinning"])
        #expect(emoji.last?.names["en"] == "grinning face")
        #expect(problems.map(\.description) == [
            #"e.jsonl:3: "char": removed invisible control U+202E; "shortcodes": removed invisible control U+200B; "#
                + #""names": line breaks and tabs made spaces"#,
            #"e.jsonl:4: a NUL character in "char"; skipped"#,
        ])
    }
}
