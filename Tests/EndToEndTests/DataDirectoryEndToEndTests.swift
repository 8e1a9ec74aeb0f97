import Foundation
import Testing
import TestHarness

/// `--data DIR` in the real app under Xvfb: bad data is reported on stderr as
/// `ime-composer: <file>:<line>: <message>` and the app still starts (trace `ready`) and
/// exits cleanly.
@Suite(.serialized)
struct DataDirectoryEndToEndTests {
    static let tanaka = #"{"id": "u0001", "name": "tanaka", "display": "田中 太郎", "reading": "たなか たろう", "latin": "tanaka taro"}"#
    static let kim = #"{"id": "u0002", "name": "kim.minjun", "display": "김민준", "reading": "", "latin": "kim minjun"}"#
    static let general = #"{"id": "c01", "name": "general", "display": "General", "reading": "", "latin": "general"}"#

    /// A temporary data directory with the given files (name → lines).
    func dataDirectory(_ files: [String: [String]]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ime-composer-data-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, lines) in files {
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent(name))
        }
        return directory
    }

    /// Stops the app with SIGTERM and expects the usual clean exit.
    func expectCleanExit(_ cs: ComposerSession) throws {
        let status = try cs.terminateApp()
        #expect(status == 0, "exit status \(status)\n\(cs.app.diagnostics())")
        try cs.trace.waitFor(event: "exit")
    }

    @Test(.timeLimit(.minutes(2)))
    func aMalformedLineIsReportedWithFileAndLineAndTheAppStillStarts() throws {
        let missingDisplay = #"{"id": "u0003", "name": "novak.jiri", "reading": "", "latin": "jiri novak"}"#
        let data = try dataDirectory([
            "people.jsonl": [Self.tanaka, missingDisplay, Self.kim, #"{"id": "u0004", "#],
            "channels.jsonl": [Self.general],
        ])
        defer { try? FileManager.default.removeItem(at: data) }
        // ComposerSession waits for the trace's "ready": the app started despite the bad lines.
        let cs = try ComposerSession(.gtkSimple, arguments: ["--data", data.path], name: "e2e-data-bad")
        defer { cs.stop() }
        #expect(cs.trace.events(named: "ready").count == 1)
        let stderr = cs.app.stderr
        let people = data.appendingPathComponent("people.jsonl").path
        #expect(stderr.contains("ime-composer: \(people):2: missing \"display\""), "stderr:\n\(stderr)")
        #expect(stderr.contains("ime-composer: \(people):4: invalid JSON"), "stderr:\n\(stderr)")
        #expect(!stderr.contains("channels.jsonl"), "the good file is not mentioned:\n\(stderr)")
        #expect(stderr.contains("2 people and 1 channels"), "the good lines loaded:\n\(stderr)")
        try expectCleanExit(cs)
    }

    @Test(.timeLimit(.minutes(2)))
    func aMissingDataDirectoryIsAClearErrorAndTheAppStartsEmpty() throws {
        let missing = FileManager.default.temporaryDirectory
            .appendingPathComponent("ime-composer-no-such-data-\(UUID().uuidString)").path
        let cs = try ComposerSession(.gtkSimple, arguments: ["--data", missing], name: "e2e-data-missing")
        defer { cs.stop() }
        let stderr = cs.app.stderr
        #expect(stderr.contains("ime-composer: \(missing): no such data directory"), "stderr:\n\(stderr)")
        #expect(stderr.contains("0 people and 0 channels"), "stderr:\n\(stderr)")
        try expectCleanExit(cs)
    }

    /// Without --data: $IME_COMPOSER_DATA first; unset, the source tree's data/ (which
    /// loads without a word on stderr).
    @Test(.timeLimit(.minutes(2)))
    func theDefaultIsTheEnvironmentVariableThenTheSourceTree() throws {
        let data = try dataDirectory(["people.jsonl": [Self.tanaka], "channels.jsonl": [Self.general, "[]"]])
        defer { try? FileManager.default.removeItem(at: data) }
        let fromEnvironment = try ComposerSession(.gtkSimple, environment: ["IME_COMPOSER_DATA": data.path],
                                                  name: "e2e-data-env")
        defer { fromEnvironment.stop() }
        let channels = data.appendingPathComponent("channels.jsonl").path
        let stderr = fromEnvironment.app.stderr
        #expect(stderr.contains("ime-composer: \(channels):2: expected a JSON object"), "stderr:\n\(stderr)")
        try expectCleanExit(fromEnvironment)

        let fromSourceTree = try ComposerSession(.gtkSimple, environment: ["IME_COMPOSER_DATA": ""],
                                                 name: "e2e-data-default")
        defer { fromSourceTree.stop() }
        #expect(!fromSourceTree.app.stderr.contains(".jsonl"), "stderr:\n\(fromSourceTree.app.stderr)")
        #expect(!fromSourceTree.app.stderr.contains("no such data directory"), "stderr:\n\(fromSourceTree.app.stderr)")
        try expectCleanExit(fromSourceTree)
    }
}
