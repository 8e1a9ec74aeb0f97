import ComposerCore
import Foundation

/// Writes the draft and the sent messages off the main thread, in the order they were
/// asked for, and never loses one while the disk says no.
///
/// The window asks (`save`, `recordSent`, `replaceLastSent`) and goes on; a thread of
/// its own writes (`SerialWorker`). Drafts coalesce: an update not yet written is merged
/// into the newer one, so a slow disk never builds a backlog. A draft is written in pieces
/// (`DraftPieces`), only those from the first one changed since the last write while the
/// database holds this saver's pieces. A write that fails (a full disk, a read-only
/// profile) keeps what it could not write and tries again with the next request or
/// `flush`; `report` hears how each attempt went (nil: all written), on the queue.
///
/// After a write that changed the kept draft's size by `largeChangeBytes` or more since
/// the last such write (a long paste saved, a long draft sent or cleared), `afterLargeChange`
/// runs on the queue: the app gives back to the system the memory freed around the change
/// (after a 10 MB paste, 53 MB that glibc kept: issue #35).
public final class DraftSaver: @unchecked Sendable {
    /// A change of the kept draft this large (UTF-8 bytes) calls `afterLargeChange`.
    public static let largeChangeBytes = 1 << 20

    public let directory: URL
    private let queue = SerialWorker(name: "profile store")  // a thread name: 15 bytes at most on Linux
    private let report: @Sendable (StoreNotice?) -> Void
    private let afterLargeChange: @Sendable () -> Void
    /// The size of the draft written by the last write that called `afterLargeChange` (the
    /// queue's only).
    private var bytesAtLastLargeChange = 0
    /// Guards `pendingDraft` and `pendingMessages`, which the main thread fills.
    private let lock = NSLock()
    /// The draft update not written yet, with its number (`requests`).
    private var pendingDraft: (number: Int, update: DraftUpdate)?
    private var requests = 0
    private var pendingMessages: [MessageWrite] = []
    /// Names this saver's pieces in the database (another window's saver has its own).
    private let writer = UUID().uuidString
    /// The UTF-8 size of each piece this saver last wrote, when the database holds them as
    /// it wrote them (the queue's only): nil after a message's write or a failure.
    private var writtenPieceBytes: [Int]?
    /// The open store (the queue's only): nil until it could be opened.
    private var store: ProfileStore?

    /// - Parameter store: the store opened at start, or nil (none yet: it is created with
    ///   the first write; or it could not be opened: it is tried again then).
    public init(directory: URL, store: ProfileStore?, report: @escaping @Sendable (StoreNotice?) -> Void,
                afterLargeChange: @escaping @Sendable () -> Void = {}) {
        self.directory = directory
        self.store = store
        self.report = report
        self.afterLargeChange = afterLargeChange
    }

    /// Saves `draft` soon (replacing any draft not yet written).
    public func save(_ draft: Draft) {
        save(DraftUpdate(draft))
    }

    /// Saves `update` soon: an update of the draft asked for before it (written or not), as
    /// `ComposerModel.draftUpdate(since:)` makes them.
    public func save(_ update: DraftUpdate) {
        lock.withLock {
            requests += 1
            pendingDraft = (requests, pendingDraft.map { update.after($0.update) } ?? update)
        }
        queue.async { self.writePending() }
    }

    /// Keeps a sent message, and the draft after it in the same transaction.
    public func recordSent(_ text: String, draftAfter draft: Draft) {
        enqueue(MessageWrite(kind: .sent, text: text, draftAfter: draft, date: Date()))
    }

    /// Replaces the last sent message's text (it was edited), with the draft after it.
    public func replaceLastSent(with text: String, draftAfter draft: Draft) {
        enqueue(MessageWrite(kind: .edited, text: text, draftAfter: draft, date: Date()))
    }

    /// Whether something asked for is not written yet (waiting, or failing): a logout is
    /// inhibited while it is.
    public var hasPending: Bool {
        lock.withLock { pendingDraft != nil || !pendingMessages.isEmpty }
    }

    /// Writes everything asked for so far before returning (every exit path calls it).
    /// - Returns: the notice if something could not be written.
    @discardableResult
    public func flush() -> StoreNotice? {
        queue.sync { self.writePending() }
    }

    /// Writes everything asked for so far, then closes the database: its files are closed
    /// when this returns, not whenever the saver's worker lets the store go. A later request
    /// opens it again.
    /// - Returns: the notice if something could not be written.
    @discardableResult
    public func close() -> StoreNotice? {
        queue.sync {
            let notice = self.writePending()
            try? self.store?.close()
            self.store = nil
            return notice
        }
    }

    private func enqueue(_ write: MessageWrite) {
        lock.withLock {
            pendingMessages.append(write)
            pendingDraft = nil  // the message's own transaction writes the draft after it
        }
        queue.async { self.writePending() }
    }

    /// On the queue: writes the pending messages, oldest first, then the pending draft.
    @discardableResult
    private func writePending() -> StoreNotice? {
        let (messages, draft) = lock.withLock { (pendingMessages, pendingDraft) }
        guard !messages.isEmpty || draft != nil else { return nil }
        var openNotice: StoreNotice?
        if store == nil {
            let opened = StoreOpener.open(directory: directory)
            store = opened.store
            openNotice = opened.notice
        }
        guard let store else {
            report(openNotice)
            return openNotice
        }
        do {
            if !messages.isEmpty { writtenPieceBytes = nil }  // a message's write replaces the draft whole
            for message in messages {
                switch message.kind {
                case .sent: try store.recordSent(message.text, draftAfter: message.draftAfter, at: message.date)
                case .edited: try store.replaceLastSent(with: message.text, draftAfter: message.draftAfter, at: message.date)
                }
                lock.withLock { _ = pendingMessages.removeFirst() }
            }
            var bytes = messages.last.map { $0.draftAfter.text.utf8.count }
            if let draft {
                // Until this write is done, the database may hold some of its pieces, or none.
                let before = writtenPieceBytes
                writtenPieceBytes = nil
                let keeps = before.map { draft.update.first <= $0.count } ?? false
                let written = try store.saveDraft(draft.update, writer: writer, keepsPieces: keeps)
                let pieceBytes = Array((before ?? []).prefix(written.first)) + written.pieces.map(\.utf8.count)
                writtenPieceBytes = pieceBytes
                bytes = pieceBytes.reduce(0, +)
                lock.withLock { if pendingDraft?.number == draft.number { pendingDraft = nil } }
            }
            if let bytes {
                if abs(bytes - bytesAtLastLargeChange) >= Self.largeChangeBytes {
                    bytesAtLastLargeChange = bytes
                    afterLargeChange()
                }
            }
        } catch {
            let notice = StoreNotice.cannotSave(path: store.url.path, reason: StoreOpener.describe(error))
            report(notice)
            return notice
        }
        // A damaged file moved aside is news even when the write then worked.
        report(openNotice)
        return openNotice
    }
}

/// A sent or edited message waiting to be written.
private struct MessageWrite {
    enum Kind { case sent, edited }
    let kind: Kind
    let text: String
    let draftAfter: Draft
    let date: Date
}
