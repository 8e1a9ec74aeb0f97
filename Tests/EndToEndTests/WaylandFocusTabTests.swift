import ComposerCore
import Testing
import TestHarness

/// `WaylandSession.focusButton` reads where its Tab took the focus. Each `wtype` run makes
/// sway re-enter the window first, so the text view traces focus in:false, in:true before
/// the Tab: the answer is only the focus line after the Tab's own key line. (Taking the
/// first focus line after sending as the answer sent a second Tab, which wrapped the focus
/// back into the text view: run 13 of #31.)
struct WaylandFocusTabTests {
    static func lines(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    /// The lines of run 13's failure, up to the Tab's focus line.
    static let reentryThenTab = """
        {"ev":"focus","t":3433,"in":false}
        {"ev":"focus","t":3434,"in":true}
        {"ev":"surrounding","t":3434,"kind":"retrieve"}
        {"ev":"key","t":3445,"keyval":"Tab"}
        {"ev":"focus","t":3446,"in":false}
        """

    @Test func theWindowsReentryIsNoAnswerUntilTheTabIsTraced() throws {
        let all = try Self.lines(Self.reentryThenTab)
        // Only the re-entry so far (the Tab still on its way): no answer, wait.
        #expect(WaylandSession.focusAfterTab(all.prefix(1)) == nil)
        #expect(WaylandSession.focusAfterTab(all.prefix(3)) == nil)
        // The Tab is traced but has not moved the focus yet: still no answer.
        #expect(WaylandSession.focusAfterTab(all.prefix(4)) == nil)
        // Its focus line: off the text view.
        #expect(WaylandSession.focusAfterTab(all) == false)
    }

    @Test func aTabThatWrapsBackIntoTheTextViewSaysSo() throws {
        let all = try Self.lines("""
            {"ev":"key","t":10,"keyval":"Tab"}
            {"ev":"focus","t":11,"in":true}
            {"ev":"focus","t":12,"in":false}
            """)
        #expect(WaylandSession.focusAfterTab(all) == true)
    }

    @Test func otherKeysAreNotTheTab() throws {
        let all = try Self.lines("""
            {"ev":"key","t":10,"keyval":"a"}
            {"ev":"focus","t":11,"in":false}
            """)
        #expect(WaylandSession.focusAfterTab(all) == nil)
    }
}
