import ComposerCore
@testable import ComposerStore
import Foundation
import GRDB
import Testing

@Suite("A damaged database is moved aside; a fresh one starts")
struct StoreRecoveryTests {
    @Test("a file that is not a database is moved aside, kept byte for byte, and a fresh store works")
    func notADatabase() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path(ProfileStore.fileName)
        let garbage = Data(String(repeating: "this is not SQLite ", count: 300).utf8)
        try garbage.write(to: URL(fileURLWithPath: path))

        let opened = StoreOpener.open(directory: scratch.url)
        let store = try #require(opened.store)
        guard case .movedAside(let reported, let movedTo, let reason) = opened.notice else {
            Issue.record("expected movedAside, got \(String(describing: opened.notice))")
            return
        }
        #expect(reported == path)
        #expect(movedTo.hasPrefix(path + ".damaged-"))
        #expect(reason == "file is not a database")
        #expect(FileManager.default.contents(atPath: movedTo) == garbage)
        #expect(opened.notice?.description.contains(movedTo) == true)
        try store.saveDraft(Draft(text: "fresh", caret: 5))
        #expect(try store.load().draft.text == "fresh")
    }

    @Test("a database with damaged pages is moved aside with its WAL")
    func damagedPages() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path(ProfileStore.fileName)
        do {
            let store = try #require(StoreOpener.open(directory: scratch.url).store)
            for index in 0..<200 { try store.recordSent(String(repeating: "message \(index) ", count: 40), draftAfter: .empty) }
        }
        // Overwrite the pages after the first (the header stays valid: SQLite opens it and
        // finds the damage when it reads the tables).
        try DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096 * 6))
        try handle.close()

        let opened = StoreOpener.open(directory: scratch.url)
        #expect(opened.store != nil)
        guard case .movedAside(_, let movedTo, _) = opened.notice else {
            Issue.record("expected movedAside, got \(String(describing: opened.notice))")
            return
        }
        #expect(FileManager.default.fileExists(atPath: movedTo))
        #expect(try opened.store?.load().messages.isEmpty == true)
    }
}

@Suite("Concurrent saves")
struct StoreConcurrencyTests {
    @Test("two stores on one file (two windows on one profile) saving from many threads: no error, nothing torn")
    func concurrentSaves() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let first = try #require(StoreOpener.open(directory: scratch.url).store)
        let second = try #require(StoreOpener.open(directory: scratch.url).store)
        let writers = 6, rounds = 60
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                let store = writer.isMultiple(of: 2) ? first : second
                group.addTask {
                    for round in 0..<rounds {
                        let text = "writer \(writer) round \(round) " + String(repeating: "字", count: round * 10)
                        try store.saveDraft(Draft(text: text, caret: text.unicodeScalars.count))
                        if round.isMultiple(of: 10) { try store.recordSent("w\(writer) r\(round)", draftAfter: .empty) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let state = try first.load()
        // Whichever save was last, it is whole: its caret is its own text's end.
        #expect(state.draft.text.hasPrefix("writer "))
        #expect(state.draft.caret == state.draft.text.unicodeScalars.count)
        #expect(state.messages.count == writers * (rounds / 10))
        let check = try await DatabaseQueue(path: scratch.path(ProfileStore.fileName)).read {
            try String.fetchOne($0, sql: "PRAGMA integrity_check")
        }
        #expect(check == "ok")
    }
}
