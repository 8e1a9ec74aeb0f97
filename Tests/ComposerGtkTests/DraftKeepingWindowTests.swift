import CGtk
import GtkBinding
@_spi(Testing) import ComposerApp
import ComposerCore
import ComposerStore
import Foundation
import Glibc
import Testing

extension GtkWindowSuites {
    /// The window keeps its draft and sent messages in the profile (#15): saved as input
    /// settles, restored by the next window, problems shown in the window while typing goes on.
    @MainActor
    @Suite struct DraftKeepingWindowTests {
        /// What the profile holds now, read as a second window would.
        static func saved(_ profile: String) -> SavedState {
            ProfileOpening.open(directory: profile).restored
        }

        @Test func theDraftAndSentMessagesComeBackInTheNextWindow() async throws {
            let profileDirectory = try GtkFixture.newProfile()
            let options = ComposerOptions(profileDirectory: profileDirectory, restoresDraft: true)
            let first = ProfileOpening.open(directory: profileDirectory)
            var inhibits: [Bool] = []
            let (composer, _) = try await GtkFixture.composer(options.restoring(first), profile: first)
            composer.inhibitLogout = { inhibits.append($0) }
            try GtkFixture.xdotool.type("hello <b>")
            try GtkFixture.xdotool.key(["Return"])
            try await GtkFixture.wait("the sent message in the profile") { Self.saved(profileDirectory).messages.count == 1 }
            try GtkFixture.xdotool.type("half a thought")
            try await GtkFixture.wait("the draft in the profile") { Self.saved(profileDirectory).draft.text == "half a thought" }
            try await GtkFixture.wait("the logout let go once saved") { inhibits.last == false }
            #expect(inhibits.first == true, "a logout is inhibited while a save is pending")
            #expect(!inhibits.isEmpty && zip(inhibits, inhibits.dropFirst()).allSatisfy { $0 != $1 }, "\(inhibits)")
            GtkFixture.close(composer)

            let second = ProfileOpening.open(directory: profileDirectory)
            let (restored, _) = try await GtkFixture.composer(options.restoring(second), profile: second)
            defer { GtkFixture.close(restored) }
            #expect(restored.model.text == "half a thought")
            #expect(restored.model.selection.caret == "half a thought".unicodeScalars.count)
            try await GtkFixture.wait("the sent message back in the list") { restored.shownMessages == ["hello <b>"] }
            #expect(restored.storeNoticeShown == nil)
        }

        @Test func upInAnEmptyInputEditsTheLastMessageSentBeforeTheWindowOpened() async throws {
            let profileDirectory = try GtkFixture.newProfile()
            let store = try #require(StoreOpener.open(directory: URL(fileURLWithPath: profileDirectory)).store)
            try store.recordSent("older", draftAfter: .empty)
            try store.recordSent("see you tomorow", draftAfter: .empty)
            let profile = ProfileOpening.open(directory: profileDirectory)
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(profileDirectory: profileDirectory, restoresDraft: true), profile: profile)
            defer { GtkFixture.close(composer) }
            try await GtkFixture.wait("the history in the list") { composer.shownMessages == ["older", "see you tomorow"] }
            #expect(composer.composer.lastSent == "see you tomorow")

            try GtkFixture.xdotool.key(["Up"])
            try await GtkFixture.settled(composer, "the last message in the input") { composer.model.text == "see you tomorow" }
            #expect(composer.sendButtonLabel == "Save")
            try GtkFixture.xdotool.key(["BackSpace", "BackSpace"])
            try GtkFixture.xdotool.type("row")
            try await GtkFixture.settled(composer, "the fix") { composer.model.text == "see you tomorrow" }
            try GtkFixture.xdotool.key(["Return"])
            try await GtkFixture.wait("the edited message in its place") {
                composer.shownMessages == ["older", "see you tomorrow"]
            }
            #expect(composer.sendButtonLabel == "Send")
            #expect(composer.model.text.isEmpty)
            try await GtkFixture.wait("the edit in the profile") {
                Self.saved(profileDirectory).messages.map(\.text) == ["older", "see you tomorrow"]
            }
            #expect(Self.saved(profileDirectory).messages.last?.editedAt != nil)
        }

        @Test func closingTheWindowRightAfterTypingKeepsTheDraft() async throws {
            let profileDirectory = try GtkFixture.newProfile()
            let profile = ProfileOpening.open(directory: profileDirectory)
            let (composer, quit) = try await GtkFixture.composer(
                ComposerOptions(profileDirectory: profileDirectory, restoresDraft: true), profile: profile)
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("closing now")
            try await GtkFixture.wait("the text") { composer.model.text == "closing now" }
            // The window manager's close button: close-request, the exit, the flush.
            gtk_window_close(cast(composer.window))
            #expect(quit.count == 1)
            #expect(Self.saved(profileDirectory).draft.text == "closing now", "written before the app quits")
        }

        @Test func textGivenOnTheCommandLineStartsInsteadOfTheDraft() async throws {
            let profileDirectory = try GtkFixture.newProfile()
            try #require(StoreOpener.open(directory: URL(fileURLWithPath: profileDirectory)).store)
                .saveDraft(Draft(text: "saved draft", caret: 0))
            let profile = ProfileOpening.open(directory: profileDirectory)
            let given = ComposerOptions(initialText: "given", profileDirectory: profileDirectory, restoresDraft: false)
            #expect(given.restoring(profile).initialText == "given")
            let restored = ComposerOptions(profileDirectory: profileDirectory, restoresDraft: true).restoring(profile)
            #expect(restored.initialText == "saved draft")
            #expect(restored.caret == 0)
        }

        /// A composer whose profile cannot be written: a directory where the database should
        /// be. SQLite cannot open it, and it is not a damaged file to move aside (as a full disk
        /// or a read-only profile, but for root too). Returns the composer, the profile and
        /// the obstacle.
        static func composerWithAnUnwritableProfile() async throws -> (ComposerController, String, URL) {
            let profileDirectory = try GtkFixture.newProfile()
            let blocker = URL(fileURLWithPath: profileDirectory).appendingPathComponent(ProfileStore.fileName)
            try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
            let profile = ProfileOpening.open(directory: profileDirectory)
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(profileDirectory: profileDirectory, restoresDraft: true), profile: profile)
            return (composer, profileDirectory, blocker)
        }

        @Test func aProfileThatCannotBeWrittenIsShownInTheWindowAndTypingGoesOn() async throws {
            let (composer, profileDirectory, blocker) = try await Self.composerWithAnUnwritableProfile()
            defer { GtkFixture.close(composer) }
            let notice = try #require(composer.storeNoticeShown)
            #expect(notice.contains(blocker.path) && notice.contains("Typing goes on"), "\(notice)")
            // libadwaita 1.2 does not announce a toast: the input, which a screen reader
            // follows, says it in its description.
            #expect(composer.inputDescription == notice)

            try GtkFixture.xdotool.type("still typing")
            try await GtkFixture.settled(composer, "the text") { composer.model.text == "still typing" }
            #expect(composer.storeNoticeShown != nil)

            // The obstacle goes: the next save works and the notice goes with it.
            try FileManager.default.removeItem(at: blocker)
            try GtkFixture.xdotool.type("!")
            // A save of the draft before "!" may be the first to work (its delay can end
            // after the obstacle went): the notice goes then, and the "!" follows.
            try await GtkFixture.wait("the notice gone after a save") { composer.storeNoticeShown == nil }
            try await GtkFixture.wait("the whole draft saved") { Self.saved(profileDirectory).draft.text == "still typing!" }
            #expect(composer.storeNoticeShown == nil)
            #expect(composer.inputDescription == nil)
        }

        /// Windows closed while their saves are failing and being retried (the profile cannot
        /// be written): each close flushes, fails and reports; reports, timers and the saver's
        /// thread may still be under way for a window already gone. Nothing may run for a
        /// window that is gone, and every window is finalized. Seen once: a crash on the GTK
        /// thread (a call through a freed closure) right after this kind of notice.
        @Test func windowsClosedWhileTheirSavesFailAndRetry() async throws {
            for round in 0..<12 {
                let (composer, _, _) = try await Self.composerWithAnUnwritableProfile()
                try GtkFixture.xdotool.type("round \(round)")
                try await GtkFixture.wait("the text") { composer.model.text == "round \(round)" }
                // Alternate: close at once (the save's delay still running), or once a failed
                // save was reported (the saver's report on its way to the main loop).
                if round.isMultiple(of: 2) {
                    try await GtkFixture.wait("a save asked for") { composer.savesRequested > 0 }
                }
                GtkFixture.close(composer)
                #expect(composer.isWindowDestroyed)
            }
        }

        @Test func aDamagedDatabaseIsMovedAsideAndSaidSo() async throws {
            let profileDirectory = try GtkFixture.newProfile()
            let path = URL(fileURLWithPath: profileDirectory).appendingPathComponent(ProfileStore.fileName).path
            try Data(String(repeating: "garbage ", count: 1000).utf8).write(to: URL(fileURLWithPath: path))
            let profile = ProfileOpening.open(directory: profileDirectory)
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(profileDirectory: profileDirectory, restoresDraft: true), profile: profile)
            defer { GtkFixture.close(composer) }
            let notice = try #require(composer.storeNoticeShown)
            #expect(notice.contains("moved to \(path).damaged-"), "\(notice)")
            try GtkFixture.xdotool.type("new")
            try await GtkFixture.wait("the draft saved in the fresh database") { Self.saved(profileDirectory).draft.text == "new" }
            #expect(composer.storeNoticeShown != nil, "the news stays in view")
        }
    }
}

extension GtkWindowSuites.DraftKeepingWindowTests {
    /// A real full disk under the profile (a small tmpfs, filled): the window says the draft
    /// cannot be saved, typing goes on, and once there is room the draft is saved and the
    /// notice goes. Mounting needs root (CI runs as root).
    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aFullDiskIsShownInTheWindowAndTypingGoesOn() async throws {
        let profileDirectory = try GtkFixture.newProfile()
        guard mount("tmpfs", profileDirectory, "tmpfs", 0, "size=256k,mode=0700") == 0 else {
            Issue.record("mount failed: errno \(errno)")
            return
        }
        defer { umount2(profileDirectory, Int32(MNT_DETACH)) }
        let profile = ProfileOpening.open(directory: profileDirectory)
        let (composer, _) = try await GtkFixture.composer(
            ComposerOptions(profileDirectory: profileDirectory, restoresDraft: true), profile: profile)
        defer { GtkFixture.close(composer) }
        try GtkFixture.xdotool.type("first")
        try await GtkFixture.wait("the first draft saved") { Self.saved(profileDirectory).draft.text == "first" }

        // Fill the disk, then type enough to need new pages.
        let filler = URL(fileURLWithPath: profileDirectory).appendingPathComponent("filler")
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        let block = Data(repeating: 0x55, count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
        try? handle.close()
        let long = String(repeating: "満杯 ", count: 3000)
        gdk_clipboard_set_text(gdk_display_get_clipboard(gdk_display_get_default()), long)
        try GtkFixture.xdotool.key(["ctrl+v"])
        try await GtkFixture.wait("the paste") { composer.model.text == "first" + long }
        try await GtkFixture.wait("the full disk shown in the window", timeoutMilliseconds: 20_000) {
            composer.storeNoticeShown?.contains("full") == true
        }
        try GtkFixture.xdotool.type("!")
        try await GtkFixture.settled(composer, "typing goes on") { composer.model.text.hasSuffix("!") }

        try FileManager.default.removeItem(at: filler)
        try GtkFixture.xdotool.type("?")
        try await GtkFixture.wait("the notice gone once saved") { composer.storeNoticeShown == nil }
        #expect(Self.saved(profileDirectory).draft.text == "first" + long + "!?")
    }
}
