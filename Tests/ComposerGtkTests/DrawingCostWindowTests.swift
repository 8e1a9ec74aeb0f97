import CGtk
@_spi(Testing) @testable import ComposerApp
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
            try await GtkFixture.paintedTwice(composer)
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

        /// Near the limit the counter is shown, dimmed, and drawn again for every key: dimmed by
        /// its colour (`.ime-dimmed`), not by libadwaita's `dim-label`, whose opacity is an opacity
        /// node that GSK's GL renderer draws into a texture of its own and blends in every frame.
        @Test func theCounterNearTheLimitIsDimmedByItsColour() async throws {
            let options = ComposerOptions(initialText: String(repeating: "a", count: 190),
                                          profileDirectory: try GtkFixture.newProfile(), limit: LengthLimit(limit: 200))
            let (composer, _) = try await GtkFixture.composer(options)
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the counter shown") { composer.counterIsShown && composer.counterText == "10" }
            try await GtkFixture.paintedTwice(composer)
            func textAlphas(_ node: OpaquePointer?) -> [Float] {
                guard let node else { return [] }
                return RenderNodes.all(GSK_TEXT_NODE, in: node).map { gsk_text_node_get_color($0).pointee.alpha }
            }
            let (opacity, counter) = RenderNodes.withSnapshot(of: composer.limitRowWidget) { node -> (Int, [Float]) in
                guard let node else { return (0, []) }
                return (RenderNodes.all(GSK_OPACITY_NODE, in: node).count, textAlphas(node))
            }
            let input = RenderNodes.withSnapshot(of: composer.textView, textAlphas)
            #expect(opacity == 0, "\(opacity) opacity nodes in the limit's row")
            let undimmed = try #require(input.first, "the input's text")
            let dimmed = try #require(counter.first, "the counter's text")
            let expected = undimmed * Float(Palette(SystemStyle.current).dimmedAlpha)
            #expect(abs(dimmed - expected) < 0.02, "the counter's alpha \(dimmed), the input's \(undimmed)")
        }

        /// The messages in view are drawn again for every key as well: with eight rounded
        /// bubbles in view the whole process took 496 M instructions for 20 keys, 370 M with
        /// square ones (callgrind, llvmpipe, Benchmarks/findings.md). A message is a tinted
        /// square row; no message is drawn under a rounded clip.
        @Test func theMessagesAreDrawnWithoutRoundedClips() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try await GtkFixture.send((1...8).map { "a message with some words in it, number \($0)" }, from: composer)
            try await GtkFixture.paintedTwice(composer)
            let (texts, rounded) = RenderNodes.withSnapshot(of: composer.messageListWidget) { node -> (Int, Int) in
                guard let node else { return (0, 0) }
                return (RenderNodes.all(GSK_TEXT_NODE, in: node).count, RenderNodes.all(GSK_ROUNDED_CLIP_NODE, in: node).count)
            }
            #expect(texts >= 8, "the snapshot holds the eight messages: \(texts) text nodes")
            #expect(rounded == 0, "\(rounded) rounded clips in the message list")
        }

        /// The open completion list is drawn again for every key: 267 M instructions for 20
        /// keys with a tinted selected row, round avatars and dimmed details, 233 M without,
        /// 161 M with no list (callgrind, llvmpipe, Benchmarks/findings.md). No rounded clip,
        /// no opacity node (each an offscreen pass or a corner test), and no tint over the
        /// selected row: its mark is a 3 px accent bar.
        @Test func theCompletionListIsDrawnWithoutTintsRoundedClipsOrOpacity() async throws {
            let people = ["tanaka", "takeda", "tamura", "takahashi", "taniguchi"].enumerated().map { index, name in
                DirectoryEntry(id: "u\(index)", name: name, display: name.capitalized + " San", reading: "", latin: name)
            }
            let (composer, _) = try await GtkFixture.composer(directory: WorkspaceDirectory(people: people, channels: []))
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("@ta")
            try await GtkFixture.settled(composer, "the list for @ta") { composer.completionTitlesShown.count == 5 }
            try await GtkFixture.paintedTwice(composer)
            let row = try #require(composer.completionRowWidgets.first)
            let rowArea = Double(gtk_widget_get_width(row)) * Double(gtk_widget_get_height(row))
            let (texts, rounded, opacity, colours) = RenderNodes.withSnapshot(of: composer.completionListWidget) {
                node -> (Int, Int, Int, [Double]) in
                guard let node else { return (0, 0, 0, []) }
                return (RenderNodes.all(GSK_TEXT_NODE, in: node).count, RenderNodes.all(GSK_ROUNDED_CLIP_NODE, in: node).count,
                        RenderNodes.all(GSK_OPACITY_NODE, in: node).count,
                        RenderNodes.all(GSK_COLOR_NODE, in: node).map(RenderNodes.area(of:)))
            }
            #expect(texts >= 10, "the snapshot holds five rows' names and details: \(texts) text nodes")
            #expect(rounded == 0, "\(rounded) rounded clips in the list")
            #expect(opacity == 0, "\(opacity) opacity nodes in the list")
            #expect(rowArea > 0)
            let tints = colours.filter { $0 * 4 >= rowArea }
            #expect(tints.isEmpty, "colour nodes over a quarter of a row (\(Int(rowArea)) px²): \(tints)")
        }
    }
}
