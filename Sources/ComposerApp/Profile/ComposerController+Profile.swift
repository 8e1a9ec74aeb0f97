import CGtk
import ComposerCore
import ComposerStore
import Foundation
import GtkBinding

/// The window's side of the profile's store: restored messages, the saver's reports, the
/// notice in a toast.
extension ComposerController {
    /// Starts keeping the draft and the messages in `profile` (from `init`).
    func keep(_ profile: ProfileOpening) {
        draftKeeper = DraftKeeper(saver: profile.saver, sources: sources) { [weak self] on in
            self?.inhibitLogout(on)
        }
        profile.reports.handler = { [weak self] notice in self?.storeReported(notice) }
        if let notice = profile.notice { storeReported(notice) }
        let messages = profile.restored.messages
        guard let last = messages.last else { return }
        forward(.historyRestored(lastSent: last.text))
        // After the first frame: a long history must not delay the draft's appearance.
        afterFirstFrame { [weak self] in
            guard let self, !destroyed else { return }
            for message in messages { ui.messageList.append(message.text) }
        }
    }

    /// The saver's report on its last attempt: the keeper decides what is shown of it.
    func storeReported(_ notice: StoreNotice?) {
        guard !destroyed, let draftKeeper else { return }
        switch draftKeeper.reported(notice) {
        case .unchanged:
            return
        case .hide:
            ui.showStoreNotice(nil)
        case .show(let notice):
            ui.showStoreNotice(notice.text)
            FileHandle.standardError.write(Data("ime-composer: \(notice)\n".utf8))
        }
    }

    /// The store's notice while its toast is on screen, or nil (tests).
    public var storeNoticeShown: String? {
        guard let notice = ui.noticeShown, ui.toastTexts.contains(notice) else { return nil }
        return notice
    }

    /// What the Send button says ("Save" while the last message is edited) (tests).
    public var sendButtonLabel: String { string(fromBorrowed: gtk_button_get_label(cast(ui.sendButton))) }

    /// The texts of the message list as shown (tests).
    public var shownMessages: [String] { ui.messageList.shownTexts }

    /// Drafts handed to the saver so far (tests wait on it).
    @_spi(Testing) public var savesRequested: Int { draftKeeper?.savesRequested ?? 0 }

    /// Writes the draft and everything pending now (tests; every exit path does it).
    public func flushProfile() { draftKeeper?.flush(model) }

    /// Writes what is pending and closes the profile's database (the process is ending).
    public func closeProfile() { draftKeeper?.close(model) }
}
