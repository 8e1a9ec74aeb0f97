import ComposerCore
import Foundation
import Testing

/// The committed people and channels (data/, from scripts/generate-directory.py) and the
/// loader that reads them: bad lines are reported with file and line and skipped.
@Suite struct DirectoryDataTests {
    static let dataURL = repositoryRoot().appendingPathComponent("data")

    @Test func theCommittedDataLoadsWithoutProblems() throws {
        let result = DirectoryLoader.load(from: Self.dataURL)
        #expect(result.problems.isEmpty, "\(result.problems.map(\.description).joined(separator: "\n"))")
        #expect(result.directory.people.count >= 1000)
        #expect((25...40).contains(result.directory.channels.count), "\(result.directory.channels.count) channels")
        let channelNames = Set(result.directory.channels.map(\.name))
        for name in ["general", "random", "日本語", "한국어", "čeština"] {
            #expect(channelNames.contains(name), "no channel \(name)")
        }
    }

    @Test func peopleComeFromAllFourLanguages() throws {
        let people = DirectoryLoader.load(from: Self.dataURL).directory.people
        let hiraganaReadings = people.filter { $0.reading.unicodeScalars.contains { (0x3041...0x309F).contains($0.value) } }
        let hangul = people.filter { $0.display.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) } }
        let czechLetters = Set("řščžůáíéýěňťďŘŠČŽ".unicodeScalars)
        let czech = people.filter { $0.display.unicodeScalars.contains { czechLetters.contains($0) } }
        let plainEnglish = people.filter {
            $0.display.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0 == " ") }
        }
        #expect(hiraganaReadings.count >= 200, "Japanese: \(hiraganaReadings.count)")
        #expect(hangul.count >= 200, "Korean: \(hangul.count)")
        #expect(czech.count >= 150, "Czech with diacritics: \(czech.count)")
        #expect(plainEnglish.count >= 150, "English: \(plainEnglish.count)")
        // Every diacritic the brief lists appears somewhere.
        let allDisplay = Set(people.flatMap { $0.display.unicodeScalars })
        for letter in "řščžůáíéýěňťď".unicodeScalars {
            #expect(allDisplay.contains(letter), "no Czech name with \(letter)")
        }
        #expect(people.contains { $0.display == "김민준" || $0.display.hasSuffix("민준") })
    }

    @Test func namesAreUniqueAsciiHandlesAndLatinIsAscii() throws {
        let people = DirectoryLoader.load(from: Self.dataURL).directory.people
        #expect(Set(people.map(\.name)).count == people.count)
        #expect(Set(people.map(\.id)).count == people.count)
        let handle = /[a-z0-9.]+/
        for person in people {
            #expect(person.name.wholeMatch(of: handle) != nil, "handle \(person.name)")
            #expect(person.latin.unicodeScalars.allSatisfy { $0.isASCII }, "latin \(person.latin) of \(person.id)")
            #expect(person.latin == person.latin.lowercased(), "latin \(person.latin) of \(person.id)")
        }
    }

    @Test func tanakaIsThereWithHisReading() throws {
        let people = DirectoryLoader.load(from: Self.dataURL).directory.people
        let tanaka = try #require(people.first { $0.id == "u0001" })
        #expect(tanaka == DirectoryEntry(id: "u0001", name: "tanaka", display: "田中 太郎",
                                         reading: "たなか たろう", latin: "tanaka taro"))
        #expect(people.contains { $0.display.hasPrefix("田中") && $0.reading.hasPrefix("たなか") })
        #expect(people.contains { $0.display == "Jiří Novák" || $0.latin.hasSuffix("novak") })
    }

    /// data/ is exactly what the generator writes (run it and commit after changing it).
    @Test(.timeLimit(.minutes(1)))
    func theCommittedDataEqualsAFreshGeneration() throws {
        let output = try runGenerator("generate-directory.py")
        defer { try? FileManager.default.removeItem(at: output) }
        for file in [DirectoryLoader.peopleFile, DirectoryLoader.channelsFile] {
            let fresh = try Data(contentsOf: output.appendingPathComponent(file))
            let committed = try Data(contentsOf: Self.dataURL.appendingPathComponent(file))
            #expect(fresh == committed,
                    "data/\(file) differs from a fresh run of scripts/generate-directory.py; regenerate and commit it")
        }
    }
}

@Suite struct DirectoryLoaderTests {
    let good1 = #"{"id": "u1", "name": "tanaka", "display": "田中 太郎", "reading": "たなか たろう", "latin": "tanaka taro"}"#
    let good2 = #"{"id": "u2", "name": "kim.minjun", "display": "김민준", "reading": "", "latin": "kim minjun"}"#
    let good3 = #"{"id": "u3", "name": "novak.jiri", "display": "Jiří Novák", "reading": "", "latin": "jiri novak"}"#

    func parse(_ lines: [String], path: String = "data/people.jsonl") -> ([DirectoryEntry], [DirectoryProblem]) {
        var problems: [DirectoryProblem] = []
        let entries = DirectoryLoader.parse(Array((lines.joined(separator: "\n") + "\n").utf8), path: path,
                                            problems: &problems)
        return (entries, problems)
    }

    @Test func goodLinesLoadInOrder() {
        let (entries, problems) = parse([good1, good2, good3])
        #expect(problems.isEmpty)
        #expect(entries.map(\.id) == ["u1", "u2", "u3"])
        #expect(entries[2].display == "Jiří Novák")
        #expect(entries[0].reading == "たなか たろう")
    }

    @Test func markupInDataStaysLiteralText() {
        let markup = #"{"id": "u7", "name": "b.tag", "display": "<b>Bold</b> &amp; <span foreground='red'>Red</span>", "reading": "", "latin": "<i>x</i>"}"#
        let (entries, problems) = parse([markup])
        #expect(problems.isEmpty)
        #expect(entries.first?.display == "<b>Bold</b> &amp; <span foreground='red'>Red</span>")
        #expect(entries.first?.latin == "<i>x</i>")
    }

    @Test(arguments: [
        (#"{"id": "u9", "name": "x""#, "invalid JSON"),
        ("not json at all", "invalid JSON"),
        (#"["u9", "x"]"#, "expected a JSON object"),
        (#"{"id": "u9", "name": "x", "reading": "", "latin": "x"}"#, "missing \"display\""),
        (#"{"id": "u9", "name": "x", "display": 7, "reading": "", "latin": "x"}"#, "expected a string for \"display\""),
        (#"{"id": "u9", "name": "x", "display": "X", "reading": null, "latin": "x"}"#, "expected a string for \"reading\""),
        (#"{"id": "", "name": "x", "display": "X", "reading": "", "latin": "x"}"#, "empty \"id\""),
    ])
    func aBadLineIsReportedWithFileAndLineAndSkipped(bad: String, message: String) throws {
        let (entries, problems) = parse([good1, bad, good2, good3])
        #expect(entries.map(\.id) == ["u1", "u2", "u3"])
        let problem = try #require(problems.first)
        #expect(problems.count == 1, "\(problems)")
        #expect(problem.path == "data/people.jsonl")
        #expect(problem.line == 2)
        #expect(problem.message.contains(message), "\(problem.message)")
        #expect(problem.description.hasPrefix("data/people.jsonl:2: "), "\(problem.description)")
    }

    @Test func theDescriptionReadsLikeACompilerMessage() {
        let problem = DirectoryProblem(path: "data/people.jsonl", line: 17, message: #"expected a string for "display""#)
        #expect(problem.description == #"data/people.jsonl:17: expected a string for "display""#)
        #expect(DirectoryProblem(path: "data/x.jsonl", line: nil, message: "no such file").description
                == "data/x.jsonl: no such file")
    }

    @Test func duplicateIdsAndNamesAreReportedAndTheFirstWins() {
        let sameID = #"{"id": "u1", "name": "other", "display": "Other", "reading": "", "latin": "other"}"#
        let sameName = #"{"id": "u4", "name": "tanaka", "display": "田中", "reading": "", "latin": "tanaka"}"#
        let (entries, problems) = parse([good1, good2, sameID, good3, sameName])
        #expect(entries.map(\.id) == ["u1", "u2", "u3"])
        #expect(entries[0].name == "tanaka")
        #expect(problems.map(\.line) == [3, 5])
        #expect(problems[0].message.contains("duplicate id \"u1\"") && problems[0].message.contains("line 1"))
        #expect(problems[1].message.contains("duplicate name \"tanaka\""))
    }

    @Test func blankLinesAndCRLFAreAcceptedInvalidUTF8IsReported() {
        var problems: [DirectoryProblem] = []
        let bytes = Array((good1 + "\r\n\n  \n").utf8) + [0xFF, 0xFE, 0x0A] + Array((good2 + "\r\n").utf8)
        let entries = DirectoryLoader.parse(bytes, path: "p.jsonl", problems: &problems)
        #expect(entries.map(\.id) == ["u1", "u2"])
        #expect(problems == [DirectoryProblem(path: "p.jsonl", line: 4, message: "not valid UTF-8")])
    }

    @Test func filesOnDiskMissingFilesAndAMissingDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("directory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data([good1, "{oops", good2].joined(separator: "\n").utf8)
            .write(to: directory.appendingPathComponent("people.jsonl"))

        let result = DirectoryLoader.load(from: directory)
        #expect(result.directory.people.map(\.id) == ["u1", "u2"])
        #expect(result.directory.channels.isEmpty)
        let peoplePath = directory.appendingPathComponent("people.jsonl").path
        let channelsPath = directory.appendingPathComponent("channels.jsonl").path
        #expect(result.problems.map(\.path) == [peoplePath, channelsPath])
        #expect(result.problems.map(\.line) == [2, nil])
        #expect(result.problems[1].description == "\(channelsPath): no such file")

        let missing = DirectoryLoader.load(from: directory.appendingPathComponent("nope"))
        #expect(missing.directory == .empty)
        #expect(missing.problems.count == 1)
        #expect(missing.problems.first?.message == "no such data directory")
    }
}
