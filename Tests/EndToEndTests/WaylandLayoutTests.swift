import Foundation
import Testing
import ComposerCore
import TestHarness

/// The panel layout with a real on-screen keyboard: sway + squeekboard on headless Wayland.
/// sway shrinks the window for the keyboard, so the keyboard overlaps nothing, but the app
/// knows it is up and how tall it is (the height the window lost), shows the caret toolbar,
/// and every layout it reports fills its panel.
@Suite(.serialized)
struct WaylandLayoutTests {
    static let artifacts = RunOutput.artifacts

    /// Region heights of a layout event and whether they fill its panel.
    static func fills(_ layout: JSONValue) -> Bool {
        let regions = ["list", "completion", "indicator", "toolbar", "input", "keyboard"].compactMap { layout[$0]?.intValue }
        guard regions.count == 6, regions.allSatisfy({ $0 >= 0 }),
              let height = layout["panel"]?.arrayValue?.last?.intValue else { return false }
        return regions.reduce(0, +) == height
    }

    @Test(.timeLimit(.minutes(3)))
    func theKeyboardComesAndGoesAndTheLayoutFollows() throws {
        let wl = try WaylandSession.start(name: "layout", appArguments: ["--text", "hello world"])
        defer { wl.stop() }
        let trace = wl.trace
        let output = wl.outputSize

        try wl.waitForOSK(visible: true)
        let shrunk = try wl.waitForWindowSize("shrunk for the keyboard") { w, h in w == output.width && h < output.height }
        let keyboard = try trace.waitFor("the keyboard event") {
            $0["ev"]?.stringValue == "keyboard" && $0["visible"]?.boolValue == true && $0["source"]?.stringValue == "resize"
        }
        #expect(keyboard["height"]?.intValue == output.height - shrunk.height, "the height the window lost: \(keyboard)")
        #expect(keyboard["overlap"]?.intValue == 0, "sway shrinks the window: nothing is covered")
        let up = try trace.waitFor("a layout with the caret toolbar") {
            $0["ev"]?.stringValue == "layout" && ($0["toolbar"]?.intValue ?? 0) > 0
        }
        #expect(Self.fills(up), "\(up)")
        #expect(up["keyboard"]?.intValue == 0)
        try wl.screenshot(to: Self.artifacts.appendingPathComponent("wayland-layout-keyboard.png"))

        // The caret toolbar, through its keyboard route (Ctrl+Alt+←): one grapheme left.
        let before = trace.entries.count
        try wl.key("Left", modifiers: ["ctrl", "alt"])
        try trace.waitFor("the caret one to the left", from: before) {
            $0["ev"]?.stringValue == "text" && $0["caret"]?.intValue == 10
        }

        // Hidden through D-Bus: the toolbar goes, the window gets the output back.
        let hiding = trace.entries.count
        try wl.setOSKVisible(false)
        try wl.waitForOSK(visible: false)
        _ = try wl.waitForWindowSize("the whole output") { w, h in w == output.width && h == output.height }
        try trace.waitFor("the keyboard hidden", from: hiding) {
            $0["ev"]?.stringValue == "keyboard" && $0["visible"]?.boolValue == false
        }
        let down = try trace.waitFor("a layout without the toolbar", from: hiding) {
            $0["ev"]?.stringValue == "layout" && $0["toolbar"]?.intValue == 0
                && $0["panel"]?.arrayValue?.last?.intValue ?? 0 > shrunk.height
        }
        #expect(Self.fills(down), "\(down)")
        try wl.screenshot(to: Self.artifacts.appendingPathComponent("wayland-layout-no-keyboard.png"))

        // And shown again.
        let showing = trace.entries.count
        try wl.setOSKVisible(true)
        try trace.waitFor("the keyboard again", from: showing) {
            $0["ev"]?.stringValue == "keyboard" && $0["visible"]?.boolValue == true && $0["source"]?.stringValue == "resize"
        }
        let again = try trace.waitFor("the toolbar again", from: showing) {
            $0["ev"]?.stringValue == "layout" && ($0["toolbar"]?.intValue ?? 0) > 0
        }
        #expect(Self.fills(again), "\(again)")
        for layout in trace.events(named: "layout") { #expect(Self.fills(layout), "every layout fills its panel: \(layout)") }

        wl.app.terminate()
        try trace.waitFor(event: "exit")
        #expect(try wl.app.waitForExit() == 0)
    }
}
