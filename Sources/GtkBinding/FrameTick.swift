import CGtk

/// Runs `body` once per frame while `widget` is mapped (`gtk_widget_add_tick_callback`).
///
/// GTK4 has no size-allocate signal: a per-frame look at a widget's size is how an app
/// learns that the compositor resized its window (sway shrinking it for a keyboard).
@discardableResult
public func onEveryFrame(of widget: some GPointer, _ body: @escaping () -> Void) -> UInt32 {
    typealias Body = () -> Void
    let box = ClosureBox<Body>(body)
    let callback: GtkTickCallback = { _, _, data in
        ClosureBox<Body>.from(data).body()
        return 1  // G_SOURCE_CONTINUE
    }
    return gtk_widget_add_tick_callback(cast(widget), callback, box.retainedPointer(),
                                        ClosureBox<Body>.releaseOnDestroy)
}
