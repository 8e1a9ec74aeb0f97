import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing

extension GtkWindowSuites {
    /// What each keystroke's frame asks of the renderer in the input bar (#35). GTK 4.8
    /// redraws the whole window for every key on the GL renderer here, so the bar's nodes are
    /// drawn again per key.
    @MainActor
    @Suite struct DrawingCostWindowTests {
        /// The input's frame is square. A rounded one is a rounded clip over its background,
        /// and GSK's GL renderer shades every pixel under a rounded clip with its corner test:
        /// the frame's 6 px corners cost 4 M instructions per key on llvmpipe, the whole
        /// process 1.26× a plain GtkTextView's CPU per key instead of 1.06× (callgrind of 20
        /// keys, Benchmarks/findings.md). Small rounded nodes (Send, the scroll indicator)
        /// cover a few pixels and stay.
        @Test func theInputsFrameIsDrawnWithoutARoundedClip() async throws {
            let draft = String(repeating: "a line of the draft 日本語\n", count: 10) + "the end"
            let options = ComposerOptions(initialText: draft, profileDirectory: try GtkFixture.newProfile())
            let (composer, _) = try await GtkFixture.composer(options)
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the input fitted") {
                composer.inputMaximumHeight > 0 && composer.inputHeight == composer.inputMaximumHeight
            }
            // Drawn as a frame draws it: after frames painted at the fitted height (a widget
            // waiting for its allocation is left out of a snapshot).
            var painted = 0
            onSignal(gtk_widget_get_frame_clock(composer.window)!, "after-paint") { painted += 1 }
            try await GtkFixture.wait("two frames at the fitted height") {
                if painted < 2 { gtk_widget_queue_draw(composer.window) }
                return painted >= 2
            }
            let (bar, frame) = composer.inputBarWidgets
            let frameArea = Double(gtk_widget_get_width(frame)) * Double(gtk_widget_get_height(frame))
            let (texts, roundedAreas) = RenderNodes.withSnapshot(of: bar) { node -> (Int, [Double]) in
                guard let node else { return (0, []) }
                return (RenderNodes.all(GSK_TEXT_NODE, in: node).count,
                        RenderNodes.all(GSK_ROUNDED_CLIP_NODE, in: node).map(RenderNodes.area(of:)))
            }
            #expect(texts >= 6, "the snapshot holds the input's six lines and Send: \(texts) text nodes")
            #expect(frameArea > 0)
            let large = roundedAreas.filter { $0 * 4 >= frameArea }
            #expect(large.isEmpty, "rounded clips over a quarter of the input's frame (\(Int(frameArea)) px²): \(large)")
        }

        /// The messages in view are drawn again for every key as well: with eight rounded
        /// bubbles in view the whole process took 496 M instructions for 20 keys, 370 M with
        /// square ones (callgrind, llvmpipe, Benchmarks/findings.md). A message is a tinted
        /// square row; no message is drawn under a rounded clip.
        @Test func theMessagesAreDrawnWithoutRoundedClips() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            let buffer = gtk_text_view_get_buffer(cast(composer.textView))
            for index in 1...8 {
                gtk_text_buffer_set_text(buffer, "a message with some words in it, number \(index)", -1)
                composer.send()
            }
            try await GtkFixture.wait("the newest message shown") { composer.messageListShowsNewest }
            var painted = 0
            onSignal(gtk_widget_get_frame_clock(composer.window)!, "after-paint") { painted += 1 }
            try await GtkFixture.wait("two frames with the messages") {
                if painted < 2 { gtk_widget_queue_draw(composer.window) }
                return painted >= 2
            }
            let (texts, rounded) = RenderNodes.withSnapshot(of: composer.messageListWidget) { node -> (Int, Int) in
                guard let node else { return (0, 0) }
                return (RenderNodes.all(GSK_TEXT_NODE, in: node).count, RenderNodes.all(GSK_ROUNDED_CLIP_NODE, in: node).count)
            }
            #expect(texts >= 8, "the snapshot holds the eight messages: \(texts) text nodes")
            #expect(rounded == 0, "\(rounded) rounded clips in the message list")
        }
    }
}
