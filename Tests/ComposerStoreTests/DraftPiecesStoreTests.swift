import ComposerCore
@testable import ComposerStore
import Foundation
import GRDB
import Testing

@Suite("The draft saved in pieces")
struct DraftPiecesStoreTests {
    /// 40,000 scalars of Japanese: several pieces.
    static let long = String(repeating: "日本語の下書き。", count: 5_000)

    /// Replaces saved piece `position`'s text behind the saver's back (what a piece the
    /// saver rewrote would lose).
    static func mark(piece position: Int, in scratch: ScratchDirectory, as text: String) throws {
        try DatabaseQueue(path: scratch.path(ProfileStore.fileName)).write {
            try $0.execute(sql: "UPDATE draftPiece SET text = ? WHERE position = ?", arguments: [text, position])
        }
    }

    /// Types `text` at the end of `model`'s text and saves the update since `stamp`.
    static func type(_ text: String, into model: ComposerModel, since stamp: DraftStamp, saver: DraftSaver) {
        model.applyInsert(at: model.document.scalarCount, text: text, origin: .key)
        saver.save(model.draftUpdate(since: stamp))
    }

    static func load(_ scratch: ScratchDirectory) throws -> Draft {
        try #require(StoreOpener.open(directory: scratch.url).store).load().draft
    }

    @Test("typing at the end of a long draft rewrites its last piece and keeps the others")
    func typingRewritesTheLastPiece() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let saver = DraftSaver(directory: scratch.url, store: nil) { _ in }
        let model = ComposerModel(text: Self.long, caret: 40_000)
        saver.save(model.draftUpdate(since: nil))
        #expect(saver.flush() == nil)
        #expect(try Self.load(scratch) == model.draft)
        try Self.mark(piece: 0, in: scratch, as: "kept")

        Self.type("a", into: model, since: model.draftStamp, saver: saver)
        Self.type("b", into: model, since: model.draftStamp, saver: saver)  // coalesced with "a" if not written yet
        #expect(saver.flush() == nil)
        let saved = try Self.load(scratch)
        #expect(saved.text.hasPrefix("kept"), "piece 0 was written again")
        #expect(saved.text.hasSuffix("日本語の下書き。ab"))
        #expect(saved.caret == 40_002 - DraftPieces.scalars + 4, "clamped into the text with the marked piece")
        saver.close()
    }

    @Test("after another window saved its draft, the next save writes every piece: nothing torn")
    func anotherWindowsDraft() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let mine = DraftSaver(directory: scratch.url, store: nil) { _ in }
        let other = DraftSaver(directory: scratch.url, store: nil) { _ in }
        let model = ComposerModel(text: Self.long, caret: 40_000)
        mine.save(model.draftUpdate(since: nil))
        #expect(mine.flush() == nil)
        let otherModel = ComposerModel(text: String(repeating: "other ", count: 8_000), caret: 0)
        other.save(otherModel.draftUpdate(since: nil))
        #expect(other.flush() == nil)
        #expect(try Self.load(scratch) == otherModel.draft)

        Self.type("a", into: model, since: model.draftStamp, saver: mine)
        #expect(mine.flush() == nil)
        #expect(try Self.load(scratch) == model.draft)
        mine.close()
        other.close()
    }

    @Test("after a message's write (the draft whole), the next save writes every piece")
    func afterAMessage() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let saver = DraftSaver(directory: scratch.url, store: nil) { _ in }
        let model = ComposerModel(text: Self.long, caret: 40_000)
        saver.save(model.draftUpdate(since: nil))
        saver.recordSent("hello", draftAfter: model.draft)
        #expect(saver.flush() == nil)
        Self.type("a", into: model, since: model.draftStamp, saver: saver)
        #expect(saver.flush() == nil)
        #expect(try Self.load(scratch) == model.draft)
        let pieces = try DatabaseQueue(path: scratch.path(ProfileStore.fileName)).read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM draftPiece")
        }
        #expect(pieces == (40_001 + DraftPieces.scalars - 1) / DraftPieces.scalars)
        saver.close()
    }

    @Test("a draft in pieces is restored the read-only way too")
    func readOnlyRestore() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let saver = DraftSaver(directory: scratch.url, store: nil) { _ in }
        let model = ComposerModel(text: Self.long, caret: 5)
        saver.save(model.draftUpdate(since: nil))
        #expect(saver.close() == nil)
        #expect(StoreOpener.readOnlyState(directory: scratch.url)?.draft == model.draft)
    }
}
