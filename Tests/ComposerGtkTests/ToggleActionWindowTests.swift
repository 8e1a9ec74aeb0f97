import CGtk
import Foundation
import GtkBinding
@_spi(Testing) import ComposerApp
import ComposerCore
import Testing
import TestHarness

extension GtkWindowSuites {
    /// The input bar's buttons are bound to the window's actions (gnome-text-editor's way):
    /// the caret buttons to the caret actions, whose enabled state is their sensitivity; the
    /// toggles to stateful actions, whose state the button shows. Clicked for real (XTest).
    @MainActor
    @Suite(.serialized)
    struct ToggleActionWindowTests {
        /// Clicks `widget` once it is laid out where it stays: at the same place two frames
        /// after it was first seen there, or with no frame painted for 200 ms since (the
        /// window is idle). Two equal readings 10 ms apart were not enough on a loaded
        /// machine (loaded run 54 of issue #31: the click on ← after the toolbar appeared
        /// never moved the caret): a frame still to come moves the input bar up for the
        /// toolbar, and the click landed where the button had been.
        static func click(_ composer: ComposerController, _ widget: UnsafeMutablePointer<GtkWidget>,
                          shift: Bool = false) async throws {
            var center = (x: 0.0, y: 0.0)
            var seenAtFrame = -1
            var lastFrame = -1
            var lastFrameChange = Date()
            try await GtkFixture.wait("the widget laid out where it stays") {
                let frame = gtk_widget_get_frame_clock(widget).map { Int(gdk_frame_clock_get_frame_counter($0)) } ?? -1
                if frame != lastFrame { lastFrame = frame; lastFrameChange = Date() }
                guard let now = composer.center(of: widget), now.y > 1,
                      gtk_widget_is_sensitive(widget) != 0 else { seenAtFrame = -1; return false }
                if seenAtFrame < 0 || now != center {
                    center = now
                    seenAtFrame = frame
                    return false
                }
                return frame >= seenAtFrame + 2 || Date().timeIntervalSince(lastFrameChange) > 0.2
            }
            let window = try #require(GtkFixture.windowID)
            let click = ["mousemove", "--window", window, String(Int(center.x)), String(Int(center.y)), "click", "1"]
            try await GtkFixture.xdotool(shift ? ["keydown", "shift"] + click + ["keyup", "shift"] : click)
        }

        @Test func theCaretButtonsMoveThroughTheirActionsAndWaitWhileAComposition() async throws {
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(initialText: "caf", profileDirectory: try GtkFixture.newProfile()))
            defer { GtkFixture.close(composer) }
            try await Self.click(composer, composer.caretToolbarToggle)
            try await GtkFixture.wait("the caret toolbar") { composer.caretToolbarShown }
            #expect(gtk_toggle_button_get_active(cast(composer.caretToolbarToggle)) != 0, "the toggle shows its action's state")
            try await Self.click(composer, composer.caretButton(.left))
            try await GtkFixture.settled(composer, "one step left") { composer.model.selection == TextSelection(caret: 2) }
            // Shift-click extends the selection (the click goes to the extending action).
            try await Self.click(composer, composer.caretButton(.left), shift: true)
            try await GtkFixture.settled(composer, "the selection extended") {
                composer.model.selection == TextSelection(anchor: 2, caret: 1)
            }
            // Then a plain click is a plain move again: ← collapses the selection to its start.
            try await Self.click(composer, composer.caretButton(.right))
            try await GtkFixture.settled(composer, "collapsed and moved") { composer.model.selection == TextSelection(caret: 2) }
            #expect(gtk_widget_has_focus(composer.textView) != 0, "the toolbar never takes focus")

            // While a dead key composes, the caret actions are disabled: so are the buttons.
            try GtkFixture.setKeyboardLayout(["-layout", "us", "-variant", "intl"], deadAcute: true)
            defer { GtkFixture.restoreKeyboardLayout() }
            try await GtkFixture.xdotool(["key", "End", "dead_acute"])
            try await GtkFixture.settled(composer, "the dead key's preedit") { composer.model.isComposing }
            #expect(!composer.actionIsEnabled("caret-left"))
            #expect(gtk_widget_get_sensitive(composer.caretButton(.left)) == 0, "the button follows its action")
            try await GtkFixture.xdotool(["key", "e"])
            try await GtkFixture.settled(composer, "é committed") { composer.model.text == "café" && !composer.model.isComposing }
            #expect(gtk_widget_get_sensitive(composer.caretButton(.left)) != 0)

            // The toggle hides the toolbar again.
            try await Self.click(composer, composer.caretToolbarToggle)
            try await GtkFixture.wait("the caret toolbar hidden") { !composer.caretToolbarShown }
            #expect(gtk_toggle_button_get_active(cast(composer.caretToolbarToggle)) == 0)
        }

        @Test func theInspectorsToggleShowsWhatF12AndAClickDecided() async throws {
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(profileDirectory: try GtkFixture.newProfile()))
            defer { GtkFixture.close(composer) }
            try await GtkFixture.xdotool(["key", "F12"])
            try await GtkFixture.wait("the inspector") { composer.inspectorShown }
            #expect(gtk_toggle_button_get_active(cast(composer.inspectorToggle)) != 0, "F12 and the toggle are one action")
            try await Self.click(composer, composer.inspectorToggle)
            try await GtkFixture.wait("the inspector hidden") { !composer.inspectorShown }
            #expect(gtk_toggle_button_get_active(cast(composer.inspectorToggle)) == 0)
            try await GtkFixture.xdotool(["key", "F12"])
            try await GtkFixture.wait("the inspector again") { composer.inspectorShown }
            #expect(gtk_toggle_button_get_active(cast(composer.inspectorToggle)) != 0)
        }
    }
}
