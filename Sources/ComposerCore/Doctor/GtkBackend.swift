import Foundation

/// Which GDK backend a GTK 4 application started from this environment would use: it
/// decides which IM modules can work (the built-in `wayland` one only on Wayland) and where
/// GTK reads `gtk-im-module` from.
public enum GtkBackend: String, Equatable, Sendable {
    case wayland
    case x11
    /// No display in the environment: GTK could not open a window here.
    case none

    /// GTK 4 tries the backends in `GDK_BACKEND` (comma-separated, `*` for any) in order,
    /// else Wayland first, then X11. A backend needs its display: `WAYLAND_DISPLAY` or
    /// `DISPLAY`. (GTK can also reach `wayland-0` with `WAYLAND_DISPLAY` unset; a session
    /// that relies on that is not told apart here.)
    public static func resolve(environment: [String: String]) -> GtkBackend {
        let hasWayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        let hasX11 = !(environment["DISPLAY"] ?? "").isEmpty
        let requested = (environment["GDK_BACKEND"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let order = requested.isEmpty ? ["*"] : requested
        for name in order {
            switch name {
            case "wayland" where hasWayland: return .wayland
            case "x11" where hasX11: return .x11
            case "*":
                if hasWayland { return .wayland }
                if hasX11 { return .x11 }
            default: continue
            }
        }
        return .none
    }
}
