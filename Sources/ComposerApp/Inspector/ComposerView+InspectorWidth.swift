import CGtk
import GtkBinding

extension ComposerView {
    /// The inspector's width when it opens (its divider moves it later): room for its
    /// buttons and a readable row, unless its own minimum is wider.
    static let inspectorOpeningWidth: Int32 = 560

    /// Opening the inspector widens the window by the inspector's width instead of taking it
    /// from the composer, whose input would shrink to nothing beside it; closing gives the
    /// width back. Not when the window's size is not the app's to choose (maximized,
    /// fullscreen): the inspector then shares the width, the composer keeping its minimum.
    /// - Parameter composerWidth: the composer's width before the inspector showed or hid.
    func resizeForInspector(shown: Bool, composerWidth: Int32) {
        guard composerWidth > 0 else { return }
        var (width, height): (Int32, Int32) = (0, 0)
        // GTK 4.8 writes both sizes without checking for NULL.
        gtk_window_get_default_size(cast(window), &width, &height)
        let freeToResize = gtk_window_is_maximized(cast(window)) == 0 && gtk_window_is_fullscreen(cast(window)) == 0
        guard shown else {
            if freeToResize { gtk_window_set_default_size(cast(window), composerWidth, height) }
            return
        }
        let inspectorWidth = max(Self.minimumWidth(inspectorSlot), Self.inspectorOpeningWidth)
        // The divider's own width: what the two columns need beyond their children.
        let divider = max(0, Self.minimumWidth(columns) - Self.minimumWidth(panel) - Self.minimumWidth(inspectorSlot))
        if freeToResize {
            gtk_window_set_default_size(cast(window), composerWidth + divider + inspectorWidth, height)
            gtk_paned_set_position(opaque(columns), composerWidth)
        } else {
            let available = gtk_widget_get_width(columns)
            gtk_paned_set_position(opaque(columns), max(Self.minimumWidth(panel), available - divider - inspectorWidth))
        }
    }

    private static func minimumWidth(_ widget: UnsafeMutablePointer<GtkWidget>) -> Int32 {
        var minimum: Int32 = 0
        gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
        return minimum
    }
}
