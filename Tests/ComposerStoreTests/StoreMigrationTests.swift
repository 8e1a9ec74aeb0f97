import ComposerCore
@testable import ComposerStore
import Foundation
import Synchronization
import GRDB
import Testing

@Suite("Store migrations")
struct StoreMigrationTests {
    /// Two windows (or a window and a reader) opening a new profile at the same moment:
    /// each connection's migrator read "nothing applied" before the other's transaction
    /// committed, and the second failed ("duplicate column name: editedAt", seen in the
    /// GTK suite), so saving was reported off for a profile that was fine.
    @Test("two stores opening a new database at once both open it, migrated once")
    func concurrentOpensOfANewDatabase() throws {
        for _ in 0..<40 {
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }
            let url = scratch.url.appendingPathComponent(ProfileStore.fileName)
            let results = Mutex<[String]>([])
            let group = DispatchGroup()
            for _ in 0..<3 {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    do {
                        let store = try ProfileStore(url: url)
                        try store.saveDraft(Draft(text: "x", caret: 1))
                        results.withLock { $0.append("ok") }
                    } catch {
                        results.withLock { $0.append("\(error)") }
                    }
                }
            }
            group.wait()
            #expect(results.withLock { $0 } == ["ok", "ok", "ok"])
            let store = try ProfileStore(url: url)
            #expect(try store.appliedMigrations() == ["v1: draft and sent messages", "v2: edited messages", "v3: draft pieces"])
        }
    }

    @Test("a database of the first version is migrated on open, its draft and messages intact")
    func migratesVersionOne() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path(ProfileStore.fileName)
        do {
            let old = try DatabasePool(path: path)
            try StoreSchema.migrator.migrate(old, upTo: "v1: draft and sent messages")
            try old.write { db in
                try db.execute(sql: "INSERT INTO draft (id, text, caret, savedAt) VALUES (1, 'old draft', 3, 0)")
                try db.execute(sql: "INSERT INTO sentMessage (text, sentAt) VALUES ('old message', 0)")
            }
            #expect(try old.read { try $0.columns(in: "sentMessage").map(\.name) } == ["id", "text", "sentAt"])
        }
        let store = try #require(StoreOpener.open(directory: scratch.url).store)
        #expect(try store.appliedMigrations() == ["v1: draft and sent messages", "v2: edited messages", "v3: draft pieces"])
        let state = try store.load()
        #expect(state.draft == Draft(text: "old draft", caret: 3))
        #expect(state.messages.map(\.text) == ["old message"])
        try store.replaceLastSent(with: "edited", draftAfter: .empty)
        #expect(try store.load().messages.first?.editedAt != nil)
    }

    @Test("a database from a newer version is left untouched, and saving is reported off")
    func newerVersionUntouched() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = try #require(StoreOpener.open(directory: scratch.url).store)
        try store.saveDraft(Draft(text: "from the future", caret: 0))
        let path = scratch.path(ProfileStore.fileName)
        try DatabaseQueue(path: path).write {
            try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from a newer version')")
        }
        let opened = StoreOpener.open(directory: scratch.url)
        #expect(opened.store == nil)
        guard case .cannotSave(let reported, let reason) = opened.notice else {
            Issue.record("expected cannotSave, got \(String(describing: opened.notice))")
            return
        }
        #expect(reported == path)
        #expect(reason.contains("newer version"))
        let left = try DatabaseQueue(path: path).read { try String.fetchOne($0, sql: "SELECT text FROM draft") }
        #expect(left == "from the future")
    }
}
