import CGtk

/// A GtkCustomFilter whose match function is a Swift closure (released with the filter).
/// `match` gets each item of the filtered model (a GObject) and says whether it is shown.
public func makeCustomFilter(_ match: @escaping (UnsafeMutableRawPointer?) -> Bool) -> UnsafeMutablePointer<GtkFilter> {
    typealias Body = (UnsafeMutableRawPointer?) -> Bool
    noteMainThread()
    let box = ClosureBox(match as Body)
    // GtkCustomFilterFunc: gboolean (*)(gpointer item, gpointer user_data).
    let trampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { item, data in
        onMainActor { ClosureBox<Body>.from(data).body(item) } ? 1 : 0
    }
    let release: @convention(c) (gpointer?) -> Void = { data in
        if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
    }
    return UnsafeMutablePointer<GtkFilter>(gtk_custom_filter_new(trampoline, box.retainedPointer(), release))
}
