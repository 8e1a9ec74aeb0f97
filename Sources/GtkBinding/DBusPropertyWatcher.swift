import CGtk

/// Watches one boolean D-Bus property on the session bus (squeekboard's
/// `sm.puri.OSK0.Visible`), whether or not its owner is running yet: GDBusProxy loads the
/// properties when the name appears and reports every change.
public final class DBusPropertyWatcher {
    private let proxy: ObjectRef?
    private let property: String

    /// nil when there is no session bus at all.
    public init?(name: String, path: String, interface: String, property: String,
                 onChange: @escaping (Bool?) -> Void) {
        self.property = property
        var error: UnsafeMutablePointer<GError>?
        guard let created = g_dbus_proxy_new_for_bus_sync(G_BUS_TYPE_SESSION, G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START,
                                                          nil, name, path, interface, nil, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        proxy = ObjectRef(adopting: created)
        let read: () -> Bool? = { [property] in
            let value = cgtk_dbus_proxy_bool(created, property)
            return value < 0 ? nil : value != 0
        }
        // "g-properties-changed": (GDBusProxy*, GVariant *changed, const gchar *const *invalidated, gpointer)
        onTwoPointerSignal(created, "g-properties-changed") { _, _ in onChange(read()) }
        onNotify(created, property: "g-name-owner") { onChange(read()) }
    }

    public var value: Bool? {
        guard let proxy else { return nil }
        let value = cgtk_dbus_proxy_bool(cast(proxy.pointer), property)
        return value < 0 ? nil : value != 0
    }
}
