import CGtk

// One trampoline per C signal shape. GTK passes handlers exactly the arguments of the
// signal's C signature followed by the user data; a trampoline with the wrong arity reads
// garbage as its user data and crashes in swift_retain. So each shape below names the
// signals it is for, nothing else uses it, and `connect` checks it (`SignalShape`).
// Everything in this module is main-actor isolated (the target's default isolation) and
// each trampoline asserts it: GTK emits on the thread that owns the main context, and a
// handler reached from any other thread stops there (`onMainActor`).

/// Connects `body` (retained in a `ClosureBox`) with `trampoline` as the C handler.
private func connect<Body>(
    _ instance: some GPointer, _ signal: String, after: Bool, _ body: Body, _ trampoline: GCallback,
    shape: SignalShape
) -> gulong {
    shape.check(connecting: signal, to: instance)
    noteMainThread()
    let box = ClosureBox(body)
    return g_signal_connect_data(
        instance.rawPointer, signal, trampoline, box.retainedPointer(),
        ClosureBox<Body>.releaseOnClosureDestroy, after ? G_CONNECT_AFTER : GConnectFlags(rawValue: 0))
}

/// `void (*)(GObject *self, gpointer data)`: clicked, activate, preedit-start/-changed/-end,
/// enter/leave (focus controller), undo, redo, map, changed, value-changed, and a
/// GdkFrameClock's phases (update, layout, paint; GdkSurface's "layout" has a size: not this).
@discardableResult
public func onSignal(_ instance: some GPointer, _ signal: String, after: Bool = false,
                     _ body: @escaping () -> Void) -> gulong {
    typealias Body = () -> Void
    let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
        onMainActor { ClosureBox<Body>.from(data).body() }
    }
    return connect(instance, signal, after: after, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 0, returnsBool: false))
}

/// `gboolean (*)(GObject *self, gpointer data)`: close-request.
@discardableResult
public func onBoolSignal(_ instance: some GPointer, _ signal: String, after: Bool = false,
                         _ body: @escaping () -> Bool) -> gulong {
    typealias Body = () -> Bool
    let trampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
        onMainActor { ClosureBox<Body>.from(data).body() } ? 1 : 0
    }
    return connect(instance, signal, after: after, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 0, returnsBool: true))
}

/// `void (*)(GObject *self, const char *str, gpointer data)`: commit.
@discardableResult
public func onStringSignal(_ instance: some GPointer, _ signal: String, after: Bool = false,
                           _ body: @escaping (String) -> Void) -> gulong {
    typealias Body = (String) -> Void
    let trampoline: @convention(c) (gpointer?, UnsafePointer<CChar>?, gpointer?) -> Void = { _, str, data in
        onMainActor { ClosureBox<Body>.from(data).body(string(fromBorrowed: str)) }
    }
    return connect(instance, signal, after: after, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 1, returnsBool: false))
}

/// `gboolean (*)(GObject *self, const char *str, gpointer data)`: activate-link (GtkLabel).
@discardableResult
public func onStringBoolSignal(_ instance: some GPointer, _ signal: String, after: Bool = false,
                               _ body: @escaping (String) -> Bool) -> gulong {
    typealias Body = (String) -> Bool
    let trampoline: @convention(c) (gpointer?, UnsafePointer<CChar>?, gpointer?) -> gboolean = { _, str, data in
        onMainActor { ClosureBox<Body>.from(data).body(string(fromBorrowed: str)) } ? 1 : 0
    }
    return connect(instance, signal, after: after, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 1, returnsBool: true))
}

/// `void (*)(GObject *self, GParamSpec *pspec, gpointer data)`: notify::PROPERTY.
@discardableResult
public func onNotify(_ instance: some GPointer, property: String,
                     _ body: @escaping () -> Void) -> gulong {
    typealias Body = () -> Void
    let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
        onMainActor { ClosureBox<Body>.from(data).body() }
    }
    return connect(instance, "notify::\(property)", after: false, body as Body,
                   unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 1, returnsBool: false))
}

/// `gboolean (*)(GtkEventControllerKey *self, guint keyval, guint keycode,
///  GdkModifierType state, gpointer data)`: key-pressed, key-released.
@discardableResult
public func onKeySignal(_ instance: some GPointer, _ signal: String,
                        _ body: @escaping (_ keyval: UInt32, _ keycode: UInt32, _ state: UInt32) -> Bool) -> gulong {
    typealias Body = (UInt32, UInt32, UInt32) -> Bool
    let trampoline: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
        _, keyval, keycode, state, data in
        onMainActor { ClosureBox<Body>.from(data).body(keyval, keycode, state.rawValue) } ? 1 : 0
    }
    return connect(instance, signal, after: false, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 3, returnsBool: true))
}

/// `void (*)(GtkTextBuffer *self, GtkTextIter *location, char *text, int len, gpointer data)`:
/// insert-text.
@discardableResult
public func onTextInserted(_ buffer: some GPointer, after: Bool,
                           _ body: @escaping (_ location: UnsafeMutablePointer<GtkTextIter>, _ text: String) -> Void) -> gulong {
    typealias Body = (UnsafeMutablePointer<GtkTextIter>, String) -> Void
    let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<GtkTextIter>?, UnsafePointer<CChar>?, gint, gpointer?) -> Void = {
        _, iter, text, length, data in
        guard let iter, let text else { return }
        let bytes = UnsafeRawBufferPointer(start: text, count: Int(length))
        onMainActor { ClosureBox<Body>.from(data).body(iter, String(decoding: bytes, as: UTF8.self)) }
    }
    return connect(buffer, "insert-text", after: after, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 3, returnsBool: false))
}

/// `void (*)(GtkTextBuffer *self, GtkTextIter *start, GtkTextIter *end, gpointer data)`:
/// delete-range.
@discardableResult
public func onRangeDeleted(_ buffer: some GPointer, after: Bool,
                           _ body: @escaping (_ start: UnsafeMutablePointer<GtkTextIter>, _ end: UnsafeMutablePointer<GtkTextIter>) -> Void) -> gulong {
    typealias Body = (UnsafeMutablePointer<GtkTextIter>, UnsafeMutablePointer<GtkTextIter>) -> Void
    let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<GtkTextIter>?, UnsafeMutablePointer<GtkTextIter>?, gpointer?) -> Void = {
        _, start, end, data in
        guard let start, let end else { return }
        onMainActor { ClosureBox<Body>.from(data).body(start, end) }
    }
    return connect(buffer, "delete-range", after: after, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 2, returnsBool: false))
}

/// `void (*)(GtkTextBuffer *self, const GtkTextIter *location, GtkTextMark *mark, gpointer data)`:
/// mark-set.
@discardableResult
public func onMarkSet(_ buffer: some GPointer,
                      _ body: @escaping (_ mark: UnsafeMutablePointer<GtkTextMark>) -> Void) -> gulong {
    typealias Body = (UnsafeMutablePointer<GtkTextMark>) -> Void
    let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<GtkTextIter>?, UnsafeMutablePointer<GtkTextMark>?, gpointer?) -> Void = {
        _, _, mark, data in
        guard let mark else { return }
        onMainActor { ClosureBox<Body>.from(data).body(mark) }
    }
    return connect(buffer, "mark-set", after: true, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 2, returnsBool: false))
}

/// `void (*)(GObject *self, gpointer arg, gpointer data)`: paste-done (GdkClipboard *).
@discardableResult
public func onPointerSignal(_ instance: some GPointer, _ signal: String, after: Bool = false,
                            _ body: @escaping (UnsafeMutableRawPointer?) -> Void) -> gulong {
    typealias Body = (UnsafeMutableRawPointer?) -> Void
    let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
        onMainActor { ClosureBox<Body>.from(data).body(argument) }
    }
    return connect(instance, signal, after: after, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 1, returnsBool: false))
}

/// `gboolean (*)(GObject *self, gpointer arg, gpointer data)`: xevent (GdkX11Display, an XEvent *).
@discardableResult
public func onPointerBoolSignal(_ instance: some GPointer, _ signal: String, after: Bool = false,
                                _ body: @escaping (UnsafeMutableRawPointer?) -> Bool) -> gulong {
    typealias Body = (UnsafeMutableRawPointer?) -> Bool
    let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, argument, data in
        onMainActor { ClosureBox<Body>.from(data).body(argument) } ? 1 : 0
    }
    return connect(instance, signal, after: after, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 1, returnsBool: true))
}

/// `void (*)(GObject *self, gint value, gpointer data)`: response (GtkNativeDialog).
@discardableResult
public func onIntSignal(_ instance: some GPointer, _ signal: String, _ body: @escaping (Int) -> Void) -> gulong {
    typealias Body = (Int) -> Void
    let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, value, data in
        onMainActor { ClosureBox<Body>.from(data).body(Int(value)) }
    }
    return connect(instance, signal, after: false, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 1, returnsBool: false))
}

/// `void (*)(GObject *self, gpointer a, gpointer b, gpointer data)`: g-properties-changed
/// (GVariant *changed, const gchar *const *invalidated).
@discardableResult
public func onTwoPointerSignal(_ instance: some GPointer, _ signal: String,
                               _ body: @escaping (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void) -> gulong {
    typealias Body = (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
    let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?) -> Void = { _, first, second, data in
        onMainActor { ClosureBox<Body>.from(data).body(first, second) }
    }
    return connect(instance, signal, after: false, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 2, returnsBool: false))
}

/// `void (*)(GtkGestureClick *self, gint n_press, gdouble x, gdouble y, gpointer data)`:
/// pressed, released (GtkGestureClick).
@discardableResult
public func onClickGesture(_ instance: some GPointer, _ signal: String,
                           _ body: @escaping (_ presses: Int, _ x: Double, _ y: Double) -> Void) -> gulong {
    typealias Body = (Int, Double, Double) -> Void
    let trampoline: @convention(c) (gpointer?, gint, gdouble, gdouble, gpointer?) -> Void = { _, presses, x, y, data in
        onMainActor { ClosureBox<Body>.from(data).body(Int(presses), x, y) }
    }
    return connect(instance, signal, after: false, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 3, returnsBool: false))
}

/// `void (*)(GtkGestureLongPress *self, gdouble x, gdouble y, gpointer data)`: pressed.
@discardableResult
public func onLongPress(_ instance: some GPointer, _ body: @escaping (_ x: Double, _ y: Double) -> Void) -> gulong {
    typealias Body = (Double, Double) -> Void
    let trampoline: @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> Void = { _, x, y, data in
        onMainActor { ClosureBox<Body>.from(data).body(x, y) }
    }
    return connect(instance, "pressed", after: false, body as Body, unsafeBitCast(trampoline, to: GCallback.self),
                   shape: SignalShape(arguments: 2, returnsBool: false))
}

/// Draws a GtkDrawingArea with `body(cairo, width, height)` (`gtk_drawing_area_set_draw_func`);
/// the closure lives as long as the area.
public func setDrawFunction(_ area: some GPointer, _ body: @escaping (_ cairo: OpaquePointer, _ width: Int, _ height: Int) -> Void) {
    typealias Body = (OpaquePointer, Int, Int) -> Void
    noteMainThread()
    let box = ClosureBox(body as Body)
    gtk_drawing_area_set_draw_func(cast(area), { _, cairo, width, height, data in
        guard let cairo else { return }
        onMainActor { ClosureBox<Body>.from(data).body(cairo, Int(width), Int(height)) }
    }, box.retainedPointer(), ClosureBox<Body>.releaseOnDestroy)
}
