import CGtk
@_spi(Testing) import ComposerApp
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

        /// The upstream allowlist lets through exactly its messages, with any pointer, and
        /// nothing that merely resembles them.
        @Test func onlyTheExactUpstreamMessagesAreKnown() {
            func known(_ message: String, level: GLibProblem.Level = .warning, domain: String = "Gtk") -> Bool {
                UpstreamProblem.isKnown(GLibProblem(level: level, domain: domain, message: message))
            }
            let gizmo = "Trying to snapshot GtkGizmo 0x5598baaa5ef0 without a current allocation"
            #expect(known(gizmo))
            #expect(!known("Trying to snapshot GtkLabel 0x5598baaa5ef0 without a current allocation"))
            #expect(!known("Trying to snapshot GtkGizmo 0x55 (ours) without a current allocation"))
            #expect(!known("Trying to snapshot GtkGizmo  without a current allocation"))
            #expect(!known(gizmo, level: .critical))
            #expect(!known(gizmo, domain: "GLib"))
            #expect(!known("gtk_widget_get_width: assertion 'GTK_IS_WIDGET (widget)' failed"))
            // IBus's module when its daemon dies with a key outstanding: that error only.
            let closed = "Process Key Event failed: The connection is closed."
            #expect(known(closed, domain: "IBUS"))
            #expect(!known(closed, domain: "Gtk"))
            #expect(!known("Process Key Event failed: Timeout was reached.", domain: "IBUS"))
            #expect(!known("Process Key Event failed: The connection is closed. 0x1", domain: "IBUS"))
        }
    }
}
