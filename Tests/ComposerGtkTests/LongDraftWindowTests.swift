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

        /// A draft given with the caret at its end starts at its very end, the input's bottom
        /// margin shown (`StartAtEnd`): scrolled "just enough" instead, 5 px short, the first
        /// kana (a taller fallback font) scrolled the input and GtkScrolledWindow's indicator
        /// faded in and out, 2.7 frames per key instead of 1 (Benchmarks/findings.md). GTK
        /// computes a scroll from estimated line heights, so it is followed while GTK lays
        /// the draft out: a short draft (measured once shown) and a long one (prefitted).
        @Test(arguments: [20, 800])
        func aDraftWithTheCaretAtItsEndIsShownAtItsVeryEnd(lines: Int) async throws {
            let draft = lines == 800 ? Self.longDraft
                : String(repeating: "typing frame world 日本語 テスト\n", count: lines) + "the end"
            let options = ComposerOptions(initialText: draft, profileDirectory: try GtkFixture.newProfile())
            let (composer, _) = try await GtkFixture.composer(options)
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the input fitted") {
                composer.inputMaximumHeight > 0 && composer.inputHeight == composer.inputMaximumHeight
            }
            var scroll = composer.inputScroll
            try await GtkFixture.wait("the input at the end of its text") {
                scroll = composer.inputScroll
                return scroll.upper > scroll.pageSize && scroll.value == scroll.upper - scroll.pageSize
            }
            #expect(composer.inputFollowsEnd, "nothing was typed: the input still follows its end")
            // The first key ends it: from then on the text view keeps its caret in view.
            try await GtkFixture.xdotool(["type", "x"])
            try await GtkFixture.settled(composer, "the typed x") { composer.model.text.hasSuffix("x") }
            #expect(!composer.inputFollowsEnd, "typing stopped following the end")
        }

        /// Scrolling up while GTK lays the draft out is the user's: the input stays where the
        /// user scrolled when the text's height changes afterwards (here: a narrower window
        /// wraps more lines).
        @Test func aScrollByTheUserEndsFollowingTheEnd() async throws {
            let draft = String(repeating: "typing frame world 日本語 テスト message hello 入力\n", count: 30) + "the end"
            let options = ComposerOptions(initialText: draft, profileDirectory: try GtkFixture.newProfile())
            let (composer, _) = try await GtkFixture.composer(options)
            defer { GtkFixture.close(composer) }
            try await GtkFixture.wait("the input at the end of its text") {
                let scroll = composer.inputScroll
                return scroll.upper > scroll.pageSize && scroll.value == scroll.upper - scroll.pageSize
            }
            var x = 0.0, y = 0.0
            gtk_widget_translate_coordinates(composer.textView, composer.window, 20, 20, &x, &y)
            let window = try #require(GtkFixture.windowID)
            try await GtkFixture.xdotool(["mousemove", "--window", window, String(Int(x)), String(Int(y)),
                                          "click", "4", "click", "4", "click", "4"])
            try await GtkFixture.wait("the user's scroll up") {
                let scroll = composer.inputScroll
                return !composer.inputFollowsEnd && scroll.value < scroll.upper - scroll.pageSize - 1
            }
            let upper = composer.inputScroll.upper
            gtk_window_set_default_size(cast(composer.window), 320, gtk_widget_get_height(composer.window))
            try await GtkFixture.wait("the narrower window's taller text") { composer.inputScroll.upper > upper + 1 }
            let scroll = composer.inputScroll
            #expect(scroll.value < scroll.upper - scroll.pageSize - 1, "the input went back to the end: \(scroll)")
        }

        /// A draft too long to highlight whole (`TokenHighlighter.highlightsWholeTextUpTo`)
        /// is highlighted around what the input shows (#35: a 10 MB paste's tags held
        /// 28 MiB): its end at start, its start once scrolled there (the caret stays at the
        /// end), and the end again once a key typed there scrolled back.
        @Test func aLongDraftIsHighlightedWhereTheInputShowsIt() async throws {
            let line = "ask @tanaka about it 日本語\n"
            let lineLength = line.unicodeScalars.count
            let draft = String(repeating: line, count: TokenHighlighter.highlightsWholeTextUpTo * 3 / 2 / lineLength)
            let count = draft.unicodeScalars.count
            let people = [DirectoryEntry(id: "u1", name: "tanaka", display: "田中", reading: "", latin: "tanaka")]
            let options = ComposerOptions(initialText: draft, profileDirectory: try GtkFixture.newProfile())
            let (composer, _) = try await GtkFixture.composer(options, directory: WorkspaceDirectory(people: people, channels: []))
            defer { GtkFixture.close(composer) }
            let lastMention = (count - lineLength + 4)..<(count - lineLength + 11)
            try await GtkFixture.settled(composer, "the last line's mention highlighted") {
                composer.highlightedRanges(.mention).last == lastMention
            }
            #expect(composer.highlightedRanges(.mention).first!.lowerBound > count / 2, "the start is not highlighted")
            try await GtkFixture.wait("the input shown at the end of its text") {
                let scroll = composer.inputScroll
                return scroll.pageSize > 0 && scroll.upper > scroll.pageSize && scroll.value == scroll.upper - scroll.pageSize
            }
            // The user scrolls (the wheel ends following the end), then drags to the top.
            var x = 0.0, y = 0.0
            gtk_widget_translate_coordinates(composer.textView, composer.window, 20, 20, &x, &y)
            let window = try #require(GtkFixture.windowID)
            // Several clicks: GDK takes XI2's smooth-scroll deltas, and the first event after
            // the pointer arrives only sets where the valuator starts.
            try await GtkFixture.xdotool(["mousemove", "--window", window, String(Int(x)), String(Int(y)),
                                          "click", "4", "click", "4", "click", "4"])
            try await GtkFixture.wait("the wheel's scroll") { !composer.inputFollowsEnd }
            composer.scrollInput(to: 0)
            try await GtkFixture.settled(composer, "the first line's mention highlighted") {
                composer.highlightedRanges(.mention).first == 4..<11
            }
            #expect(composer.highlightedRanges(.mention).last!.upperBound < count / 2, "the end is no longer highlighted")
            #expect(composer.model.selection.caret == count, "the caret stayed at the end")
            // A key typed at the caret scrolls the input back to it (Ctrl+End would not: GTK
            // scrolls only when the caret moves).
            try await GtkFixture.xdotool(["type", "x"])
            try await GtkFixture.settled(composer, "the last line's mention highlighted again") {
                composer.highlightedRanges(.mention).last == lastMention
            }
        }
    }
}
