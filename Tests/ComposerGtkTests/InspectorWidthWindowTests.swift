import CGtk
import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing
import TestHarness

extension GtkWindowSuites {
    /// The inspector opens beside the composer without taking its width, and the input keeps
    /// a usable width whatever the input bar shows.
    @MainActor
    @Suite(.serialized)
    struct InspectorWidthWindowTests {
        /// The input's minimum width (`ComposerView.inputMinimumWidth`).
        static let inputMinimumWidth: Int32 = 160

        @Test func theInspectorWidensTheWindowAndClosingGivesTheWidthBack() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try await GtkFixture.wait("the input laid out") { gtk_widget_get_width(composer.textView) > 0 }
            let window = gtk_widget_get_width(composer.window)
            let input = gtk_widget_get_width(composer.textView)
            #expect(input > Self.inputMinimumWidth, "the window's default width leaves the input more than its minimum")
            try await InspectorWindowTests.openInspector(composer)
            try await GtkFixture.wait("the window to widen by the inspector, the input keeping \(input) px") {
                gtk_widget_get_width(composer.window) >= window + 500 && gtk_widget_get_width(composer.textView) == input
            }
            try await GtkFixture.xdotool(["key", "F12"])
            try await GtkFixture.wait("the window back to \(window) px, the input to \(input) px") {
                !composer.inspectorShown && gtk_widget_get_width(composer.window) == window
                    && gtk_widget_get_width(composer.textView) == input
            }
        }

        /// Over the limit (Trim shows) with the simulated keyboard's toggle and the inspector
        /// open, in a window asked to be narrower than anything fits: the window stops at the
        /// width where the input still has its minimum.
        @Test func theInputKeepsItsMinimumWidthWithEveryButtonShown() async throws {
            let options = ComposerOptions(initialText: "abcdefgh", profileDirectory: try GtkFixture.newProfile(),
                                          limit: LengthLimit(limit: 5), simulatedKeyboardInset: 120)
            let (composer, _) = try await GtkFixture.composer(options)
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "Trim shown") { composer.trimButtonShown }
            try await InspectorWindowTests.openInspector(composer)
            try await GtkFixture.wait("the inspector laid out") { gtk_widget_get_width(composer.window) > 1000 }
            gtk_window_set_default_size(cast(composer.window), 100, 600)
            try await GtkFixture.wait("the window at its narrowest") {
                gtk_widget_get_width(composer.window) < 1100 && gtk_widget_get_width(composer.textView) > 0
            }
            #expect(gtk_widget_get_width(composer.textView) >= Self.inputMinimumWidth - 16,
                    "the text view inside the input's \(Self.inputMinimumWidth) px (less its frame)")
        }
    }
}
