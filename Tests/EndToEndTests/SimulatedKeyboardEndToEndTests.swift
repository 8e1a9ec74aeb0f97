import ComposerCore
import Foundation
import TestHarness
import Testing

/// `--osk-inset PX` in the real app under Xvfb: the simulated keyboard comes up when the
/// input has the focus and goes down when another window takes it, as a device's keyboard
/// does (`SimulatedKeyboard`); the `keyboard` and `layout` trace lines follow.
@Suite(.serialized)
struct SimulatedKeyboardEndToEndTests {
    @Test(.timeLimit(.minutes(2)))
    func theSimulatedKeyboardFollowsTheFocusBetweenWindows() throws {
        let cs = try ComposerSession(.gtkSimple, arguments: ["--osk-inset", "160"], name: "e2e-osk-focus")
        defer { cs.stop() }
        let trace = cs.trace
        func keyboard(visible: Bool, from: Int) throws {
            try trace.waitFor("the keyboard \(visible ? "up" : "down")", from: from) {
                $0["ev"]?.stringValue == "keyboard" && $0["visible"]?.boolValue == visible
                    && $0["source"]?.stringValue == "simulated" && $0["height"]?.intValue == (visible ? 160 : 0)
            }
            try trace.waitFor("the panel laid out with the keyboard \(visible ? "up" : "down")", from: from) {
                $0["ev"]?.stringValue == "layout" && $0["keyboard"]?.intValue == (visible ? 160 : 0)
            }
        }
        // The window is focused: the input has the focus, the keyboard is up.
        try keyboard(visible: true, from: 0)
        let other = try cs.session.launch("xev", executable: "xev", arguments: ["-event", "focus"])
        defer { other.terminate(signal: SIGTERM) }
        let otherWindow = try cs.xdotool.waitForWindow(pid: other.pid, name: "Event Tester", process: other)
        let away = trace.entries.count
        try cs.xdotool.focus(otherWindow)
        try keyboard(visible: false, from: away)
        let back = trace.entries.count
        try cs.xdotool.focus(cs.window)
        try keyboard(visible: true, from: back)
        // Typing with the keyboard up works as ever.
        let typed = trace.entries.count
        try cs.xdotool.type("ok")
        try trace.waitFor("the text ok", from: typed) { $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "ok" }
        #expect(try cs.terminateApp() == 0)
    }
}
