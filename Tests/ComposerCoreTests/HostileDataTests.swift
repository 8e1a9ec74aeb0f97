@testable import ComposerCore
import Foundation
import Testing

/// Data files written to harm: names with controls, NULs and line breaks, and files too
/// large or too long to read. Whatever they hold, a completion never inserts a control,
/// and loading costs bounded memory and time.
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
        let source = CompletionSource.people(entries)
        let row = source.entry(at: source.count - 1)
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

    // MARK: size and length

    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A 1 GiB file (sparse: it takes no disk) is refused by its size, unread.
    @Test func aFileOverTheSizeLimitIsRefusedUnread() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let people = directory.appendingPathComponent("people.jsonl")
        try Data(Self.good.utf8).write(to: people)
        #expect(truncate(people.path, 1 << 30) == 0)
        let result = DirectoryLoader.load(from: directory)
        #expect(result.directory.people.isEmpty)
        #expect(result.problems.first?.description
                == "\(people.path): 1 GiB is over the 32 MiB a data file may have; not read")
        #expect(DataFile.tooLarge((32 << 20) + 1, 32 << 20)
                == "33554433 bytes is over the 32 MiB a data file may have; not read")
    }

    /// A FIFO would block the loading thread, /dev/zero never ends: only regular files.
    @Test func onlyRegularFilesAreRead() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("people.jsonl")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(DataFile.read(fifo).failureMessage == "not a regular file; not read", "and no wait for a writer")
        let zero = DataFile.read(URL(fileURLWithPath: "/dev/zero"))
        #expect(zero.failureMessage == "not a regular file; not read")
        #expect(DataFile.read(directory.appendingPathComponent("none.jsonl")).failureMessage == "no such file")
    }

    @Test func aFileIsReadWhole() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("people.jsonl")
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
        try Data(bytes).write(to: file)
        #expect(try DataFile.read(file).get() == bytes)
        #expect(DataFile.read(file, maximumBytes: 299_999).failureMessage?.hasSuffix("a data file may have; not read") == true)
    }

    @Test func pastTheLineLimitTheRestIsNotRead() {
        let lines = (1...5).map { #"{"id": "u\#($0)", "name": "n\#($0)", "display": "N", "reading": "", "latin": "n"}"# }
        var problems: [DirectoryProblem] = []
        let entries = DirectoryLoader.parse(Array(lines.joined(separator: "\n\n").utf8),
                                            limits: DataFileLimits(path: "p.jsonl", maximumLines: 3), problems: &problems)
        #expect(entries.map(\.id) == ["u1", "u2", "u3"])
        #expect(problems.map(\.description) == ["p.jsonl: more than 3 lines; the rest of the file is not read"])
    }

    @Test func pastTheProblemLimitTheRestIsNotRead() {
        let lines = ["x", "y", Self.good, "z", "w", Self.good]
        var problems: [DirectoryProblem] = []
        let entries = DirectoryLoader.parse(Array(lines.joined(separator: "\n").utf8),
                                            limits: DataFileLimits(path: "p.jsonl", maximumProblems: 3), problems: &problems)
        #expect(entries.map(\.id) == ["u1"])
        #expect(problems.map(\.line) == [1, 2, 4, nil])
        #expect(problems.last?.description == "p.jsonl: 3 bad lines; the rest of the file is not read")
    }

    /// Cleaned lines are kept: past the limit they are counted, not listed, and all load.
    @Test func cleanedLinesPastTheProblemLimitAreCounted() {
        let lines = (1...5).map { #"{"id": "u\#($0)", "name": "n\#($0)", "display": "N\u200b", "reading": "", "latin": "n"}"# }
        var problems: [DirectoryProblem] = []
        let entries = DirectoryLoader.parse(Array(lines.joined(separator: "\n").utf8),
                                            limits: DataFileLimits(path: "p.jsonl", maximumProblems: 2), problems: &problems)
        #expect(entries.count == 5)
        #expect(problems.map(\.line) == [1, 2, nil])
        #expect(problems.last?.description == "p.jsonl: 3 more lines had invisible controls or line breaks removed")
    }

    @Test func linesAreNumberedAsBefore() {
        let lines = DataFile.lines(of: Array("a\r\n\nb".utf8)).map { "\($0.number):\(String(decoding: $0.bytes, as: UTF8.self))" }
        #expect(lines == ["1:a", "2:", "3:b"])
        #expect(DataFile.lines(of: Array("a\n".utf8)).map(\.number) == [1])
        #expect(DataFile.lines(of: []).map(\.number) == [1])
    }
}

private extension Result where Failure == DirectoryProblem {
    var failureMessage: String? {
        if case .failure(let problem) = self { problem.message } else { nil }
    }
}
