import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing
import TestHarness

extension GtkWindowSuites {
    /// The length limit in a real window: the overflow tag in the GtkTextBuffer, the counter,
    /// Send, the hint, "Trim to limit" and undo, with real X key events.
    @MainActor
    @Suite(.serialized)
    struct LengthLimitWindowTests {
        static func options(_ text: String, limit: Int, mode: LengthLimit.Mode = .soft) throws -> ComposerOptions {
            ComposerOptions(initialText: text, profileDirectory: try GtkFixture.newProfile(),
                            limit: LengthLimit(limit: limit, mode: mode))
        }

        @Test func softModeColoursTheOverflowAndRefusesToSend() async throws {
            let (composer, _) = try await GtkFixture.composer(try Self.options("hello world", limit: 5))
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the start")
            #expect(composer.overflowTaggedRanges == [5..<11])
            // A band of colour, no underline: GTK's GL renderer draws an error underline
            // as a repeat node per line, 1.5x the CPU of every key over the limit.
            #expect(composer.overflowTagSets("background-set") && composer.overflowTagSets("foreground-set"))
            #expect(!composer.overflowTagSets("underline-set"))
            #expect(composer.counterText == "\u{2212}6")
            #expect(composer.counterClasses.contains("error"))
            #expect(gtk_widget_get_sensitive(composer.sendButton) == 0)
            #expect(composer.trimButtonShown)
            #expect(composer.trace.emitted.contains(.overflow(start: 5, end: 11, over: 6, unit: .graphemes)))

            try GtkFixture.xdotool.key(["Return"])
            try await GtkFixture.wait("the hint") { composer.limitHintShown != nil }
            #expect(composer.limitHintShown?.contains("6 characters over the limit of 5") == true)
            #expect(!composer.eventNames.contains("send"))

            // Typing more extends the coloured part; deleting back under removes it.
            try GtkFixture.xdotool.type("!")
            try await GtkFixture.wait("the longer overflow") { composer.overflowTaggedRanges == [5..<12] }
            try GtkFixture.xdotool.key(Array(repeating: "BackSpace", count: 7))
            // Deleting the coloured text removes its tags at once; the counter, the hint, Trim
            // and Send follow at the settle after the last BackSpace.
            try await GtkFixture.settled(composer, "back under the limit") { composer.model.text == "hello" }
            #expect(composer.overflowTaggedRanges.isEmpty)
            #expect(composer.counterText == "0")
            #expect(composer.limitHintShown == nil)
            #expect(!composer.trimButtonShown)
            #expect(gtk_widget_get_sensitive(composer.sendButton) != 0)
            #expect(composer.trace.emitted.contains(.overflow(start: 5, end: 5, over: 0, unit: .graphemes)))
        }

        /// A key typed past the limit is coloured when GTK's user action ends — before the
        /// settle and before the text view lays the caret's paragraph out for the input
        /// method — so the paragraph is laid out once, with its colour.
        @Test func textTypedPastTheLimitIsColouredBeforeTheSettle() async throws {
            let (composer, _) = try await GtkFixture.composer(try Self.options("hello world", limit: 5))
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the start")
            final class Seen { var tagged: [[Range<Int>]] = []; var settled: [Bool] = [] }
            let seen = Seen()
            let buffer = gtk_text_view_get_buffer(cast(composer.textView))!
            // Connected after the composer's own handler: sees what it did.
            let handler = onSignal(buffer, "end-user-action", after: true) {
                seen.tagged.append(composer.overflowTaggedRanges)
                seen.settled.append(composer.isSettled)
            }
            defer { g_signal_handler_disconnect(buffer.rawPointer, handler) }

            try GtkFixture.xdotool.type("!")
            try await GtkFixture.settled(composer, "the key") { composer.model.text == "hello world!" }
            #expect(seen.tagged.last == [5..<12])
            #expect(seen.settled.last == false, "the settle had not run yet")
            #expect(composer.overflowTaggedRanges == [5..<12])
        }

        /// The system's style switched at run time — dark, then high contrast, then back — as
        /// GNOME's Settings does without a portal (GSettings, which libadwaita falls back to):
        /// the window's colours, the overflow tag's and the inspector's follow, read back
        /// from GTK.
        @Test func aSystemStyleSwitchRecoloursTheWindow() async throws {
            let (composer, _) = try await GtkFixture.composer(try Self.options("hello world", limit: 5))
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the start")
            try await InspectorWindowTests.openInspector(composer)
            #expect(composer.tagsStyledForDarkStyle == false)
            #expect(composer.overflowTagColor == "rgb(192,28,40)")
            #expect(composer.textIsLight == false)
            let lightKey = composer.inspectorKindColor("key")
            let interface = g_settings_new("org.gnome.desktop.interface")!
            let accessibility = g_settings_new("org.gnome.desktop.a11y.interface")!
            defer {
                g_settings_reset(interface, "color-scheme")
                g_settings_reset(accessibility, "high-contrast")
                g_object_unref(interface.rawPointer)
                g_object_unref(accessibility.rawPointer)
            }

            g_settings_set_string(interface, "color-scheme", "prefer-dark")
            try await GtkFixture.wait("the overflow coloured for the dark style") {
                composer.overflowTagColor == "rgb(255,138,122)"
            }
            #expect(composer.tagsStyledForDarkStyle == true)
            #expect(composer.overflowTaggedRanges == [5..<11], "the same text still carries the tag")
            try await GtkFixture.wait("the window's text light on dark") { composer.textIsLight }
            try await GtkFixture.wait("the inspector's kinds in their dark colours") {
                composer.inspectorKindColor("key") == "rgb(120,174,237)"
            }
            #expect(lightKey == "rgb(28,113,216)")

            g_settings_set_boolean(accessibility, "high-contrast", 1)
            try await GtkFixture.wait("the overflow coloured for dark high contrast") {
                composer.overflowTagColor == "rgb(255,147,138)"
            }
            try await GtkFixture.wait("the inspector's kinds in high contrast") {
                composer.inspectorKindColor("key") == "rgb(153,193,241)"
            }

            g_settings_reset(interface, "color-scheme")
            g_settings_reset(accessibility, "high-contrast")
            try await GtkFixture.wait("the light style again") {
                composer.overflowTagColor == "rgb(192,28,40)" && !composer.textIsLight
                    && composer.inspectorKindColor("key") == lightKey
            }
        }

        @Test func theCounterAppearsOnlyNearTheLimit() async throws {
            let (composer, _) = try await GtkFixture.composer(try Self.options("", limit: 30))
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the start")
            #expect(!composer.counterIsShown, "30 left of 30")
            #expect(composer.counterText == "30", "kept up to date while transparent")
            try GtkFixture.xdotool.type("abcdefghi")
            try await GtkFixture.settled(composer, "nine typed") { composer.model.text == "abcdefghi" }
            #expect(!composer.counterIsShown, "21 left")
            try GtkFixture.xdotool.type("j")
            try await GtkFixture.settled(composer, "ten typed") { composer.model.text.count == 10 }
            #expect(composer.counterIsShown && composer.counterText == "20")
            try GtkFixture.xdotool.key(["BackSpace"])
            try await GtkFixture.settled(composer, "back to nine") { composer.model.text.count == 9 }
            #expect(!composer.counterIsShown)
        }

        /// The counter and Trim take a row above the input bar, never room beside the input:
        /// the input's width, where its text wraps, is the same in every frame before, while
        /// and after they show; and the row is gone again once they are.
        @Test func theCounterAndTrimNeverNarrowTheInput() async throws {
            let (composer, _) = try await GtkFixture.composer(try Self.options("", limit: 30))
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the start") { composer.inputWidth > 0 }
            let width = composer.inputWidth
            let inputBottom = composer.inputBottom
            let clock = try #require(gtk_widget_get_frame_clock(composer.window))
            final class Recorder { var frames: [(width: Int, counter: Bool, trim: Bool)] = [] }
            let recorder = Recorder()
            let handler = onSignal(clock, "after-paint") {
                recorder.frames.append((composer.inputWidth, composer.counterIsShown, composer.trimButtonShown))
            }
            defer { g_signal_handler_disconnect(clock.rawPointer, handler) }
            try GtkFixture.xdotool.type("abcdefghijkl")
            try await GtkFixture.settled(composer, "the counter shown") { composer.model.text.count == 12 && composer.counterIsShown }
            try GtkFixture.xdotool.type("mnopqrstuvwxyz0123456")
            try await GtkFixture.settled(composer, "over the limit, Trim shown") {
                composer.model.text.count == 33 && composer.trimButtonShown
            }
            try GtkFixture.xdotool.key(["ctrl+a", "BackSpace"])
            try await GtkFixture.settled(composer, "empty again") { composer.model.text.isEmpty && !composer.counterIsShown }
            try await GtkFixture.wait("a frame without the counter") { recorder.frames.last.map { !$0.counter } == true }
            let frames = recorder.frames
            #expect(frames.contains { $0.counter && !$0.trim } && frames.contains { $0.trim }, "\(frames)")
            #expect(frames.allSatisfy { $0.width == width }, "the input's width in each frame: \(frames.map(\.width))")
            #expect(composer.inputBottom == inputBottom, "the input bar where it was")
        }

        @Test func trimToLimitIsOneUndoableStep() async throws {
            let (composer, _) = try await GtkFixture.composer(try Self.options("abcdef🇯🇵", limit: 4))
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.key(["ctrl+shift+t"])
            try await GtkFixture.wait("the trimmed text") { composer.model.text == "abcd" }
            #expect(composer.overflowTaggedRanges.isEmpty)
            let trim = composer.model.log.entries.compactMap { entry -> Edit? in
                if case .edit(let edit) = entry { return edit } else { return nil }
            }.last
            #expect(trim?.origin == .program && trim?.removed == "ef🇯🇵")
            try GtkFixture.xdotool.key(["ctrl+z"])
            try await GtkFixture.wait("undo brings it all back") { composer.model.text == "abcdef🇯🇵" }
            try await GtkFixture.wait("coloured again") { composer.overflowTaggedRanges == [4..<8] }
        }

        @Test func hardModeCutsAPasteAndUndoShowsItAsOverflow() async throws {
            let (composer, _) = try await GtkFixture.composer(try Self.options("ab", limit: 5, mode: .hard))
            defer { GtkFixture.close(composer) }
            gdk_clipboard_set_text(gdk_display_get_clipboard(gdk_display_get_default()), "1234567")
            try GtkFixture.xdotool.key(["ctrl+v"])
            try await GtkFixture.settled(composer, "the cut paste") { composer.model.text == "ab123" }
            #expect(composer.model.selection.caret == 5, "the caret goes right after the kept part")
            #expect(composer.trace.emitted.contains(.limit(removed: "4567", at: 5)))
            // Undo the cut: the text comes back in one step, is not cut again, shows as overflow.
            try GtkFixture.xdotool.key(["ctrl+z"])
            try await GtkFixture.wait("undo restores the cut text") { composer.model.text == "ab1234567" }
            try await GtkFixture.wait("as overflow") { composer.overflowTaggedRanges == [5..<9] }
            #expect(composer.trace.emitted.filter { if case .limit = $0 { true } else { false } }.count == 1)
        }

        @Test func whileComposingTheCounterIsProvisionalAndNothingIsCut() async throws {
            let (composer, _) = try await GtkFixture.composer(try Self.options("caf", limit: 3, mode: .hard))
            defer { GtkFixture.close(composer) }
            try GtkFixture.setKeyboardLayout(["-layout", "us", "-variant", "intl"], deadAcute: true)
            defer { GtkFixture.restoreKeyboardLayout() }
            try await GtkFixture.settled(composer, "the start")
            #expect(composer.counterTooltip == "Characters left")
            try await GtkFixture.xdotool(["key", "dead_acute"])
            try await GtkFixture.settled(composer, "the dead key's preedit") { composer.model.isComposing }
            #expect(composer.counterClasses.contains("provisional"))
            #expect(composer.counterTooltip == "Provisional: includes the text being composed")
            #expect(composer.counterText == "\u{2212}1", "the preedit ´ counts, provisionally")
            #expect(composer.model.text == "caf")
            try await GtkFixture.xdotool(["key", "e"])
            // é is a fourth grapheme: cut once the composition is committed and input settles.
            try await GtkFixture.wait("é cut at the limit") {
                composer.trace.emitted.contains(.limit(removed: "é", at: 3))
            }
            #expect(composer.model.text == "caf")
            try await GtkFixture.settled(composer, "the cut settled")
            #expect(!composer.counterClasses.contains("provisional"))
            #expect(composer.counterTooltip == "Characters left")
        }
    }
}
