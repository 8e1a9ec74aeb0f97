import CGtk
import GtkBinding
import Testing

extension GtkWindowSuites {
    /// `TextBuffer`'s tag helpers on a real GtkTextBuffer: which ranges carry a tag, and that
    /// taking a tag off text that does not carry it, or putting it on text that carries it
    /// already, leaves GTK alone (no "remove-tag"/"apply-tag", so no redisplay) — the settle
    /// controllers do that for every freshly typed character.
    @MainActor
    @Suite(.serialized)
    struct TextBufferTagTests {
        /// How often `signal` ("apply-tag" or "remove-tag", both `void (*)(GtkTextBuffer *,
        /// GtkTextTag *, GtkTextIter *start, GtkTextIter *end, gpointer)`) is emitted on
        /// `buffer` while `body` runs.
        private static func emissions(of signal: String, on buffer: TextBuffer, during body: () -> Void) -> Int {
            let count: @convention(c) (
                UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
            ) -> Void = { _, _, _, _, counter in counter?.assumingMemoryBound(to: Int.self).pointee += 1 }
            var emitted = 0
            withUnsafeMutablePointer(to: &emitted) { counter in
                let handler = g_signal_connect_data(buffer.pointer.rawPointer, signal, unsafeBitCast(count, to: GCallback.self),
                                                    counter, nil, GConnectFlags(0))
                body()
                g_signal_handler_disconnect(buffer.pointer.rawPointer, handler)
            }
            return emitted
        }

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
            #expect(Self.emissions(of: "remove-tag", on: buffer) {
                buffer.removeTag(tag, from: 5..<7)
                buffer.removeTag(tag, from: 8..<10)
            } == 0)
            #expect(buffer.ranges(of: tag) == [2..<5, 7..<8])

            #expect(Self.emissions(of: "remove-tag", on: buffer) { buffer.removeTag(tag, from: 4..<8) } == 1)
            #expect(buffer.ranges(of: tag) == [2..<4])
        }

        @Test func tagCoversOnlyWhenEveryCharacterCarriesTheTag() throws {
            let (buffer, tag) = try Self.taggedBuffer()
            defer { g_object_unref(buffer.pointer.rawPointer) }
            #expect(buffer.tagCovers(tag, 2..<5), "exactly the run")
            #expect(buffer.tagCovers(tag, 3..<4), "inside")
            #expect(!buffer.tagCovers(tag, 1..<3), "starts before the run")
            #expect(!buffer.tagCovers(tag, 4..<6), "ends after the run")
            #expect(!buffer.tagCovers(tag, 2..<8), "spans the gap between runs")
            #expect(buffer.tagCovers(tag, 4..<4), "empty")
            buffer.applyTag(tag, to: 8..<10)
            #expect(buffer.tagCovers(tag, 7..<10), "a run that reaches the end of the text")
        }

        @Test func applyingATagWhereItIsAlreadyDoesNotTouchTheBuffer() throws {
            let (buffer, tag) = try Self.taggedBuffer()
            defer { g_object_unref(buffer.pointer.rawPointer) }
            #expect(Self.emissions(of: "apply-tag", on: buffer) {
                buffer.applyTag(tag, to: 2..<5)
                buffer.applyTag(tag, to: 3..<4)
            } == 0)
            #expect(buffer.ranges(of: tag) == [2..<5, 7..<8])

            #expect(Self.emissions(of: "apply-tag", on: buffer) { buffer.applyTag(tag, to: 4..<8) } == 1)
            #expect(buffer.ranges(of: tag) == [2..<8])
        }
    }
}
