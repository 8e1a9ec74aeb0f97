import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing
import TestHarness

extension GtkWindowSuites {
    /// Invisible and bidirectional controls in a real window: the input's tag lies on
    /// exactly the controls and makes them take room on screen, a paste and typing after it
    /// keep it exact, and a sent message's label marks the same controls.
    @MainActor
    @Suite(.serialized)
    struct InvisibleControlWindowTests {
        static func options(_ text: String) throws -> ComposerOptions {
            ComposerOptions(initialText: text, profileDirectory: try GtkFixture.newProfile())
        }

        /// The width the text view gives the character at `offset` (in a right-to-left run
        /// Pango reports it negative): what the character takes on screen.
        static func drawnWidth(_ composer: ComposerController, at offset: Int) -> Int32 {
            let buffer = gtk_text_view_get_buffer(cast(composer.textView))
            var iter = GtkTextIter()
            gtk_text_buffer_get_iter_at_offset(buffer, &iter, Int32(offset))
            var location = GdkRectangle()
            gtk_text_view_get_iter_location(cast(composer.textView), &iter, &location)
            return abs(location.width)
        }

        @Test func controlsInTheDraftAreMarkedAndTakeRoomOnScreen() async throws {
            // 0 a, 1 U+202E, 2–4 "txt", 5 U+200B, 6 U+2066, 7 space, 8–12 the family emoji
            // (ZWJ sequence, left alone), 13 newline, 14 a tag character, 15 b.
            let text = "a\u{202E}txt\u{200B}\u{2066} 👨‍👩‍👧\n\u{E0041}b"
            let (composer, _) = try await GtkFixture.composer(try Self.options(text))
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the start")
            #expect(composer.controlMarkedRanges == [1..<2, 5..<7, 14..<15])
            #expect(composer.controlMarkedRanges == composer.composer.controlMarking.markedRanges)
            #expect(cgtk_text_tag_show_spaces(composer.controlTag) == PANGO_SHOW_IGNORABLES.rawValue)
            // Unmarked, each of these draws nothing (Pango hides default ignorables); marked,
            // each takes room: a box with its name, or for the tag character a sliver.
            for offset in [1, 5, 6, 14] {
                #expect(Self.drawnWidth(composer, at: offset) > 0, "the control at \(offset) is drawn")
            }
        }

        @Test func aPastedControlIsMarkedAndWhatIsTypedAfterItIsNot() async throws {
            let (composer, _) = try await GtkFixture.composer(try Self.options("file "))
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the start")
            #expect(composer.controlMarkedRanges.isEmpty)
            gdk_clipboard_set_text(gdk_display_get_clipboard(gdk_display_get_default()), "\u{202E}\u{2066}cod.exe")
            try GtkFixture.xdotool.key(["ctrl+v"])
            try await GtkFixture.settled(composer, "the paste") { composer.model.text == "file \u{202E}\u{2066}cod.exe" }
            #expect(composer.controlMarkedRanges == [5..<7])
            // The caret after the controls' run: GTK does not extend the tag to typed text.
            try GtkFixture.xdotool.key(["Left", "Left", "Left", "Left", "Left", "Left", "Left"])
            try GtkFixture.xdotool.type("x")
            try await GtkFixture.settled(composer, "x typed") { composer.model.text == "file \u{202E}\u{2066}xcod.exe" }
            #expect(composer.controlMarkedRanges == [5..<7])
            try GtkFixture.xdotool.key(["Left", "BackSpace"])
            try await GtkFixture.settled(composer, "U+2066 deleted") { composer.model.text == "file \u{202E}xcod.exe" }
            #expect(composer.controlMarkedRanges == [5..<6])
        }

        @Test func sentMessagesMarkTheSameControls() async throws {
            let message = "pay \u{202E}txt.exe 👩‍💻"
            let (composer, _) = try await GtkFixture.composer(try Self.options(message))
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the start")
            composer.send()
            try await GtkFixture.settled(composer, "sent") { composer.sentMessagesShown == [message] }
            // U+202E is bytes 4–7: shown (4 = PANGO_SHOW_IGNORABLES) as a box on the marker's
            // background, spaced; nothing else, so not the emoji's joiner.
            #expect(composer.sentMessageAttributesShown == [
                "4 7 show 4\n4 7 background #e5e5a5a50a0a\n4 7 background-alpha 22937\n4 7 letter-spacing 2048",
            ])
            // A message without controls has no attributes at all.
            try GtkFixture.xdotool.type("plain")
            try await GtkFixture.settled(composer, "plain typed") { composer.model.text == "plain" }
            composer.send()
            try await GtkFixture.settled(composer, "sent again") { composer.sentMessagesShown.count == 2 }
            #expect(composer.sentMessageAttributesShown.last == "")
        }
    }
}
