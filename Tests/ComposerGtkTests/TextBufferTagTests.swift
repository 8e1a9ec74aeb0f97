import CGtk
import GtkBinding
import Testing

extension GtkWindowSuites {
    /// `TextBuffer`'s tag helpers on a real GtkTextBuffer: which ranges carry a tag, and that
    /// taking a tag off text that does not carry it leaves GTK alone (no "remove-tag", so
    /// no redisplay) — the settle controllers do that for every freshly typed character.
    @MainActor
    @Suite(.serialized)
    struct TextBufferTagTests {
        /// "remove-tag" emissions seen by `countRemoveTag`.
        nonisolated(unsafe) static var removeTagEmissions = 0

        private static let countRemoveTag: @convention(c) (
            UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
            UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
        ) -> Void = { _, _, _, _, _ in removeTagEmissions += 1 }

        /// A buffer with "0123456789" and `tag` on 2..<5 and 7..<8.
        private static func taggedBuffer() throws -> (TextBuffer, UnsafeMutablePointer<GtkTextTag>) {
            try GtkFixture.start()
            let buffer = TextBuffer(gtk_text_buffer_new(nil))
            buffer.replaceAll(with: "0123456789")
            let tag = buffer.createTag(named: "mark")
            buffer.applyTag(tag, to: 2..<5)
            buffer.applyTag(tag, to: 7..<8)
            return (buffer, tag)
        }

        @Test func hasTagSeesAnyTaggedCharacterInTheRange() throws {
            let (buffer, tag) = try Self.taggedBuffer()
            defer { g_object_unref(buffer.pointer.rawPointer) }
            #expect(buffer.ranges(of: tag) == [2..<5, 7..<8])
            #expect(!buffer.hasTag(tag, in: 0..<2), "ends where the tag starts")
            #expect(buffer.hasTag(tag, in: 0..<3))
            #expect(buffer.hasTag(tag, in: 3..<4), "inside")
            #expect(buffer.hasTag(tag, in: 4..<6))
            #expect(!buffer.hasTag(tag, in: 5..<7), "between the two")
            #expect(buffer.hasTag(tag, in: 5..<10), "reaches the second")
            #expect(!buffer.hasTag(tag, in: 8..<10), "after the last")
            #expect(!buffer.hasTag(tag, in: 3..<3), "empty")
        }

        @Test func removingATagWhereThereIsNoneDoesNotTouchTheBuffer() throws {
            let (buffer, tag) = try Self.taggedBuffer()
            defer { g_object_unref(buffer.pointer.rawPointer) }
            Self.removeTagEmissions = 0
            let handler = g_signal_connect_data(buffer.pointer.rawPointer, "remove-tag",
                                                unsafeBitCast(Self.countRemoveTag, to: GCallback.self), nil, nil, GConnectFlags(0))
            defer { g_signal_handler_disconnect(buffer.pointer.rawPointer, handler) }

            buffer.removeTag(tag, from: 5..<7)
            buffer.removeTag(tag, from: 8..<10)
            #expect(Self.removeTagEmissions == 0)
            #expect(buffer.ranges(of: tag) == [2..<5, 7..<8])

            buffer.removeTag(tag, from: 4..<8)
            #expect(Self.removeTagEmissions == 1)
            #expect(buffer.ranges(of: tag) == [2..<4])
        }
    }
}
