import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing
import TestHarness

extension GtkWindowSuites {
    /// Ctrl+Alt+arrows are the caret toolbar's keyboard route (GActions with accelerators,
    /// like Send, Trim and Quit): ← → by one grapheme, Shift extends; while a dead key
    /// composes they wait, as the toolbar's buttons do. Real X key events (xdotool).
    @MainActor
    @Suite(.serialized)
    struct CaretShortcutTests {
        @Test func ctrlAltArrowsMoveTheCaretByGraphemes() async throws {
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(initialText: "a🇯🇵b", profileDirectory: try GtkFixture.newProfile()))
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the start") { composer.model.selection.caret == 4 }
            try await GtkFixture.xdotool(["key", "ctrl+alt+Left"])
            try await GtkFixture.settled(composer, "one grapheme left") { composer.model.selection.caret == 3 }
            try await GtkFixture.xdotool(["key", "ctrl+alt+Left"])
            try await GtkFixture.settled(composer, "over the flag, whole") { composer.model.selection.caret == 1 }
            try await GtkFixture.xdotool(["key", "ctrl+alt+shift+Right"])
            try await GtkFixture.settled(composer, "the flag selected") {
                composer.model.selection == TextSelection(anchor: 1, caret: 3)
            }
            #expect(composer.model.text == "a🇯🇵b", "moving the caret types nothing")
        }

        @Test func theCaretShortcutsWaitWhileADeadKeyComposes() async throws {
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(initialText: "caf", profileDirectory: try GtkFixture.newProfile()))
            defer { GtkFixture.close(composer) }
            try GtkFixture.setKeyboardLayout(["-layout", "us", "-variant", "intl"], deadAcute: true)
            defer { GtkFixture.restoreKeyboardLayout() }
            try await GtkFixture.xdotool(["key", "dead_acute"])
            try await GtkFixture.settled(composer, "the dead key's preedit") { composer.model.isComposing }
            try await GtkFixture.xdotool(["key", "ctrl+alt+Left"])
            try await GtkFixture.xdotool(["key", "e"])
            try await GtkFixture.settled(composer, "é committed") {
                composer.model.text == "café" && !composer.model.isComposing
            }
            #expect(composer.model.selection.caret == 4, "the caret did not move while composing")
            try await GtkFixture.xdotool(["key", "ctrl+alt+Left"])
            try await GtkFixture.settled(composer, "now it moves") { composer.model.selection.caret == 3 }
        }
    }
}
