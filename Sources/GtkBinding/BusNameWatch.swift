import CGtk

/// Watches a well-known name on the session bus without starting its service (no D-Bus
/// activation): `onChange(true)` when it has an owner, `onChange(false)` when it has none —
/// once at the start, then on every change. Unwatched when released.
@MainActor
public final class BusNameWatch {
    private var id: guint = 0

    public init(name: String, onChange: @escaping (_ owned: Bool) -> Void) {
        typealias Body = (Bool) -> Void
        noteMainThread()
        let box = ClosureBox(onChange as Body)
        // GBusNameAppearedCallback: (GDBusConnection *, const gchar *name, const gchar *owner, gpointer).
        let appeared: @convention(c) (OpaquePointer?, UnsafePointer<gchar>?, UnsafePointer<gchar>?, gpointer?) -> Void = { _, _, _, data in
            onMainActor { ClosureBox<Body>.from(data).body(true) }
        }
        // GBusNameVanishedCallback: (GDBusConnection *, const gchar *name, gpointer).
        let vanished: @convention(c) (OpaquePointer?, UnsafePointer<gchar>?, gpointer?) -> Void = { _, _, data in
            onMainActor { ClosureBox<Body>.from(data).body(false) }
        }
        let release: @convention(c) (gpointer?) -> Void = { data in
            if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
        }
        id = g_bus_watch_name(G_BUS_TYPE_SESSION, name, G_BUS_NAME_WATCHER_FLAGS_NONE, appeared, vanished,
                              box.retainedPointer(), release)
    }

    isolated deinit {
        if id != 0 { g_bus_unwatch_name(id) }
    }
}
