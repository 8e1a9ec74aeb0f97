import ComposerCore
import Foundation
import TestHarness
import Testing

/// GNOME Shell's own on-screen keyboard, headless (GNOME Shell 43.9 with the accessibility
/// setting a tablet user turns on), over the composer. Unlike squeekboard under sway, which
/// takes an exclusive zone and makes sway give the window less height (the panel reflows
/// for it: `WaylandKeyboardTests`), GNOME Shell tells the client nothing: no protocol carries
/// its keyboard to the app, and the window keeps its size. It slides the window whose caret
/// (the cursor rectangle the app gives the input method over text-input-v3) the keyboard
/// would cover up by the keyboard's height, and back when the keyboard closes. What the
/// composer must do there is give that rectangle right: then the input bar, at the
/// window's bottom, stays in sight above the keys. What GNOME Shell 43.9 does oddly on the
/// way is in `docs/upstream/gnome-shell-43-osk.md`.
@Suite(.serialized)
struct GnomeKeyboardTests {
    @Test(.timeLimit(.minutes(3)))
    func theInputBarStaysInSightAboveGnomesKeyboardAndTypingGoesOn() throws {
        let engine = try #require(try MatrixEngine.load().first { $0.kind.slug == "gnome-ibus-hangul" })
        let wayland = try #require(WaylandEngine(engine))
        let wl = try WaylandIMSession.start(name: "osk", desktop: .gnome, inputMethod: wayland.inputMethod,
                                            probe: engine.kind.probe, appArguments: ["--text", ""],
                                            onScreenKeyboard: true)
        defer { wl.stop() }
        let output = WaylandIMSession.outputSize
        let pid = wl.app.pid

        // The window at the monitor's bottom edge, where a caret in its input bar is under
        // the keyboard once it shows.
        let placed = try #require(try wl.windowRect(pid: pid), "the app's window is not in GNOME Shell's list")
        let bottomY = output.height - placed.height
        try wl.moveWindow(pid: pid, x: placed.x, y: bottomY)
        try Wait.until("the window at the monitor's bottom (y \(bottomY))", timeout: .seconds(20), interval: .milliseconds(100)) {
            try wl.windowRect(pid: pid)?.y == bottomY
        }
        #expect(try wl.gnomeKeyboard().visible == false, "no keyboard before a tap in a text field")
        let layout = try #require(wl.trace.events(named: "layout").last, "no layout line")
        let input = try #require(layout["input"]?.intValue, "layout \(layout)")

        // A tap in the empty text field opens the keyboard (GTK enables the text input again
        // on a click, and mutter asks the shell for its input panel). A click that moves the
        // caret does not: GTK 4.8 sends no `enable` for it (seen every time, in a plain C
        // GtkTextView too; a second tap where the caret now is opens it), so the field is
        // empty here.
        var keyboard = try wl.gnomeKeyboard()
        let before = wl.trace.entries.count
        try wl.click(x: placed.x + 10, y: bottomY + placed.height - input / 2)
        try wl.trace.waitFor(event: "press", from: before)
        try Wait.until("GNOME's keyboard to show", timeout: .seconds(20), interval: .milliseconds(100),
                       diagnostics: { "keyboard \(keyboard)" }) {
            keyboard = try wl.gnomeKeyboard()
            return keyboard.visible && keyboard.height > 0
        }
        try Wait.until("GNOME's keyboard to slide in at the monitor's bottom", timeout: .seconds(20),
                       interval: .milliseconds(100), diagnostics: { "keyboard \(keyboard)" }) {
            keyboard = try wl.gnomeKeyboard()
            return keyboard.top + keyboard.height == output.height
        }

        // The shell slides the window up until the input bar is above the keys; the window
        // keeps its size, and the app is told nothing (no new keyboard state in its layout).
        var slid = placed
        try Wait.until("the window slid up above the keyboard (top \(keyboard.top))", timeout: .seconds(20),
                       interval: .milliseconds(100), diagnostics: { "window \(slid), keyboard \(keyboard)" }) {
            guard let rect = try wl.windowRect(pid: pid) else { return false }
            slid = rect
            return rect.y + rect.height <= keyboard.top
        }
        #expect(slid.width == placed.width && slid.height == placed.height, "slid, not resized: \(slid) from \(placed)")
        #expect(slid.y == bottomY - keyboard.height, "slid by the keyboard's height: \(slid)")
        #expect(wl.trace.events(named: "layout").last?["keyboard"]?.intValue == 0, "the app is not told of GNOME's keyboard")

        // Typing goes on with the keyboard up: a syllable composes and commits.
        let typing = wl.trace.entries.count
        try wl.key(["g", "k", "s"])
        try wl.trace.waitFor("한 composing", from: typing) {
            $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "한"
        }
        try wl.key(["space"])
        try wl.trace.waitFor("한 committed", from: typing) { $0["ev"]?.stringValue == "commit" && $0["text"]?.stringValue == "한" }

        // Closed, the keyboard gives the window its place back.
        try wl.closeGnomeKeyboard()
        try Wait.until("GNOME's keyboard to close and the window to slide back to y \(bottomY)", timeout: .seconds(20),
                       interval: .milliseconds(100), diagnostics: { "window \(slid), keyboard \(keyboard)" }) {
            keyboard = try wl.gnomeKeyboard()
            slid = try wl.windowRect(pid: pid) ?? slid
            return !keyboard.visible && slid.y == bottomY
        }
        #expect(wl.app.isRunning, "\(wl.app.diagnostics())")
        wl.stop()
        #expect(wl.leftoverProcesses().isEmpty, "processes left after stop: \(wl.leftoverProcesses())")
    }
}
