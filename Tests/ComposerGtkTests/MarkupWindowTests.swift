import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing
import TestHarness

extension GtkWindowSuites {
    /// Markup in names and messages stays literal text everywhere it is shown: completion
    /// rows (title and detail), the text accepting inserts, an edited sent message, and the
    /// inspector's rows and detail. GTK would render `<b>` bold and `&amp;` as `&` if any
    /// of them went through markup; a label that did would also lose text it cannot parse.
    @MainActor
    @Suite(.serialized)
    struct MarkupWindowTests {
        static let person = DirectoryEntry(id: "u1", name: "<b>x</b>", display: "&amp; <i>y</i>", reading: "", latin: "amp y")
        static let channel = DirectoryEntry(id: "c1", name: "a&amp;b", display: "<u>Chan</u> & <span>", reading: "",
                                            latin: "chan")

        @Test func completionRowsAndWhatAcceptingInsertsAreLiteral() async throws {
            let (composer, _) = try await GtkFixture.composer(
                directory: WorkspaceDirectory(people: [Self.person], channels: [Self.channel]))
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("@amp")
            try await GtkFixture.settled(composer, "the list for @amp") { !composer.completionTitlesShown.isEmpty }
            #expect(composer.completionTitlesShown == ["&amp; <i>y</i>"])
            #expect(composer.completionDetailsShown == ["@<b>x</b>"])
            try GtkFixture.xdotool.key(["Tab"])
            try await GtkFixture.settled(composer, "accepted") { composer.model.text == "@<b>x</b> " }
            #expect(composer.bufferText == "@<b>x</b> ")

            try GtkFixture.xdotool.type("#a")
            try await GtkFixture.settled(composer, "the list for #a") { !composer.completionTitlesShown.isEmpty }
            #expect(composer.completionTitlesShown == ["#a&amp;b"])
            #expect(composer.completionDetailsShown == ["<u>Chan</u> & <span>"])
        }

        @Test func anEditedMessageIsLiteral() async throws {
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(initialText: "<i>first</i>", profileDirectory: try GtkFixture.newProfile()))
            defer { GtkFixture.close(composer) }
            composer.send()
            try await GtkFixture.settled(composer, "sent") { composer.model.text.isEmpty }
            try GtkFixture.xdotool.key(["Up"])
            try await GtkFixture.settled(composer, "editing it") { composer.model.text == "<i>first</i>" }
            try GtkFixture.xdotool.type(" &amp; <b>")
            try await GtkFixture.settled(composer, "edited") { composer.model.text == "<i>first</i> &amp; <b>" }
            try GtkFixture.xdotool.key(["Return"])
            try await GtkFixture.settled(composer, "saved") { composer.sentMessagesShown == ["<i>first</i> &amp; <b>"] }
        }

        @Test func inspectorRowsAndDetailAreLiteral() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try await InspectorWindowTests.openInspector(composer)
            let markup = "<b>x</b> &amp; <span foreground='red'>"
            gdk_clipboard_set_text(gdk_display_get_clipboard(gdk_display_get_default()), markup)
            try GtkFixture.xdotool.key(["ctrl+v"])
            try await GtkFixture.settled(composer, "the paste") { composer.model.text == markup }
            let summary = "edit (paste) at 0: inserted “\(markup)”"
            try await GtkFixture.wait("the edit row on screen") {
                composer.inspectorVisibleSummaries.contains { $0.text == summary }
            }
            #expect(composer.inspectorVisibleSummaries.first { $0.text == summary }?.attributes == "",
                    "plain text, no attributes from the markup")
            let index = try #require(composer.inspectorShownRows.firstIndex { $0.summary == summary })
            composer.inspectorSelect(shownIndex: index)
            try await GtkFixture.wait("the row's detail") { composer.inspectorDetailText.contains(summary) }
        }
    }
}
