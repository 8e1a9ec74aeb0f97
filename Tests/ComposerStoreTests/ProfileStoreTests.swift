import ComposerCore
@testable import ComposerStore
import Foundation
import GRDB
import Testing

@Suite("The profile store: draft and sent messages in SQLite")
struct ProfileStoreTests {
    @Test("a draft with its composition and caret survives a reopen, as do sent messages")
    func roundTrip() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = try #require(StoreOpener.open(directory: scratch.url).store)
        let draft = Draft(text: "猫がこねこ好き", caret: 5, composing: 2..<5)
        try store.recordSent("first <b>one</b>", draftAfter: .empty)
        try store.recordSent("second", draftAfter: .empty)
        try store.saveDraft(draft)

        let reopened = try #require(StoreOpener.open(directory: scratch.url).store)
        let state = try reopened.load()
        #expect(state.draft == draft)
        #expect(state.messages.map(\.text) == ["first <b>one</b>", "second"])
        #expect(state.messages.allSatisfy { $0.editedAt == nil })
    }

    @Test("the database and its WAL and shared-memory files are readable by their owner only")
    func privateFiles() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let profile = scratch.url.appendingPathComponent("profile/nested")
        try PrivateFiles.prepareDirectory(profile)
        #expect(PrivateFiles.mode(of: profile.path) == 0o700)
        let store = try #require(StoreOpener.open(directory: profile).store)
        try store.saveDraft(Draft(text: "secret", caret: 6))
        for name in [ProfileStore.fileName, ProfileStore.fileName + "-wal", ProfileStore.fileName + "-shm"] {
            #expect(PrivateFiles.mode(of: profile.appendingPathComponent(name).path) == 0o600, "\(name)")
        }
        // A database someone made readable is made private again when opened.
        chmod(profile.appendingPathComponent(ProfileStore.fileName).path, 0o644)
        _ = try #require(StoreOpener.open(directory: profile).store)
        #expect(PrivateFiles.mode(of: profile.appendingPathComponent(ProfileStore.fileName).path) == 0o600)
    }

    @Test("editing the last sent message replaces its text and keeps the others")
    func replaceLast() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = try #require(StoreOpener.open(directory: scratch.url).store)
        try store.recordSent("one", draftAfter: .empty)
        try store.recordSent("tow", draftAfter: .empty)
        try store.replaceLastSent(with: "two", draftAfter: .empty)
        let messages = try store.load().messages
        #expect(messages.map(\.text) == ["one", "two"])
        #expect(messages[0].editedAt == nil)
        #expect(messages[1].editedAt != nil)
    }

    @Test("only the last messages are kept, and a start shows the most recent ones")
    func boundedHistory() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = try #require(StoreOpener.open(directory: scratch.url).store)
        for index in 1...(ProfileStore.keptMessages + 5) { try store.recordSent("m\(index)", draftAfter: .empty) }
        let count = try DatabaseQueue(path: scratch.path(ProfileStore.fileName)).read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM sentMessage")
        }
        #expect(count == ProfileStore.keptMessages)
        let shown = try store.load().messages
        #expect(shown.count == ProfileStore.restoredMessages)
        #expect(shown.last?.text == "m\(ProfileStore.keptMessages + 5)")
    }

    @Test("a draft row with offsets outside its text is clamped, never trusted")
    func clampsOffsets() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = try #require(StoreOpener.open(directory: scratch.url).store)
        try store.saveDraft(Draft(text: "abc", caret: 3))
        try DatabaseQueue(path: scratch.path(ProfileStore.fileName)).write {
            try $0.execute(sql: "UPDATE draft SET caret = 99, composingStart = 2, composingEnd = 40")
        }
        #expect(try store.load().draft == Draft(text: "abc", caret: 3, composing: nil))
    }
}
