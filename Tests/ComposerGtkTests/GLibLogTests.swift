import CGtk
import ComposerApp
import GtkBinding
import Testing

extension GtkWindowSuites {
    /// The harness's own check: a GLib critical or warning during a test fails that test.
    @MainActor
    @Suite(.serialized)
    struct GLibLogTests {
        @Test func aCriticalDuringATestFailsIt() throws {
            try GtkFixture.start()
            GtkFixture.provokingProblems = true
            defer { GtkFixture.provokingProblems = false }
            withKnownIssue("a deliberate critical must be recorded as a failure") {
                GLibLog.critical("deliberate critical from GLibLogTests")
            } matching: { issue in
                issue.description.contains("a critical from ime-composer: deliberate critical from GLibLogTests")
            }
        }

        @Test func aGtkCriticalFromAMisuseFailsIt() throws {
            try GtkFixture.start()
            GtkFixture.provokingProblems = true
            defer { GtkFixture.provokingProblems = false }
            withKnownIssue("GTK's precondition check on a non-widget is recorded") {
                gtk_widget_get_width(nil)
            } matching: { issue in
                issue.description.contains("a critical from Gtk: gtk_widget_get_width: assertion 'GTK_IS_WIDGET (widget)' failed")
            }
        }
    }
}
