import CGtk
import ComposerCore
import GtkBinding

extension ComposerView {
    /// Resizes the window and moves the divider as `InspectorColumns` decides, from the
    /// widgets' widths now (the inspector's slot already shown or hidden).
    /// - Parameter composerWidth: the composer's width before the inspector showed or hid.
    func resizeForInspector(shown: Bool, composerWidth: Int32) {
        let measures = InspectorColumns.Measures(
            composerWidth: Int(composerWidth), composerMinimum: Self.minimumWidth(panel),
            inspectorMinimum: Self.minimumWidth(inspectorSlot), columnsMinimum: Self.minimumWidth(columns),
            columnsWidth: Int(gtk_widget_get_width(columns)),
            windowResizable: gtk_window_is_maximized(cast(window)) == 0 && gtk_window_is_fullscreen(cast(window)) == 0)
        let resize = InspectorColumns.resize(inspectorShown: shown, measures)
        if let width = resize.windowWidth {
            var (oldWidth, height): (Int32, Int32) = (0, 0)
            // GTK 4.8 writes both sizes without checking for NULL.
            gtk_window_get_default_size(cast(window), &oldWidth, &height)
            gtk_window_set_default_size(cast(window), Int32(width), height)
        }
        if let position = resize.dividerPosition { gtk_paned_set_position(opaque(columns), Int32(position)) }
    }

    private static func minimumWidth(_ widget: UnsafeMutablePointer<GtkWidget>) -> Int {
        var minimum: Int32 = 0
        gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
        return Int(minimum)
    }
}
