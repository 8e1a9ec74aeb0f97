import CGtk

/// Visits `root` and its descendants depth-first, each widget before its children and the
/// children in order; `visit` returns whether to go into the widget's children.
public func walkWidgets(from root: UnsafeMutablePointer<GtkWidget>,
                        _ visit: (UnsafeMutablePointer<GtkWidget>) -> Bool) {
    guard visit(root) else { return }
    var child = gtk_widget_get_first_child(root)
    while let current = child {
        walkWidgets(from: current, visit)
        child = gtk_widget_get_next_sibling(current)
    }
}
