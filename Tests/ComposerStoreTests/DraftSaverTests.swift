import ComposerCore
@testable import ComposerStore
import Foundation
import Testing

/// The saver's reports, collected across threads.
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var notices: [StoreNotice?] = []
    func add(_ notice: StoreNotice?) { lock.withLock { notices.append(notice) } }
    var all: [StoreNotice?] { lock.withLock { notices } }
}

@Suite("Saving off the main thread")
struct DraftSaverTests {
    @Test("a long paste saved, and the long draft then sent, each give memory back once; typing does not")
    func largeChanges() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let calls = Reports()
        let saver = DraftSaver(directory: scratch.url, store: nil, report: { _ in }, afterLargeChange: { calls.add(nil) })
        let long = String(repeating: "日本語の下書き。", count: DraftSaver.largeChangeBytes / 24 + 1)
        #expect(long.utf8.count >= DraftSaver.largeChangeBytes)
        saver.save(Draft(text: "hello", caret: 5))
        #expect(saver.flush() == nil)
        #expect(calls.all.isEmpty)
        saver.save(Draft(text: "hello" + long, caret: 5))  // a paste
        #expect(saver.flush() == nil)
        #expect(calls.all.count == 1)
        for typed in ["a", "ab", "abc"] {  // typing into the long draft
            saver.save(Draft(text: "hello" + long + typed, caret: 5))
            #expect(saver.flush() == nil)
        }
        #expect(calls.all.count == 1)
        saver.recordSent("hello" + long + "abc", draftAfter: .empty)  // sent: the draft is empty again
        #expect(saver.flush() == nil)
        #expect(calls.all.count == 2)
    }

    @Test("writes in the order asked: a message, then the drafts after it; the last draft wins")
    func order() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let reports = Reports()
        let saver = DraftSaver(directory: scratch.url, store: nil) { reports.add($0) }
        saver.save(Draft(text: "hello", caret: 5))
        saver.recordSent("hello", draftAfter: .empty)
        saver.save(Draft(text: "next", caret: 4))
        saver.save(Draft(text: "next one", caret: 8, composing: 5..<8))
        #expect(saver.flush() == nil)
        let state = try #require(StoreOpener.open(directory: scratch.url).store).load()
        #expect(state.messages.map(\.text) == ["hello"])
        #expect(state.draft == Draft(text: "next one", caret: 8, composing: 5..<8))
        #expect(reports.all.allSatisfy { $0 == nil })
    }

    @Test("a full disk is reported, nothing is lost, and saving resumes once there is room",
          .enabled(if: SmallDisk.canMount, "mounting a small tmpfs needs root"))
    func fullDisk() throws {
        let disk = try SmallDisk(kilobytes: 512)
        defer { disk.unmount() }
        let reports = Reports()
        let saver = DraftSaver(directory: disk.url, store: nil) { reports.add($0) }
        saver.save(Draft(text: "before", caret: 6))
        #expect(saver.flush() == nil)

        try disk.fill()
        let big = String(repeating: "満杯のディスク ", count: 20_000)  // ~0.5 MB: needs new pages
        saver.recordSent("sent while full", draftAfter: .empty)
        saver.save(Draft(text: big, caret: 0))
        let notice = saver.flush()
        guard case .cannotSave(_, let reason) = notice else {
            Issue.record("expected cannotSave, got \(String(describing: notice))")
            return
        }
        #expect(reason.contains("full"))

        try disk.free()
        saver.save(Draft(text: "after", caret: 5))
        #expect(saver.flush() == nil)
        #expect(reports.all.last == .some(nil))
        let state = try #require(StoreOpener.open(directory: disk.url).store).load()
        #expect(state.messages.map(\.text) == ["sent while full"])
        #expect(state.draft.text == "after")
    }

    @Test("a draft left in the WAL by a process that never closed the database is read the read-only way")
    func walLeftBehind() throws {
        let written = try ScratchDirectory()
        defer { written.remove() }
        let saver = DraftSaver(directory: written.url, store: nil) { _ in }
        saver.recordSent("sent before", draftAfter: .empty)
        saver.save(Draft(text: "only in the WAL", caret: 4))
        #expect(saver.flush() == nil)
        // What a killed app leaves: the files as they are while the database is still open.
        let left = try ScratchDirectory()
        defer { left.remove() }
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: written.path(ProfileStore.fileName + suffix),
                                             toPath: left.path(ProfileStore.fileName + suffix))
        }
        let walSize = try FileManager.default.attributesOfItem(atPath: left.path(ProfileStore.fileName + "-wal"))[.size] as? Int
        #expect((walSize ?? 0) > 0, "nothing in the WAL: the test would prove nothing")
        let restored = try #require(StoreOpener.readOnlyState(directory: left.url))
        #expect(restored.draft.text == "only in the WAL")
        #expect(restored.messages.map(\.text) == ["sent before"])
        // Read without writing: the profile's files are as they were, no copy left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: left.url.path).sorted()
                == [ProfileStore.fileName, ProfileStore.fileName + "-wal"])
        saver.close()
    }

    @Test("a read-only profile is reported, its saved draft is still restored and left as it was",
          .enabled(if: SmallDisk.canMount, "mounting a small tmpfs needs root"))
    func readOnly() throws {
        let disk = try SmallDisk(kilobytes: 1024)
        defer { disk.unmount() }
        do {
            let saver = DraftSaver(directory: disk.url, store: nil) { _ in }
            saver.recordSent("sent before", draftAfter: .empty)
            saver.save(Draft(text: "kept", caret: 4))
            // Closed here, not when the saver's worker thread lets the store go: a file
            // still open for writing makes the read-only remount fail (EBUSY), which it did
            // once in eight runs on a loaded machine.
            #expect(saver.close() == nil)
        }
        try disk.remount(readOnly: true)
        let opened = StoreOpener.open(directory: disk.url)
        #expect(opened.store == nil)
        guard case .cannotSave(_, let reason) = opened.notice else {
            Issue.record("a read-only profile was not reported: \(String(describing: opened.notice))")
            return
        }
        #expect(!reason.isEmpty)
        let restored = try #require(StoreOpener.readOnlyState(directory: disk.url))
        #expect(restored.draft.text == "kept")
        #expect(restored.messages.map(\.text) == ["sent before"])

        let reports = Reports()
        let saver = DraftSaver(directory: disk.url, store: nil) { reports.add($0) }
        saver.save(Draft(text: "cannot be written", caret: 0))
        guard case .cannotSave = saver.flush() else {
            Issue.record("saving to a read-only profile was not reported")
            return
        }
        // Every attempt (the save's own and the flush's retry) is reported as failing.
        #expect(!reports.all.isEmpty)
        #expect(reports.all.allSatisfy { if case .cannotSave = $0 { true } else { false } })
    }
}
