import TestHarness
import Testing

/// What the lab reads to know a Wayland session's input method has the app's focus, on
/// each desktop, without running one.
struct WaylandDesktopTests {
    /// fcitx5's `Controller1.DebugInfo` under sway (input-method-v2) and KWin (v1).
    @Test func fcitx5sFocusedContextIsFoundOnBothFrontends() {
        let sway = """
               Group [wayland_v2:] has 1 InputContext(s)
              IC [7d2c] program: frontend:wayland_v2 cap:4000000052 focus:1
            Input Context without group
            """
        let kwin = """
               Group [wayland:] has 1 InputContext(s)
              IC [b954] program: frontend:wayland cap:52 focus:1
            """
        #expect(WaylandIMSession.hasFocusedWaylandContext(sway))
        #expect(WaylandIMSession.hasFocusedWaylandContext(kwin))
        #expect(!WaylandIMSession.hasFocusedWaylandContext(kwin.replacingOccurrences(of: "focus:1", with: "focus:0")))
        // An X11 client's context (the xim or dbus frontend) is not the compositor's.
        #expect(!WaylandIMSession.hasFocusedWaylandContext("  IC [1] program:gedit frontend:dbus cap:72 focus:1"))
    }

    @Test func eachBackendNamesItsDesktop() {
        #expect(MatrixBackend.x11.desktop == nil)
        #expect(MatrixBackend.wayland.desktop == .sway)
        #expect(MatrixBackend.kde.desktop == .kde)
        #expect(MatrixBackend.gnome.desktop == .gnome)
        #expect(WaylandIMSession.Desktop.gnome.requiredPrograms.contains("gnome-shell"))
        #expect(WaylandIMSession.Desktop.kde.requiredPrograms.contains("fcitx5"))
        #expect(!WaylandIMSession.Desktop.kde.requiredPrograms.contains("sway"))
    }
}
