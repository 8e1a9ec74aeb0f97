import ComposerCore
import Foundation
import Testing

@Suite("RecentItems: most recent first, bounded, persisted in the profile")
struct RecentItemsTests {
    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("recent-items-\(UUID().uuidString)")
    }

    @Test func mostRecentFirstWithoutRepeats() {
        let recents = RecentItems()
        recents.record("u1", source: "people")
        recents.record("u2", source: "people")
        recents.record("u1", source: "people")
        recents.record("1f431", source: "emoji")
        #expect(recents.items(for: "people") == ["u1", "u2"])
        #expect(recents.items(for: "emoji") == ["1f431"])
        #expect(recents.items(for: "channels") == [])
    }

    @Test func bounded() {
        let recents = RecentItems(capacity: 3)
        for index in 0..<10 { recents.record("u\(index)", source: "people") }
        #expect(recents.items(for: "people") == ["u9", "u8", "u7"])
        #expect(RecentItems().capacity == 50)
    }

    @Test func persistsAsJSONInTheGivenDirectory() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recents = RecentItems(directory: directory)
        recents.record("u0001", source: "people")
        recents.record("u0215", source: "people")
        recents.record("1f431", source: "emoji")
        #expect(recents.problem == nil)
        let file = directory.appendingPathComponent(RecentItems.fileName)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == #"{"version":1,"sources":{"emoji":["1f431"],"people":["u0215","u0001"]}}"# + "\n")
        let reloaded = RecentItems(directory: directory)
        #expect(reloaded.lists == recents.lists && reloaded.problem == nil)
    }

    @Test func aBrokenFileIsReportedAndReplaced() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(RecentItems.fileName)
        try Data("{not json".utf8).write(to: file)
        let recents = RecentItems(directory: directory)
        #expect(recents.problem != nil && recents.lists.isEmpty)
        recents.record("u1", source: "people")
        #expect(recents.problem == nil)
        #expect(RecentItems(directory: directory).items(for: "people") == ["u1"])
    }

    @Test func aLoadedFileIsBoundedToo() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ids = (0..<80).map { "\"u\($0)\"" }.joined(separator: ",")
        try Data(#"{"version":1,"sources":{"people":[\#(ids)]}}"#.utf8)
            .write(to: directory.appendingPathComponent(RecentItems.fileName))
        #expect(RecentItems(directory: directory).items(for: "people").count == 50)
    }
}
