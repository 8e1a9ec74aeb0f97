import CGtk
import Foundation
import GtkBinding

/// What the trace's "start" event reports about where the app runs.
enum DisplayEnvironment {
    /// "x11", "wayland", "broadway"… from the GdkDisplay's class name.
    static var backend: String {
        guard let display = gdk_display_get_default() else { return "none" }
        let name = typeName(of: display)  // e.g. GdkX11Display
        guard name.hasPrefix("Gdk"), name.hasSuffix("Display"), name.count > 10 else { return name }
        return String(name.dropFirst(3).dropLast(7)).lowercased()
    }

    /// The requested input method module: GTK_IM_MODULE, else the gtk-im-module setting,
    /// else "auto" (GTK picks one per display).
    static var requestedInputMethodModule: String {
        if let fromEnvironment = ProcessInfo.processInfo.environment["GTK_IM_MODULE"],
           !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        let fromSettings = string(takingOwnership: cgtk_settings_im_module())
        return fromSettings.isEmpty ? "auto" : fromSettings
    }
}
