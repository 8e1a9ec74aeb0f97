import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing
import TestHarness

extension GtkWindowSuites {
    /// What each painted frame shows, read in the frame clock's "after-paint" (the state
    /// GTK has just drawn): the settle's effects must be in the frame that shows the text
    /// that caused them, never one frame later. Real X key events, GTK's own input method.
    @MainActor
    @Suite(.serialized)
    struct SameFrameWindowTests {
        struct Frame: CustomStringConvertible {
            let text: String
            let counter: String
            let completionShown: Bool
            var description: String { "\(text.debugDescription) counter \(counter) list \(completionShown)" }
        }

        /// Records every frame of `composer`'s window until the returned closure is called.
        static func recordFrames(of composer: ComposerController) throws -> (frames: () -> [Frame], stop: () -> Void) {
            let clock = try #require(gtk_widget_get_frame_clock(composer.window), "the window has no frame clock")
            final class Recorder { var frames: [Frame] = [] }
            let recorder = Recorder()
            let handler = onSignal(clock, "after-paint") {
                recorder.frames.append(Frame(text: composer.bufferText, counter: composer.counterText,
                                             completionShown: !composer.completionTitlesShown.isEmpty))
            }
            return ({ recorder.frames }, { g_signal_handler_disconnect(clock.rawPointer, handler) })
        }

        @Test func theCounterAndAnOpenedCompletionListArriveInTheFrameOfTheirText() async throws {
            let people = [DirectoryEntry(id: "u1", name: "tanaka", display: "田中 太郎", reading: "たなか たろう",
                                         latin: "tanaka taro")]
            let (composer, _) = try await GtkFixture.composer(directory: WorkspaceDirectory(people: people, channels: []))
            defer { GtkFixture.close(composer) }
            let (frames, stop) = try Self.recordFrames(of: composer)
            defer { stop() }
            for key in ["h", "i", "space", "at", "t", "a", "n"] {
                let before = frames().count
                try GtkFixture.xdotool.key([key])
                // One key at a time, each drawn, so every step has a frame of its own.
                try await GtkFixture.settled(composer, "a frame after \(key)") { frames().count > before }
            }
            try await GtkFixture.settled(composer, "the list for tan") {
                composer.bufferText == "hi @tan" && !composer.completionTitlesShown.isEmpty
            }
            let shown = frames().filter { !$0.text.isEmpty }
            #expect(shown.map(\.text).contains("hi @"), "a frame per key: \(shown)")
            for frame in shown {
                let left = 200 - frame.text.count
                #expect(frame.counter == String(left), "the counter of the text in the same frame: \(frame)")
                let wantsList = frame.text.hasPrefix("hi @")
                #expect(frame.completionShown == wantsList, "the list with the @ that opens it: \(frame)")
            }
        }

        /// Display lines of the text view as laid out now (wrapped lines count separately).
        static func displayLines(_ textView: UnsafeMutablePointer<GtkWidget>) -> Int {
            var iter = GtkTextIter()
            gtk_text_buffer_get_start_iter(gtk_text_view_get_buffer(cast(textView)), &iter)
            var lines = 1
            while gtk_text_view_forward_display_line(cast(textView), &iter) != 0 { lines += 1 }
            return lines
        }

        @Test func theInputGrowsInTheFrameThatWrapsTheText() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            let clock = try #require(gtk_widget_get_frame_clock(composer.window))
            final class Recorder { var frames: [(lines: Int, height: Int)] = [] }
            let recorder = Recorder()
            let handler = onSignal(clock, "after-paint") {
                recorder.frames.append((Self.displayLines(composer.textView), composer.inputHeight))
            }
            defer { g_signal_handler_disconnect(clock.rawPointer, handler) }
            // Word by word until the text wraps onto a third display line.
            for word in "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split(separator: " ") {
                let before = recorder.frames.count
                try GtkFixture.xdotool.type(word + " ")
                try await GtkFixture.settled(composer, "a frame after \(word)") {
                    recorder.frames.count > before && composer.bufferText.hasSuffix(word + " ")
                }
                if Self.displayLines(composer.textView) >= 3 { break }
            }
            let frames = recorder.frames
            #expect(Set(frames.map(\.lines)).isSuperset(of: [1, 2, 3]), "the text wrapped twice: \(frames)")
            // One input height per line count: a frame that shows more lines in the old height
            // would be the growth arriving a frame late.
            var heights: [Int: Set<Int>] = [:]
            for frame in frames { heights[frame.lines, default: []].insert(frame.height) }
            for (lines, seen) in heights {
                #expect(seen.count == 1, "\(lines) display lines were drawn at heights \(seen.sorted())")
            }
            #expect(heights[1]!.first! < heights[2]!.first! && heights[2]!.first! < heights[3]!.first!, "\(heights)")
        }
    }
}
