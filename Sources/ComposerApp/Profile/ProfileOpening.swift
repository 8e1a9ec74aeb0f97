import ComposerCore
import ComposerStore
import Foundation
import GtkBinding

/// The profile's store as a start finds it: what to restore, the saver, and what the user
/// must be told.
public nonisolated struct ProfileOpening: Sendable {
    public let saver: DraftSaver
    /// The draft and the most recent sent messages (empty for a new profile).
    public let restored: SavedState
    /// A damaged database moved aside, or saving off (read-only, full, newer version).
    public let notice: StoreNotice?
    /// Where the saver's reports go, on the main loop (the window sets its handler).
    public let reports: StoreReports

    /// Opens the store in `directory` before the window exists. A database that exists is
    /// opened (and repaired or moved aside) and read now: its draft must be in the first
    /// frame. A new profile writes nothing until there is something to keep, so a start
    /// costs no file creation or fsync (the saver creates the database with its first write).
    public static func open(directory: String) -> ProfileOpening {
        let url = URL(fileURLWithPath: directory)
        let reports = StoreReports()
        let report: @Sendable (StoreNotice?) -> Void = { notice in MainLoop.post { reports.deliver(notice) } }
        /// The saver gives memory back after a long paste or a long draft sent, once the main
        /// loop has laid the text out (`FreedMemory`).
        func saver(store: ProfileStore?) -> DraftSaver {
            DraftSaver(directory: url, store: store, report: report, afterLargeChange: { FreedMemory.giveBackOnceIdle() })
        }
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent(ProfileStore.fileName).path) else {
            return ProfileOpening(saver: saver(store: nil), restored: .empty, notice: nil, reports: reports)
        }
        let (store, openNotice) = StoreOpener.open(directory: url)
        var notice = openNotice
        var restored = SavedState.empty
        if let store {
            do {
                restored = try store.load()
            } catch {
                notice = .cannotSave(path: store.url.path, reason: StoreOpener.describe(error))
            }
        } else if let readable = StoreOpener.readOnlyState(directory: url) {
            restored = readable  // read-only: restored, and saving is reported off
        }
        return ProfileOpening(saver: saver(store: store), restored: restored, notice: notice, reports: reports)
    }
}

/// The saver's reports, handed to the window on the main loop.
public nonisolated final class StoreReports: @unchecked Sendable {
    /// Set and called on the main thread only.
    @MainActor var handler: ((StoreNotice?) -> Void)?

    nonisolated init() {}

    @MainActor func deliver(_ notice: StoreNotice?) { handler?(notice) }
}

extension ComposerOptions {
    /// These options with the saved draft as the starting text, unless the command line
    /// gave one (`restoresDraft`).
    public func restoring(_ profile: ProfileOpening) -> ComposerOptions {
        guard restoresDraft, !profile.restored.draft.isEmpty else { return self }
        var options = self
        options.initialText = profile.restored.draft.text
        options.caret = profile.restored.draft.caret
        return options
    }
}
