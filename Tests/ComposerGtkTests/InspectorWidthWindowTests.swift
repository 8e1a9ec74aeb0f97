import CGtk
@_spi(Testing) import ComposerApp
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
            try await GtkFixture.wait("the input laid out") { gtk_widget_get_width(composer.textView) > 0 }
            let before = gtk_widget_get_width(composer.window)
            try await InspectorWindowTests.openInspector(composer)
            // The window widens for the inspector first. Narrowed while that resize is still
            // on its way to the X server, its configure could come back after the narrowing
            // (run 43 of #31 timed out here, on a loaded machine): the user narrows a window
            // they see widened, and so does the test.
            try await GtkFixture.wait("the window to widen for the inspector from \(before) px") {
                gtk_widget_get_width(composer.window) > before
            }
            gtk_window_set_default_size(cast(composer.window), 100, 600)
            // The window stops at what its content needs (measured as it lays out: the
            // inspector's columns come in once shown), and the input's minimum is part of it.
            var minimum: Int32 = 0, width: Int32 = 0, changes = 0
            do {
                try await GtkFixture.wait("the window at its minimum width") {
                    var measured: Int32 = 0
                    gtk_widget_measure(composer.window, GTK_ORIENTATION_HORIZONTAL, -1, &measured, nil, nil, nil)
                    if measured != minimum { changes += 1 }
                    minimum = measured
                    width = gtk_widget_get_width(composer.window)
                    return minimum > 0 && width == minimum
                }
            } catch {
                // Failed once in a loaded fresh-clone run (#31, run 43): say what it saw.
                var defaultWidth: Int32 = 0
                gtk_window_get_default_size(cast(composer.window), &defaultWidth, nil)
                throw HarnessError("\(error): the window is \(width) px, its measured minimum \(minimum) px "
                    + "(changed \(changes) times while waiting), its default width \(defaultWidth) px")
            }
            #expect(gtk_widget_get_width(composer.textView) >= Self.inputMinimumWidth - 16,
                    "the text view inside the input's \(Self.inputMinimumWidth) px (less its frame)")
        }
    }
}
