import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing
import TestHarness

extension GtkWindowSuites {
    /// The composer in a real GTK window under Xvfb, typed into with real X key events
    /// (xdotool → X server → GTK → GtkIMContextSimple), observed through its trace, model and
    /// widgets.
    @MainActor
    @Suite(.serialized)
    struct ComposerWindowTests {

        @Test func typingCommitsThroughTheInputMethodAndEnterSends() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }

            try GtkFixture.xdotool.type("hello")
            try await GtkFixture.wait("hello in the model") { composer.model.text == "hello" }
            try await GtkFixture.settled(composer, "the settled text event") { composer.lastTextEvent?.text == "hello" }
            #expect(composer.eventNames.filter { $0 == "commit" }.count == 5)
            #expect(composer.counterText == "195", "what is left of the default limit of 200")
            #expect(gtk_widget_get_sensitive(composer.sendButton) != 0)

            try GtkFixture.xdotool.key(["Return"])
            try await GtkFixture.wait("the send event") { composer.eventNames.contains("send") }
            #expect(composer.trace.emitted.contains(.send("hello")))
            #expect(composer.trace.emitted.contains(.key(keyval: "Return", consumed: false)))
            #expect(composer.sentMessagesShown == ["hello"])
            #expect(composer.bufferText == "")
            try await GtkFixture.settled(composer, "the emptied text event") { composer.lastTextEvent?.text == "" }
            #expect(gtk_widget_get_sensitive(composer.sendButton) == 0, "nothing to send: Send is insensitive")
        }

        /// The input takes the focus once its window is shown, not when it is built: GTK 4.8
        /// focuses the view's input method context even in a window not yet realized, and
        /// realizing then replaces that input method delegate — IBus's orphaned one, focused,
        /// later asked for surrounding text nobody answered (a GLib warning, and surrounding
        /// text turned off for ibus-m17n and ibus-unikey, in about 1 start-up of 10).
        @Test func theInputTakesTheFocusOnlyOnceItsWindowIsShown() async throws {
            var focusedBeforeShown: Bool?
            let (composer, _) = try await GtkFixture.composer(beforePresent: { composer in
                focusedBeforeShown = gtk_widget_has_focus(composer.textView) != 0
                    || gtk_widget_get_realized(composer.textView) != 0
            })
            defer { GtkFixture.close(composer) }
            #expect(focusedBeforeShown == false)
            #expect(gtk_widget_has_focus(composer.textView) != 0)
        }

        @Test func sendIsInsensitiveWhileADeadKeyComposes() async throws {
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(initialText: "caf", profileDirectory: try GtkFixture.newProfile()))
            defer { GtkFixture.close(composer) }
            #expect(gtk_widget_get_sensitive(composer.sendButton) != 0)
            // A layout with dead keys (US international: ' is dead_acute), as such a user has.
            try GtkFixture.setKeyboardLayout(["-layout", "us", "-variant", "intl"], deadAcute: true)
            defer { GtkFixture.restoreKeyboardLayout() }
            try await GtkFixture.xdotool(["key", "dead_acute"])
            try await GtkFixture.settled(composer, "the dead key's preedit") { composer.model.isComposing }
            #expect(gtk_widget_get_sensitive(composer.sendButton) == 0, "no Send while composing")
            #expect(composer.model.text == "caf", "the buffer never holds preedit")
            try await GtkFixture.xdotool(["key", "e"])
            try await GtkFixture.settled(composer, "é committed") {
                composer.model.text == "café" && !composer.model.isComposing
            }
            #expect(composer.trace.emitted.contains(.commit("é")))
            #expect(gtk_widget_get_sensitive(composer.sendButton) != 0)
        }

        @Test func readyComesAfterFocusThroughTheMainQueue() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try await GtkFixture.wait("ready") { composer.eventNames.contains("ready") }
            let names = composer.eventNames
            let firstText = try #require(names.firstIndex(of: "text"))
            let ready = try #require(names.firstIndex(of: "ready"))
            #expect(firstText < ready, "one text event comes before ready: \(names)")
            #expect(names.filter { $0 == "ready" }.count == 1)
        }

        @Test func shiftEnterBreaksTheLineAndDoesNotSend() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("a")
            try GtkFixture.xdotool.key(["shift+Return"])
            try GtkFixture.xdotool.type("b")
            try await GtkFixture.wait("a newline b") { composer.model.text == "a\nb" }
            #expect(!composer.eventNames.contains("send"))
            let newline = composer.model.log.entries.compactMap { entry -> Edit? in
                if case .edit(let edit) = entry, edit.inserted == "\n" { return edit } else { return nil }
            }
            #expect(newline.map(\.origin) == [.key])
        }

        @Test func editOriginsNameWhatChangedTheText() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("xy")
            try await GtkFixture.wait("xy") { composer.model.text == "xy" }
            try GtkFixture.xdotool.key(["BackSpace"])
            try await GtkFixture.wait("x") { composer.model.text == "x" }
            try GtkFixture.xdotool.key(["ctrl+z"])
            try await GtkFixture.wait("undo back to xy") { composer.model.text == "xy" }
            let edits = composer.model.log.entries.compactMap { entry -> Edit? in
                if case .edit(let edit) = entry { return edit } else { return nil }
            }
            #expect(edits.map(\.origin) == [.imCommit, .imCommit, .key, .undo], "\(edits)")
            #expect(edits[2].removed == "y" && edits[2].range == 1..<2)
            #expect(edits[3].inserted == "y")
        }

        @Test func pasteIsRecordedAsPaste() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            let clipboard = gdk_display_get_clipboard(gdk_display_get_default())
            gdk_clipboard_set_text(clipboard, "pasted 子猫")
            try GtkFixture.xdotool.key(["ctrl+v"])
            try await GtkFixture.wait("the pasted text") { composer.model.text == "pasted 子猫" }
            let edits = composer.model.log.entries.compactMap { entry -> Edit? in
                if case .edit(let edit) = entry { return edit } else { return nil }
            }
            #expect(edits.map(\.origin) == [.paste], "\(edits)")
            try await GtkFixture.wait("the settled text") { composer.lastTextEvent?.text == "pasted 子猫" }
        }

        @Test func closuresAndReferencesAreReleasedWithTheWindow() async throws {
            // Warm up once so lazily created GTK singletons do not count. Closing waits until
            // the window is finalized, and the window's idles and timeouts end with it.
            GtkFixture.close(try await GtkFixture.composer().0)
            let baseline = liveClosureCount
            let finalized = FinalizeCounter()
            for _ in 0..<5 {
                let (composer, _) = try await GtkFixture.composer()
                #expect(liveClosureCount > baseline, "a composer holds its signal closures")
                // GObject references: the window, its text view and buffer, and the IM context
                // we keep a reference to must all be finalized once the composer is gone.
                for object in [composer.window.rawPointer, composer.textView.rawPointer,
                               gtk_text_view_get_buffer(cast(composer.textView)).rawPointer,
                               try #require(composer.inputMethodContext)] {
                    finalized.watch(object)
                }
                GtkFixture.close(composer)
            }
            try await GtkFixture.wait("every closure box to be released") { liveClosureCount <= baseline }
            try await GtkFixture.wait("the 20 watched objects to be finalized") {
                finalized.count == 20
            }
        }

        /// Fifty windows opened and closed in one process, as a session that reopens its
        /// composer would: every widget of every window is finalized, the closure boxes go
        /// back to where they were, and (through the fixture) no GLib critical or warning.
        @Test func fiftyWindowsOpenedAndClosedLeaveNothingBehind() async throws {
            GtkFixture.close(try await GtkFixture.composer().0)  // warm-up: GTK's own singletons
            let baseline = liveClosureCount
            let finalized = FinalizeCounter()
            var watched = 0
            for round in 0..<50 {
                let (composer, _) = try await GtkFixture.composer(
                    ComposerOptions(initialText: "round \(round) @tana", profileDirectory: try GtkFixture.newProfile(),
                                    simulatedKeyboardInset: 120),
                    directory: WorkspaceDirectory(people: LayoutWindowTests.people, channels: []))
                composer.setSimulatedKeyboard(round.isMultiple(of: 2))
                try GtkFixture.xdotool.type("x")
                try await GtkFixture.settled(composer, "round \(round)'s key") { composer.model.text.hasSuffix("x") }
                for widget in widgetTree(composer.window) {
                    finalized.watch(widget)
                    watched += 1
                }
                GtkFixture.close(composer)
            }
            do {
                try await GtkFixture.wait("all \(watched) widgets of 50 windows to be finalized") { finalized.count == watched }
            } catch {
                Issue.record("still alive: \(Dictionary(grouping: finalized.alive, by: { $0 }).mapValues(\.count))")
                throw error
            }
            try await GtkFixture.wait("the closure boxes back to \(baseline) (now \(liveClosureCount))") {
                liveClosureCount <= baseline
            }
        }

        @Test func sentTextIsNeverMarkup() async throws {
            let markup = "<b>bold</b> &amp; <span foreground='red'>red</span>"
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(initialText: markup, profileDirectory: try GtkFixture.newProfile()))
            defer { GtkFixture.close(composer) }
            composer.send()
            #expect(composer.sentMessagesShown == [markup])
            #expect(composer.trace.emitted.contains(.send(markup)))
        }

        @Test func theInputGrowsToSixLinesThenScrolls() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            let buffer = gtk_text_view_get_buffer(cast(composer.textView))
            func show(_ lines: Int) async throws -> Int {
                gtk_text_buffer_set_text(buffer, (1...lines).map(String.init).joined(separator: "\n"), -1)
                composer.settleNow()
                var last = -1, stable = 0
                // Layout is asynchronous: wait until the height holds still for a few frames.
                try await GtkFixture.wait("the input height to settle for \(lines) lines") {
                    let height = composer.inputHeight
                    stable = height == last && height > 0 ? stable + 1 : 0
                    last = height
                    return stable >= 5
                }
                return last
            }
            let one = try await show(1)
            let three = try await show(3)
            let perLine = (three - one) / 2
            #expect(perLine > 0, "three lines are taller than one (\(one) → \(three))")
            #expect(one < 2 * perLine, "one line with its padding is under two lines: \(one) px, \(perLine) px a line")
            let six = try await show(6)
            #expect(abs(six - (one + 5 * perLine)) <= 2, "six lines: \(six) px")
            let twenty = try await show(20)
            #expect(abs(twenty - six) <= 2, "twenty lines stay six lines tall: \(twenty) px vs \(six) px")
            let scroll = gtk_scrolled_window_get_vadjustment(opaque(gtk_widget_get_parent(composer.textView)))
            #expect(gtk_adjustment_get_upper(scroll) > gtk_adjustment_get_page_size(scroll) + Double(perLine),
                    "the rest scrolls")
            let back = try await show(2)
            #expect(abs(back - (one + perLine)) <= 2, "and shrinks again: \(back) px")
        }

        @Test func theMessageListFollowsTheNewestMessage() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try await GtkFixture.send((1...40).map { "message \($0)" }, from: composer)
            #expect(composer.sentMessagesShown.count == 40)
            #expect(composer.sentMessagesShown.last == "message 40")
        }

        @Test func closingTheWindowWritesExitLastEvenThoughFocusLeavesAfterwards() async throws {
            let (composer, quit) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("hi")
            try await GtkFixture.wait("hi in the model") { composer.model.text == "hi" }
            var finalized = false
            onFinalize(composer.window) { finalized = true }
            gtk_window_close(cast(composer.window))  // what the window manager's close asks for
            // Focus leaves while the window is torn down: wait until it is gone entirely.
            try await GtkFixture.wait("the closed window to be finalized") { finalized }
            #expect(composer.isWindowDestroyed)
            #expect(quit.count == 1)
            #expect(composer.trace.emitted.last == .exit(text: "hi", caret: 2, preedit: "", reason: .close))
            #expect(composer.trace.isFinished)
        }

        @Test func exitSettlesThenWritesExitLastOnce() async throws {
            let (composer, quit) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("bye")
            try await GtkFixture.wait("bye in the model") { composer.model.text == "bye" }
            try GtkFixture.xdotool.key(["ctrl+q"])
            try await GtkFixture.settled(composer, "the exit event") { composer.eventNames.contains("exit") }
            composer.exit(reason: .close)  // a later close is not a second exit
            #expect(quit.count == 1)
            #expect(composer.trace.emitted.last == .exit(text: "bye", caret: 3, preedit: "", reason: .ctrlQ))
            #expect(composer.eventNames.filter { $0 == "exit" }.count == 1)
            // The final settle came before exit: the last text event has the typed text.
            #expect(composer.lastTextEvent?.text == "bye")
        }
    }
}

/// `root` and every widget below it that belongs to it. Not GTK's tooltip window: there is
/// one per display, which GTK re-parents to whichever window last had a tooltip and keeps
/// alive (with its box, label and image) for the next one.
@MainActor
func widgetTree(_ root: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
    var widgets = [root]
    var child = gtk_widget_get_first_child(root)
    while let current = child {
        if String(cString: cgtk_type_name_of(current)) != "GtkTooltipWindow" { widgets += widgetTree(current) }
        child = gtk_widget_get_next_sibling(current)
    }
    return widgets
}

/// Counts finalized GObjects (through weak references).
final class FinalizeCounter {
    private(set) var count = 0
    /// Type names of the watched objects not finalized yet (for a failure's message).
    private var live: [Int: String] = [:]
    private var next = 0
    var alive: [String] { live.values.sorted() }
    func watch(_ object: UnsafeMutableRawPointer) {
        let key = next
        next += 1
        live[key] = String(cString: cgtk_type_name_of(object))
        onFinalize(object) { [self] in
            count += 1
            live[key] = nil
        }
    }
}
