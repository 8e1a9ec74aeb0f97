import Foundation
import Testing
import ComposerCore
import TestHarness

/// ime-composer on a real (headless) Wayland desktop with an on-screen keyboard: sway and
/// squeekboard, run as an unprivileged user by `WaylandSession`. The app is told nothing
/// but its new size when the keyboard comes and goes; these tests prove the session and the
/// observation tools (D-Bus property, sway's tree, grim) against the current app.
@Suite(.serialized)
struct WaylandKeyboardTests {

    static let artifacts = RunOutput.artifacts

    @Test(.timeLimit(.minutes(3)))
    func keyboardShowsShrinksTheWindowAndFollowsSetVisible() throws {
        let wl = try WaylandSession.start(name: "osk")
        defer { wl.stop() }
        let output = wl.outputSize
        print("WaylandSession startup: " + wl.startupTimings
            .map { "\($0.step) \(Self.ms($0.duration))" }.joined(separator: ", "))

        // The app runs on Wayland with the text-input-v3 IM module and is ready.
        let start = try #require(wl.trace.events(named: "start").first)
        #expect(start["backend"]?.stringValue == "wayland", "start: \(start)")
        #expect(start["im_module"]?.stringValue == "wayland", "start: \(start)")
        #expect(!wl.trace.events(named: "ready").isEmpty)
        #expect(wl.inputHasFocus == true, "the text view has focus at ready")

        // After the workspace toggle the text view's focus shows the keyboard, and sway
        // gives the window only what the keyboard leaves.
        try wl.waitForOSK(visible: true)
        let shrunk = try wl.waitForWindowSize("shorter than the output (keyboard shown)") { w, h in
            w == output.width && h < output.height
        }
        print("keyboard shown: window \(shrunk.width)x\(shrunk.height)")
        try wl.screenshot(to: Self.artifacts.appendingPathComponent("wayland-osk-shown.png"))

        // SetVisible(false) hides it: the window gets the whole output again.
        let clock = ContinuousClock()
        var since = clock.now
        try wl.setOSKVisible(false)
        try wl.waitForOSK(visible: false)
        let full = try wl.waitForWindowSize("the whole output (keyboard hidden)") { w, h in
            w == output.width && h == output.height
        }
        print("SetVisible(false) → hidden, window \(full.width)x\(full.height) in \(Self.ms(clock.now - since))")
        #expect(full == (output.width, output.height))
        try wl.screenshot(to: Self.artifacts.appendingPathComponent("wayland-osk-hidden.png"))

        // SetVisible(true) brings it back, and the window shrinks to the same height.
        since = clock.now
        try wl.setOSKVisible(true)
        try wl.waitForOSK(visible: true)
        let again = try wl.waitForWindowSize("shorter than the output again") { w, h in
            w == output.width && h < output.height
        }
        print("SetVisible(true) → shown, window \(again.width)x\(again.height) in \(Self.ms(clock.now - since))")
        #expect(again == shrunk, "same keyboard, same window: \(again) vs \(shrunk)")
        try wl.screenshot(to: Self.artifacts.appendingPathComponent("wayland-osk-shown-again.png"))

        // The app keeps running throughout and leaves with its exit event on SIGTERM.
        #expect(wl.app.isRunning, "\(wl.app.diagnostics())")
        wl.app.terminate()
        let exit = try wl.trace.waitFor(event: "exit")
        #expect(exit["reason"]?.stringValue == "sigterm")
        #expect(try wl.app.waitForExit() == 0, "\(wl.app.diagnostics())")
        #expect(wl.trace.malformedLines.isEmpty)

        wl.stop()
        #expect(wl.leftoverProcesses().isEmpty, "processes left after stop: \(wl.leftoverProcesses())")
        #expect(!FileManager.default.fileExists(atPath: wl.session.directory.path),
                "session directory left after stop: \(wl.session.directory.path)")
    }

    @Test(.timeLimit(.minutes(3)))
    func focusMovingOffTheTextViewHidesTheKeyboardAndBackShowsIt() throws {
        let wl = try WaylandSession.start(name: "osk-focus")
        defer { wl.stop() }
        let output = wl.outputSize
        try wl.waitForOSK(visible: true)
        try wl.waitForWindowSize("shorter than the output (keyboard shown)") { _, h in h < output.height }

        // Tab moves focus to the next widget: the text input is disabled, the keyboard goes.
        try wl.focusButton()
        #expect(wl.inputHasFocus == false)
        try wl.waitForOSK(visible: false)
        try wl.waitForWindowSize("the whole output (keyboard hidden)") { _, h in h == output.height }
        try wl.screenshot(to: Self.artifacts.appendingPathComponent("wayland-osk-focus-button.png"))

        // Back into the text view: the keyboard comes back.
        try wl.focusInput()
        #expect(wl.inputHasFocus == true)
        try wl.waitForOSK(visible: true)
        try wl.waitForWindowSize("shorter than the output again") { _, h in h < output.height }
        try wl.screenshot(to: Self.artifacts.appendingPathComponent("wayland-osk-focus-input.png"))

        // A virtual keyboard (wtype) types into the focused text view.
        try wl.type("hello")
        try wl.trace.waitFor("a text event with \"hello\"") {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "hello"
        }

        wl.stop()
        #expect(wl.leftoverProcesses().isEmpty, "processes left after stop: \(wl.leftoverProcesses())")
    }

    static func ms(_ d: Duration) -> String {
        let c = d.components
        return "\(c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000) ms"
    }
}
