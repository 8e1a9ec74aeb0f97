import CGtk
import ComposerCore
import ComposerStore
import GtkBinding

/// Keeps the draft saved while the user types: at most `delay` after input settles with a
/// change, the draft as the user sees it (a composition included) goes to the saver, which
/// writes it off the main thread. Sent and edited messages go at once, with the draft after
/// them. `flush` writes everything before an exit.
///
/// Per keystroke it costs one comparison of `DraftStamp`s; a save, once per delay, copies
/// the pieces of the draft (`DraftPieces`) from the first one changed since the last save.
final class DraftKeeper {
    /// How long a change waits before it is saved: with the write itself, a saved draft is
    /// never more than 0.5 s behind what is on screen.
    static let delayMilliseconds: UInt32 = 300

    let saver: DraftSaver
    private let sources: SourceGroup
    /// The stamp of the draft last handed to the saver; nil until the first settle.
    private var savedStamp: DraftStamp?
    private var timer: UInt32?
    /// Holds a logout off while something is not saved yet (GtkApplication's inhibit).
    private let inhibit: (Bool) -> Void
    private var inhibiting = false
    /// Saves made so far (tests wait on it).
    private(set) var savesRequested = 0
    /// What the store last said that the user must know (shown above the messages).
    private var notice: StoreNotice?

    /// What the window shows of the store's notices after a report.
    enum NoticeChange: Equatable {
        case unchanged
        case show(StoreNotice)
        case hide
    }

    init(saver: DraftSaver, sources: SourceGroup, inhibit: @escaping (Bool) -> Void) {
        self.saver = saver
        self.sources = sources
        self.inhibit = inhibit
    }

    /// Input settled: a changed draft is saved within `delay`.
    func settled(_ model: ComposerModel) {
        guard let savedStamp else {
            // The window's first settle (in its init) is the restored draft itself.
            self.savedStamp = model.draftStamp
            return
        }
        guard timer == nil, model.draftStamp != savedStamp else { return }
        setInhibiting(true)
        timer = sources.timeout(milliseconds: Self.delayMilliseconds) { [weak self, model] in
            self?.timer = nil
            self?.save(model)
            return false
        }
    }

    /// A message was sent (or the last one edited): written now, with the draft after it.
    func sent(_ text: String, edited: Bool, model: ComposerModel) {
        setInhibiting(true)
        savedStamp = model.draftStamp
        if edited {
            saver.replaceLastSent(with: text, draftAfter: model.draft)
        } else {
            saver.recordSent(text, draftAfter: model.draft)
        }
    }

    /// Writes the draft and everything pending before returning (every exit path).
    @discardableResult
    func flush(_ model: ComposerModel) -> StoreNotice? {
        sources.remove(timer)
        timer = nil
        if savedStamp != nil, model.draftStamp != savedStamp { save(model) }
        let notice = saver.flush()
        writesReported()
        return notice
    }

    /// The last exit step: writes like `flush`, then closes the database with everything
    /// checkpointed into its file. Left in the WAL, a draft would be invisible to the
    /// read-only restore (`StoreOpener.readOnlyState`) should the profile be read-only at
    /// the next start.
    @discardableResult
    func close(_ model: ComposerModel) -> StoreNotice? {
        let notice = flush(model)
        return saver.close() ?? notice
    }

    /// The saver finished an attempt (on the main loop): the logout is let go once nothing
    /// is waiting.
    func writesReported() {
        if timer == nil, !saver.hasPending { setInhibiting(false) }
    }

    /// The saver's report on its last attempt (on the main loop): nil means everything is
    /// written, which ends a "cannot save" notice (a damaged file moved aside stays in
    /// view: it is news until the user has seen it in this session).
    func reported(_ notice: StoreNotice?) -> NoticeChange {
        writesReported()
        switch (notice, self.notice) {
        case (nil, .cannotSave?):
            self.notice = nil
            return .hide
        case (nil, _):
            return .unchanged
        case (let notice?, _):
            guard notice != self.notice else { return .unchanged }
            self.notice = notice
            return .show(notice)
        }
    }

    private func save(_ model: ComposerModel) {
        // The pieces changed since the last save asked for: typing at the end of a long
        // draft converts and writes its last piece, not the whole text.
        let update = model.draftUpdate(since: savedStamp)
        savedStamp = model.draftStamp
        savesRequested += 1
        saver.save(update)
    }

    private func setInhibiting(_ on: Bool) {
        guard on != inhibiting else { return }
        inhibiting = on
        inhibit(on)
    }
}
