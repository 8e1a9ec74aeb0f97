import CGtk
import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing
import TestHarness

extension GtkWindowSuites {
    /// The completion list in a real window: rows with literal text, a real mouse click
    /// that accepts without taking focus from the text view, and the length limit.
    @MainActor
    @Suite(.serialized)
    struct CompletionWindowTests {
        static let people = [
            DirectoryEntry(id: "u1", name: "tanaka", display: "田中 太郎", reading: "たなか たろう", latin: "tanaka taro"),
            DirectoryEntry(id: "u2", name: "bold", display: "<b>Bold</b> &amp; <span foreground='red'>Red</span>",
                           reading: "", latin: "bold"),
        ]
        static var directory: Directory { Directory(people: people, channels: []) }

        @Test func rowsShowNamesAsLiteralTextAndAClickAcceptsKeepingFocus() async throws {
            let (composer, _) = try await GtkFixture.composer(directory: Self.directory)
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("@bol")
            try await GtkFixture.wait("the list for bol") { !composer.completionTitlesShown.isEmpty }
            #expect(composer.completionTitlesShown == ["<b>Bold</b> &amp; <span foreground='red'>Red</span>"],
                    "markup in data is shown as text")
            // Wait for the row to be laid out before aiming at it.
            var center = (x: 0.0, y: 0.0)
            try await GtkFixture.wait("the row to be laid out") {
                guard let now = composer.completionRowCenter(0), now.y > 1 else { return false }
                defer { center = now }
                return now == center
            }
            let window = try #require(GtkFixture.windowID)
            try await GtkFixture.xdotool(["mousemove", "--window", window, String(Int(center.x)), String(Int(center.y)),
                                          "click", "1"])
            try await GtkFixture.settled(composer, "the accepted mention") { composer.model.text == "@bold " }
            #expect(gtk_widget_has_focus(composer.textView) != 0, "the text view keeps focus")
            #expect(composer.completionTitlesShown.isEmpty)
            #expect(composer.trace.emitted.contains(.accept(item: "u2", text: "@bold ")))
            try await GtkFixture.wait("the mention highlighted") { composer.highlightedRanges(.mention) == [0..<5] }
        }

        @Test func mentionsAreHighlightedAsYouTypeAndStopWhenBroken() async throws {
            let (composer, _) = try await GtkFixture.composer(directory: Self.directory)
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("hi @tanak")
            try await GtkFixture.settled(composer, "the text") { composer.model.text == "hi @tanak" }
            #expect(composer.highlightedRanges(.mention).isEmpty, "@tanak is nobody")
            try GtkFixture.xdotool.key(["Escape"])  // close the list; keep typing by hand
            try GtkFixture.xdotool.type("a and more")
            try await GtkFixture.wait("@tanaka highlighted") { composer.highlightedRanges(.mention) == [3..<10] }
            try GtkFixture.xdotool.key(["ctrl+a"])
            try GtkFixture.xdotool.type("@unknown #x")
            try await GtkFixture.wait("nothing highlighted") {
                composer.model.text == "@unknown #x" && composer.highlightedRanges(.mention).isEmpty
            }
        }

        @Test func acceptingObeysTheHardLimitAndIsOneUndoStep() async throws {
            let options = ComposerOptions(initialText: "hi ", profileDirectory: try GtkFixture.newProfile(),
                                          limit: LengthLimit(limit: 8, mode: .hard))
            let (composer, _) = try await GtkFixture.composer(options, directory: Self.directory)
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("@tan")
            try await GtkFixture.wait("the list") { !composer.completionTitlesShown.isEmpty }
            try GtkFixture.xdotool.key(["Tab"])
            // "hi @tanaka " is 11: the inserted mention is cut back to the limit.
            try await GtkFixture.wait("the cut mention") { composer.model.text == "hi @tana" }
            #expect(composer.trace.emitted.contains(.limit(removed: "ka ", at: 8)))
            try GtkFixture.xdotool.key(["ctrl+z"])
            try await GtkFixture.wait("undo brings the cut part back") { composer.model.text == "hi @tanaka " }
        }
    }
}
