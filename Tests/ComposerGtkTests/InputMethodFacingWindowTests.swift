import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing
import TestHarness

extension GtkWindowSuites {
    /// `--surrounding`, `--input-purpose`, `--input-hints` in a real window: what the text
    /// view and its IM context tell an input method, read back the way a module reads it.
    @MainActor
    @Suite(.serialized)
    struct InputMethodFacingWindowTests {
        /// By default the input method gets the text around the caret when it asks.
        @Test func theTextAroundTheCaretIsAnsweredByDefault() async throws {
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(initialText: "hello", profileDirectory: try GtkFixture.newProfile()))
            defer { GtkFixture.close(composer) }
            #expect(composer.surroundingAnswer == "hello")
            #expect(gtk_text_view_get_input_purpose(cast(composer.textView)) == GTK_INPUT_PURPOSE_FREE_FORM)
            #expect(gtk_text_view_get_input_hints(cast(composer.textView)) == GTK_INPUT_HINT_NONE)
        }

        /// `--surrounding off`: a request for the text around the caret gets none, and a
        /// request to delete around it deletes nothing; typing is untouched. The inspector
        /// says so on the request's row, and the start line and the report carry it.
        @Test func surroundingOffAnswersNoTextAndIgnoresDeletions() async throws {
            let facing = InputMethodFacing(surrounding: .off)
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(initialText: "hello", profileDirectory: try GtkFixture.newProfile(), inputMethodFacing: facing))
            defer { GtkFixture.close(composer) }
            #expect(composer.surroundingAnswer == nil, "the input method was answered text around the caret")
            let context = try #require(composer.inputMethodContext)
            #expect(gtk_im_context_delete_surrounding(cast(context), -2, 2) == 0, "the deletion was not refused")
            #expect(composer.model.text == "hello", "a deletion changed the text")
            try GtkFixture.xdotool.type("ab")
            try await GtkFixture.settled(composer, "typing goes on") { composer.model.text == "helloab" }

            try await InspectorWindowTests.openInspector(composer)
            let start = try #require(composer.inspectorLogRows.first)
            guard case .start(_, _, let settings) = start.event else { Issue.record("no start line: \(start.line)"); return }
            #expect(settings.inputMethodFacing == facing)
            #expect(start.line.contains("\"surrounding\":\"off\""), "\(start.line)")
            let retrieve = try #require(composer.inspectorLogRows.first { $0.event == .surroundingRetrieve },
                                        "the refused request has a row")
            #expect(InspectorDetail.lines(for: retrieve).contains { $0.hasPrefix("not answered (--surrounding off)") },
                    "\(InspectorDetail.lines(for: retrieve))")
            let delete = try #require(composer.inspectorLogRows.first { $0.event == .surroundingDelete(offset: -2, count: 2) })
            #expect(InspectorDetail.lines(for: delete).contains("ignored (--surrounding off): “lo” stays"),
                    "\(InspectorDetail.lines(for: delete))")
            #expect(composer.bugReportMarkdown.contains("- surrounding text: off (none answered, deletions ignored)"),
                    "\(composer.bugReportMarkdown)")
        }

        /// `--input-purpose` and `--input-hints` reach the text view and its IM context (which
        /// hands them to the module: IBus's and Fcitx5's content type), and the report.
        @Test func purposeAndHintsReachTheIMContext() async throws {
            let facing = InputMethodFacing(purpose: .password, hints: [.private, .noEmoji])
            let (composer, _) = try await GtkFixture.composer(
                ComposerOptions(profileDirectory: try GtkFixture.newProfile(), inputMethodFacing: facing))
            defer { GtkFixture.close(composer) }
            #expect(gtk_text_view_get_input_purpose(cast(composer.textView)) == GTK_INPUT_PURPOSE_PASSWORD)
            let context = try #require(composer.inputMethodContext)
            #expect(UInt32(cgtk_object_get_int(context, "input-purpose")) == GTK_INPUT_PURPOSE_PASSWORD.rawValue)
            #expect(UInt32(cgtk_object_get_int(context, "input-hints"))
                    == GTK_INPUT_HINT_NO_EMOJI.rawValue | GTK_INPUT_HINT_PRIVATE.rawValue)
            #expect(composer.surroundingAnswer == "", "surrounding text is still answered")
            #expect(composer.bugReportMarkdown.contains("- input purpose: password; input hints: no-emoji, private"),
                    "\(composer.bugReportMarkdown)")
        }
    }
}
