import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing
import TestHarness

extension GtkWindowSuites {
    /// The shortcuts work on any keyboard layout: with Russian or Greek active (the second
    /// layout of "us,ru" / "us,gr", as people set them up), the Q key types й or ; and the
    /// T key е or τ — Ctrl+Q still quits and Ctrl+Shift+T still trims. Real X key events of
    /// those keys (xdotool finds them by their Cyrillic or Greek keysym).
    @MainActor
    @Suite(.serialized)
    struct ShortcutLayoutTests {
        /// Switches to "us,LAYOUT" with LAYOUT active, once GTK knows the new keymap.
        static func activate(_ layout: String, typing keysym: UInt32) async throws {
            try GtkFixture.setKeyboardLayout(["-layout", "us,\(layout)", "-option", "", "-option", "grp:caps_toggle"],
                                             deadAcute: false)
            try await GtkFixture.wait("GTK's keymap to have the \(layout) layout") {
                var keys: UnsafeMutablePointer<GdkKeymapKey>?
                var count: Int32 = 0
                defer { g_free(keys) }
                return gdk_display_map_keyval(gdk_display_get_default(), keysym, &keys, &count) != 0 && count > 0
            }
            // grp:caps_toggle puts ISO_Next_Group on Caps Lock: the server locks the next group.
            try GtkFixture.xdotool.key(["ISO_Next_Group"])
        }

        @Test func ctrlQQuitsWithARussianLayoutActive() async throws {
            let (composer, quit) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try await Self.activate("ru", typing: guint(GDK_KEY_Cyrillic_shorti))
            defer { GtkFixture.restoreKeyboardLayout() }
            // The Q key types й: Russian is the active layout.
            try GtkFixture.xdotool.key(["Cyrillic_shorti"])
            try await GtkFixture.settled(composer, "й typed") { composer.model.text == "й" }
            try GtkFixture.xdotool.key(["ctrl+Cyrillic_shorti"])
            try await GtkFixture.wait("the exit") { composer.eventNames.contains("exit") }
            #expect(quit.count == 1)
            #expect(composer.trace.emitted.last == .exit(text: "й", caret: 1, preedit: "", reason: .ctrlQ))
        }

        @Test(arguments: [("ru", GDK_KEY_Cyrillic_ie, GDK_KEY_Cyrillic_IE), ("gr", GDK_KEY_Greek_tau, GDK_KEY_Greek_TAU)])
        func ctrlShiftTTrimsWithANonLatinLayoutActive(layout: String, lower: Int32, upper: Int32) async throws {
            let options = ComposerOptions(initialText: "hello world", profileDirectory: try GtkFixture.newProfile(),
                                          limit: LengthLimit(limit: 5))
            let (composer, _) = try await GtkFixture.composer(options)
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the start")
            try await Self.activate(layout, typing: guint(lower))
            defer { GtkFixture.restoreKeyboardLayout() }
            let letter = try #require(gdk_keyval_name(guint(lower)).map { String(cString: $0) })
            try GtkFixture.xdotool.key([letter])
            let typed = String(UnicodeScalar(gdk_keyval_to_unicode(guint(lower)))!)
            try await GtkFixture.settled(composer, "\(typed) typed") { composer.model.text == "hello world" + typed }
            let capital = try #require(gdk_keyval_name(guint(upper)).map { String(cString: $0) })
            try GtkFixture.xdotool.key(["ctrl+shift+\(capital)"])
            try await GtkFixture.settled(composer, "the trim") { composer.model.text == "hello" }
            #expect(composer.overflowTaggedRanges.isEmpty)
        }
    }
}
