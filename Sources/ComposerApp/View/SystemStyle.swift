import CGtk
import GtkBinding

/// The system's style as libadwaita follows it: light or dark, and high contrast. It comes
/// from the Settings portal where there is one, else from GSettings
/// (`org.gnome.desktop.interface color-scheme`, `org.gnome.desktop.a11y.interface
/// high-contrast`), and it changes at run time. Plain GTK 4.8 follows neither.
///
/// libadwaita restyles GTK's widgets by itself; what the composer colours on its own (the
/// text tags, the inspector's kinds) follows `current` through `observe`.
enum SystemStyle {
    nonisolated struct Appearance: Equatable, Sendable {
        var dark: Bool
        var highContrast: Bool
    }

    /// libadwaita's styles and style manager, for this process: `AdwApplication` does it at
    /// start-up; windows made without it (the tests, the benchmarks' harness) get it here.
    /// After `gtk_init`; calling it again does nothing.
    static func start() { adw_init() }

    private static var manager: OpaquePointer { adw_style_manager_get_default() }

    static var current: Appearance {
        Appearance(dark: adw_style_manager_get_dark(manager) != 0,
                   highContrast: adw_style_manager_get_high_contrast(manager) != 0)
    }

    /// Calls `changed` after each change of `current`; returns what stops it. The style
    /// manager lives as long as the process: an observer that goes away must stop.
    static func observe(_ changed: @escaping () -> Void) -> () -> Void {
        let manager = manager
        let handlers = ["dark", "high-contrast"].map { onNotify(manager, property: $0, changed) }
        return { for handler in handlers { g_signal_handler_disconnect(manager.rawPointer, handler) } }
    }
}
