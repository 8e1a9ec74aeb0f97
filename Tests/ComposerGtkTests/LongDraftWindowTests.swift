import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing

extension GtkWindowSuites {
    /// A long draft given at start (#35): the input has its full height, or a little more,
    /// before the window is shown. Grown from one line to six once shown, while GTK has validated almost
    /// none of the draft, GtkTextView lays every paragraph out again in each of the next
    /// frames (a 1 MB draft: three more passes of 3–4 s each, the window frozen meanwhile;
    /// docs/upstream/gtk-4.8-long-draft-startup.c: 30 → 108 px costs that, 80 → 108 px
    /// nothing).
    @MainActor
    @Suite struct LongDraftWindowTests {
        static let longDraft = String(repeating: "typing frame world 日本語 テスト message hello 入力\n", count: 800)

        @Test func aLongDraftsInputHasAboutItsFullHeightBeforeTheWindowIsShown() async throws {
            let options = ComposerOptions(initialText: Self.longDraft, profileDirectory: try GtkFixture.newProfile())
            var beforeShown = 0
            let (composer, _) = try await GtkFixture.composer(options, beforePresent: { beforeShown = $0.inputMaximumHeight })
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the first layout") { composer.layout != nil && composer.inputMaximumHeight > 0 }
            try await GtkFixture.wait("the input fitted to six display lines") { composer.inputHeight == composer.inputMaximumHeight }
            let fitted = composer.inputMaximumHeight
            #expect(beforeShown > 0, "no height before the window was shown")
            // Never below the fitted height: grown once shown, GTK 4.8 paints every line of
            // the draft in each frame until it has validated them all (InputGrowth). The
            // sample's tallest line is the CJK fallback font's, as tall as the fitted lines.
            #expect(beforeShown >= fitted, "\(beforeShown) px before shown, \(fitted) px fitted: the input grew")
            #expect((beforeShown - fitted) * 4 <= fitted, "\(beforeShown) px before shown, \(fitted) px fitted")
        }

        @Test func aShortDraftsInputFollowsItsTextFromTheFirstFrame() async throws {
            let options = ComposerOptions(initialText: "hello", profileDirectory: try GtkFixture.newProfile())
            var beforeShown = 0
            let (composer, _) = try await GtkFixture.composer(options, beforePresent: { beforeShown = $0.inputMaximumHeight })
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the first layout") { composer.layout != nil }
            #expect(beforeShown == -1, "a short draft is not given a height before it is measured: \(beforeShown)")
            #expect(composer.inputHeight < 60, "one line: \(composer.inputHeight) px")
        }
    }
}
