import CGtk
import GtkBinding

/// What screen readers need beyond GTK 4.8's defaults, for any widget of the app. Each
/// widget's accessible name is set where the widget is made, next to its tooltip.
enum Accessibility {
    /// A toggle button whose on/off state a screen reader tells (`cgtk_toggle_button_new_accessible`:
    /// a check box on GTK 4.8, which has no toggle-button role; a toggle button from 4.10),
    /// its "checked" state kept its "active".
    static func toggleButton(label: String? = nil) -> UnsafeMutablePointer<GtkWidget> {
        let toggle = cgtk_toggle_button_new_accessible()!
        if let label { gtk_button_set_label(cast(toggle), label) }
        followCheckedState(of: toggle)
        return toggle
    }

    /// Keeps a toggle's accessible "checked" state its "active" (GTK 4.8 reports "pressed"
    /// only, which screen readers do not read for a toggle button).
    static func followCheckedState(of toggle: UnsafeMutablePointer<GtkWidget>) {
        cgtk_accessible_set_checked(toggle, gtk_toggle_button_get_active(cast(toggle)))
        _ = onNotify(toggle, property: "active") {
            cgtk_accessible_set_checked(toggle, gtk_toggle_button_get_active(cast(toggle)))
        }
    }

    /// Names a scrolled window and its scroll bars after what they scroll ("Messages,
    /// vertical scroll bar"), and leaves out of the accessible tree the range inside each
    /// bar, which only repeats it: GTK 4.8 names both after their types ("GtkScrollbar",
    /// "GtkRange").
    static func nameScrollBars(of scroller: UnsafeMutablePointer<GtkWidget>, _ what: String) {
        cgtk_accessible_set_label(scroller, what)
        // TRANSLATORS: %@ is what the bar scrolls ("Messages").
        for (bar, format) in [(gtk_scrolled_window_get_vscrollbar(opaque(scroller)), tr("%@, vertical scroll bar")),
                              (gtk_scrolled_window_get_hscrollbar(opaque(scroller)), tr("%@, horizontal scroll bar"))] {
            guard let bar else { continue }
            cgtk_accessible_set_label(bar, String(format: format, what))
            var child = gtk_widget_get_first_child(bar)
            while let part = child {
                cgtk_accessible_set_hidden(part, 1)
                child = gtk_widget_get_next_sibling(part)
            }
        }
    }
}
