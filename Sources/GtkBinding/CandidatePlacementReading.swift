import CGtk
#if canImport(Glibc)
import Glibc
#endif

/// A rectangle read from GTK, an IM module's messages or the X server, in whole pixels.
public nonisolated struct ReadRect: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

// MARK: What the text view gives its input method

/// One call of `gtk_im_context_set_cursor_location` on a GtkIMMulticontext.
public nonisolated struct CursorCall: Equatable, Sendable {
    /// The context called (`CursorLocations.identity(of:)`).
    public var context: Int
    public var rect: ReadRect
    /// IBus: the connection the module's message went out on (`InputMethodWire`'s
    /// identity of it), and the message's serial; nil when the call sent none that is read.
    public var ibusConnection: Int
    public var ibusSerial: UInt32?
}

/// The rectangles widgets pass to their IM context (`gtk_im_context_set_cursor_location`).
///
/// GTK has no signal for it: the function is a virtual method of the context's class. Text
/// views' contexts are GtkIMMulticontexts, so that class's method is wrapped, once per
/// process, on the first `observe`: while observed, the wrapper reports each call (every
/// widget's: which one is the text view's is the observer's business) with the IBus
/// message it sent, then returns; GTK's own method forwards to the module as before. With
/// no observer the wrapper only calls GTK's.
public enum CursorLocations {
    private static var observer: ((CursorCall) -> Void)?

    /// Calls `observer` with every call from now on, until `stopObserving()`.
    public static func observe(_ observer: @escaping (CursorCall) -> Void) {
        installWrapper()
        self.observer = observer
    }

    public static func stopObserving() {
        observer = nil
    }

    /// What identifies `context` in a `CursorCall`.
    public nonisolated static func identity(of context: UnsafeMutableRawPointer) -> Int { Int(bitPattern: context) }

    fileprivate static var isObserved: Bool { observer != nil }

    fileprivate static func deliver(_ call: CursorCall) {
        observer?(call)
    }

    private static func installWrapper() {
        guard wrappedSetCursorLocation == nil else { return }
        noteMainThread()
        // The class stays referenced for the process: its method is replaced for good.
        let klass = g_type_class_ref(gtk_im_multicontext_get_type())!.assumingMemoryBound(to: GtkIMContextClass.self)
        wrappedSetCursorLocation = klass.pointee.set_cursor_location
        klass.pointee.set_cursor_location = setCursorLocationWrapper
    }
}

/// GTK's own `set_cursor_location` of GtkIMMulticontext, called after reporting.
nonisolated(unsafe) private var wrappedSetCursorLocation:
    (@convention(c) (UnsafeMutablePointer<GtkIMContext>?, UnsafeMutablePointer<GdkRectangle>?) -> Void)?

private let setCursorLocationWrapper: @convention(c) (UnsafeMutablePointer<GtkIMContext>?, UnsafeMutablePointer<GdkRectangle>?) -> Void = {
    context, area in
    guard let context, let area, onMainActor({ CursorLocations.isObserved }) else {
        wrappedSetCursorLocation?(context, area)
        return
    }
    let rect = ReadRect(x: Int(area.pointee.x), y: Int(area.pointee.y), width: Int(area.pointee.width), height: Int(area.pointee.height))
    let key = CursorLocations.identity(of: context)
    let before = onMainActor { InputMethodWire.lastIBusSerial() }
    // The IBus module sends its message from inside this call, on this thread: the serial
    // after it is that message's.
    wrappedSetCursorLocation?(context, area)
    onMainActor {
        let after = InputMethodWire.lastIBusSerial()
        CursorLocations.deliver(CursorCall(context: key, rect: rect,
                                           ibusConnection: after.connection,
                                           ibusSerial: after.serial != before.serial ? after.serial : nil))
    }
}

// MARK: What the IM module sends

/// A rectangle this process's IM module sent to its input method, and what tells its call.
public nonisolated struct SentRect: Equatable, Sendable {
    /// "ibus SetCursorLocation", "fcitx5 SetCursorRectV2", …
    public var via: String
    public var rect: ReadRect
    /// IBus: the connection (as in `CursorCall`) and the message's serial on it.
    public var ibusConnection: Int
    public var ibusSerial: UInt32?
    /// Fcitx5: the input context's object path.
    public var fcitxPath: String?
}

extension InputMethodWire {
    /// IBus's connection now and its last serial on this thread (0 when IBus is not read).
    static func lastIBusSerial() -> (connection: Int, serial: UInt32) {
        guard let ibusConnection else { return (0, 0) }
        return (Int(bitPattern: UnsafeMutableRawPointer(ibusConnection)), g_dbus_connection_get_last_serial(ibusConnection))
    }
}

/// Reads the cursor rectangles this process's IM module sends, from the D-Bus messages
/// themselves: IBus's module talks to ibus-daemon over IBus's own bus (its connection is
/// the process's one IBusBus, found in the already loaded libibus), Fcitx5's over the
/// session bus on a private connection (read with a monitor connection, keeping this
/// process's messages only). On the GDBus worker thread, a filter copies the four numbers;
/// the main thread gets them.
public enum InputMethodWire {
    private static var handler: ((SentRect) -> Void)?
    private static var keyHandler: ((String) -> Void)?
    private static var ibusBus: UnsafeMutableRawPointer?
    /// The IBusBus's connection now (it changes when ibus-daemon restarts).
    fileprivate static var ibusConnection: OpaquePointer?
    private static var fcitxMonitor: OpaquePointer?
    private static var fcitxMonitorRefused = false
    /// Times BecomeMonitor went unanswered (each blocked the main thread up to two seconds).
    private static var fcitxMonitorTimeouts = 0
    private static var fcitxSenders: [String: Bool] = [:]
    /// Times the bus did not say whose a sender is (each blocked up to two seconds).
    private static var fcitxSenderQuestionsUnanswered: [String: Int] = [:]

    /// Sends each rectangle read from now on to `handler` (one for the process).
    public static func onSent(_ handler: @escaping (SentRect) -> Void) {
        noteMainThread()
        self.handler = handler
    }

    /// Sends the input context path of each key this process's Fcitx5 module forwards from
    /// now on (`ProcessKeyEvent`) to `handler`: the module forwards keys only for the
    /// context that has the focus, so a key sent while a widget has it is that widget's.
    public static func onFcitxKeySent(_ handler: @escaping (String) -> Void) {
        noteMainThread()
        keyHandler = handler
    }

    /// Starts reading IBus's messages, once the IBus module is loaded (libibus is then in
    /// the process). Returns whether it reads them.
    @discardableResult
    public static func watchIBus() -> Bool {
        if ibusBus != nil { return true }
        guard let library = dlopen("libibus-1.0.so.5", RTLD_NOW | RTLD_NOLOAD) else { return false }
        defer { dlclose(library) }
        guard let newSymbol = dlsym(library, "ibus_bus_new"), let connectionSymbol = dlsym(library, "ibus_bus_get_connection") else {
            return false
        }
        typealias BusNew = @convention(c) () -> UnsafeMutableRawPointer?
        typealias GetConnection = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
        let getConnection = unsafeBitCast(connectionSymbol, to: GetConnection.self)
        // IBusBus is one object per process: this is the module's, with one more reference.
        guard let bus = unsafeBitCast(newSymbol, to: BusNew.self)() else { return false }
        ibusBus = bus
        let addFilter = { (connection: UnsafeMutableRawPointer?) in
            guard let connection else { return }
            ibusConnection = OpaquePointer(connection)
            let key = "ime-composer-placement-filter"
            guard g_object_get_data(connection.assumingMemoryBound(to: GObject.self), key) == nil else { return }
            g_object_set_data(connection.assumingMemoryBound(to: GObject.self), key, connection)
            g_dbus_connection_add_filter(OpaquePointer(connection), ibusFilter, nil, nil)
        }
        addFilter(getConnection(bus))
        // A new connection after ibus-daemon restarted.
        onSignal(bus, "connected") { addFilter(getConnection(bus)) }
        return true
    }

    /// Starts reading Fcitx5's messages on the session bus. Returns whether it reads them.
    @discardableResult
    public static func watchFcitx5() -> Bool {
        if fcitxMonitor != nil { return true }
        // A bus that refuses a monitor refuses it again, and one that cannot be reached will
        // not be: tried no more (each try blocks the main thread).
        guard !fcitxMonitorRefused else { return false }
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            fcitxMonitorRefused = true
            return false
        }
        defer { g_free(address) }
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
            | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let monitor = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            g_clear_error(&error)
            fcitxMonitorRefused = true
            return false
        }
        g_dbus_connection_add_filter(monitor, fcitxMonitorFilter, nil, nil)
        let rules = ["SetCursorRect", "SetCursorRectV2", "ProcessKeyEvent"].map {
            "type='method_call',interface='org.fcitx.Fcitx.InputContext1',member='\($0)'"
        }
        let strv = rules.map { g_variant_new_string($0) }
        let array = strv.withUnsafeBufferPointer { g_variant_new_array(g_variant_type_checked_("s"), $0.baseAddress, gsize($0.count)) }
        let arguments = [array, g_variant_new_uint32(0)].withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        let reply = g_dbus_connection_call_sync(monitor, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                "org.freedesktop.DBus.Monitoring", "BecomeMonitor", arguments,
                                                nil, G_DBUS_CALL_FLAGS_NONE, 2_000, nil, &error)
        guard let reply else {
            // A bus that refuses a monitor refuses it again: asked no more. One that did
            // not answer in time (a loaded machine) is asked again at the next call, twice.
            let timedOut = error.map { $0.pointee.domain == g_io_error_quark() && $0.pointee.code == G_IO_ERROR_TIMED_OUT.rawValue } ?? false
            if timedOut { fcitxMonitorTimeouts += 1 }
            if !timedOut || fcitxMonitorTimeouts >= 3 { fcitxMonitorRefused = true }
            g_clear_error(&error)
            g_object_unref(monitor.rawPointer)
            return false
        }
        g_variant_unref(reply)
        fcitxMonitor = monitor
        return true
    }

    fileprivate static func deliver(_ reading: WireReading) {
        if let sender = reading.sender {
            // Only this process's module: the session bus carries every app's. (A question
            // the bus did not answer is asked again with the sender's next message, twice;
            // then the sender is taken for another app's.)
            if fcitxSenders[sender] == nil {
                if let answer = isThisProcess(sender) {
                    fcitxSenders[sender] = answer
                } else {
                    fcitxSenderQuestionsUnanswered[sender, default: 0] += 1
                    if fcitxSenderQuestionsUnanswered[sender]! >= 3 { fcitxSenders[sender] = false }
                }
            }
            guard fcitxSenders[sender] == true else { return }
            if let rect = reading.rect {
                handler?(SentRect(via: reading.via, rect: rect, ibusConnection: 0, ibusSerial: nil, fcitxPath: reading.path))
            } else {
                keyHandler?(reading.path)
            }
        } else if let rect = reading.rect {
            handler?(SentRect(via: reading.via, rect: rect, ibusConnection: reading.connection,
                              ibusSerial: reading.serial, fcitxPath: nil))
        }
    }

    /// Whether the bus says `sender` is this process; nil when it did not answer.
    private static func isThisProcess(_ sender: String) -> Bool? {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        defer { g_object_unref(bus.rawPointer) }
        let arguments = [g_variant_new_string(sender)].withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "GetConnectionUnixProcessID", arguments, nil, G_DBUS_CALL_FLAGS_NONE,
                                                      2_000, nil, &error) else {
            // A sender gone already is not this process (this process's connection is up).
            let gone = error.map { g_dbus_error_get_remote_error($0).map { String(cString: $0) } } ?? nil
            g_clear_error(&error)
            return gone == "org.freedesktop.DBus.Error.NameHasNoOwner" ? false : nil
        }
        defer { g_variant_unref(reply) }
        let pid = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(pid) }
        return g_variant_get_uint32(pid) == UInt32(getpid())
    }
}

/// One reading, carried from the GDBus worker thread to the main thread.
private nonisolated final class WireReading: @unchecked Sendable {
    let via: String
    /// The rectangle; nil for a key (`ProcessKeyEvent`).
    let rect: ReadRect?
    /// The message's sender, for readings off the session bus (other processes' too).
    let sender: String?
    /// The input context's object path, and the message's serial on its connection.
    let path: String
    let serial: UInt32
    /// The connection the message went out on (IBus's: serials count per connection).
    let connection: Int

    init(via: String, rect: ReadRect?, sender: String?, message: OpaquePointer, connection: OpaquePointer?) {
        self.via = via
        self.rect = rect
        self.sender = sender
        self.connection = connection.map { Int(bitPattern: UnsafeMutableRawPointer($0)) } ?? 0
        path = g_dbus_message_get_path(message).map { String(cString: $0) } ?? ""
        serial = g_dbus_message_get_serial(message)
    }

    /// Hands the reading to the main loop.
    func post() {
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            let reading = Unmanaged<WireReading>.fromOpaque(data!).takeUnretainedValue()
            onMainActor { InputMethodWire.deliver(reading) }
            return 0
        }, Unmanaged.passRetained(self).toOpaque(), { data in
            Unmanaged<WireReading>.fromOpaque(data!).release()
        })
    }

    /// The four integers of a `(iiii)` or `(iiiid)` body, nil for any other.
    static func rect(of message: OpaquePointer) -> ReadRect? {
        guard let body = g_dbus_message_get_body(message), g_variant_n_children(body) >= 4 else { return nil }
        var values: [Int] = []
        for index in 0..<4 {
            let child = g_variant_get_child_value(body, gsize(index))!
            defer { g_variant_unref(child) }
            guard g_variant_is_of_type(child, g_variant_type_checked_("i")) != 0 else { return nil }
            values.append(Int(g_variant_get_int32(child)))
        }
        return ReadRect(x: values[0], y: values[1], width: values[2], height: values[3])
    }
}

/// IBus's bus connection: this process's outgoing cursor calls.
private let ibusFilter: GDBusMessageFilterFunction = { connection, message, incoming, _ in
    guard let message, incoming == 0, g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_METHOD_CALL,
          let memberName = g_dbus_message_get_member(message) else { return message }
    let member = String(cString: memberName)
    if member == "SetCursorLocation" || member == "SetCursorLocationRelative", let rect = WireReading.rect(of: message) {
        WireReading(via: "ibus " + member, rect: rect, sender: nil, message: message, connection: connection).post()
    }
    return message
}

/// The monitor connection: every app's Fcitx5 cursor calls (kept: this process's). Method
/// calls seen as a monitor are dropped here (a monitor must never answer them); the reply
/// to BecomeMonitor passes.
private let fcitxMonitorFilter: GDBusMessageFilterFunction = { _, message, incoming, _ in
    guard let message, incoming != 0 else { return message }
    let type = g_dbus_message_get_message_type(message)
    guard type == G_DBUS_MESSAGE_TYPE_METHOD_CALL || type == G_DBUS_MESSAGE_TYPE_SIGNAL else { return message }
    if type == G_DBUS_MESSAGE_TYPE_METHOD_CALL, let memberName = g_dbus_message_get_member(message),
       let senderName = g_dbus_message_get_sender(message) {
        let member = String(cString: memberName)
        let rect = WireReading.rect(of: message)
        if rect != nil || member == "ProcessKeyEvent" {
            WireReading(via: "fcitx5 " + member, rect: rect, sender: String(cString: senderName), message: message, connection: nil).post()
        }
    }
    g_object_unref(message.rawPointer)
    return nil
}

// MARK: The screen (X11)

/// Rectangles on an X11 screen, in device pixels of the root window.
public enum X11Screen {
    /// Watches of the root window's children, and its event mask before the first.
    private static var watchers = 0
    private static var maskBefore = 0

    /// Whether this client is told of the root window's children changing (tests).
    public static func selectsTopLevelChanges(on displayObject: OpaquePointer) -> Bool {
        guard isInstance(displayObject, of: gdk_x11_display_get_type()) else { return false }
        var attributes = XWindowAttributes()
        XGetWindowAttributes(gdk_x11_display_get_xdisplay(displayObject), gdk_x11_display_get_xrootwindow(displayObject), &attributes)
        return attributes.your_event_mask & SubstructureNotifyMask != 0
    }

    /// Ends a watch (`watchTopLevels`' handler): the last one gives the root window its
    /// event mask back. (GDK 4.8 selects SubstructureNotify on the root itself: there the
    /// watch adds no wake-up; a GDK that does not is left as it was.)
    public static func stopWatchingTopLevels(on displayObject: OpaquePointer, handler: gulong) {
        guard handler != 0 else { return }
        g_signal_handler_disconnect(displayObject.rawPointer, handler)
        watchers -= 1
        if watchers == 0 {
            XSelectInput(gdk_x11_display_get_xdisplay(displayObject), gdk_x11_display_get_xrootwindow(displayObject), maskBefore)
        }
    }

    /// `rect`, in `widget`'s coordinates (logical pixels), on the root window; nil when the
    /// display is not X11 or the widget is not shown.
    public static func rootRect(of rect: ReadRect, in widget: some GPointer) -> ReadRect? {
        let widgetPointer: UnsafeMutablePointer<GtkWidget> = cast(widget)
        guard let native = gtk_widget_get_native(widgetPointer), let surface = gtk_native_get_surface(native),
              isInstance(surface, of: gdk_x11_surface_get_type()) else { return nil }
        var nx = 0.0, ny = 0.0
        guard gtk_widget_translate_coordinates(widgetPointer, cast(native), Double(rect.x), Double(rect.y), &nx, &ny) != 0 else {
            return nil
        }
        var sx = 0.0, sy = 0.0
        gtk_native_get_surface_transform(native, &sx, &sy)
        let scale = Int(gdk_surface_get_scale_factor(surface))
        let display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface))
        var rootX: Int32 = 0, rootY: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(display, gdk_x11_surface_get_xid(surface), gdk_x11_display_get_xrootwindow(gdk_surface_get_display(surface)),
                              Int32((nx + sx) * Double(scale)), Int32((ny + sy) * Double(scale)), &rootX, &rootY, &child)
        return ReadRect(x: Int(rootX), y: Int(rootY), width: rect.width * scale, height: rect.height * scale)
    }

    /// The top-most shown override-redirect window whose WM_CLASS name is one of `names`
    /// (an input method panel's candidate window: ibus-ui-gtk3's, fcitx5's "fcitx"), on
    /// the root window; nil when none is shown or the display is not X11.
    public static func shownPopup(named names: Set<String>, on displayObject: OpaquePointer) -> ReadRect? {
        guard isInstance(displayObject, of: gdk_x11_display_get_type()) else { return nil }
        let display = gdk_x11_display_get_xdisplay(displayObject)
        let root = gdk_x11_display_get_xrootwindow(displayObject)
        // Windows come and go between the query and the reads: their errors are ignored.
        gdk_x11_display_error_trap_push(displayObject)
        defer { gdk_x11_display_error_trap_pop_ignored(displayObject) }
        var rootReturn: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, root, &rootReturn, &parent, &children, &count) != 0, let children else { return nil }
        defer { XFree(children) }
        // Bottom to top: the last match is the top-most.
        for index in stride(from: Int(count) - 1, through: 0, by: -1) {
            let window = children[index]
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(display, window, &attributes) != 0, attributes.map_state == IsViewable,
                  attributes.override_redirect != 0 else { continue }
            var hint = XClassHint()
            guard XGetClassHint(display, window, &hint) != 0 else { continue }
            let name = hint.res_name.map { String(cString: $0) } ?? ""
            if let resName = hint.res_name { XFree(resName) }
            if let resClass = hint.res_class { XFree(resClass) }
            guard names.contains(name) else { continue }
            return ReadRect(x: Int(attributes.x), y: Int(attributes.y),
                            width: Int(attributes.width + 2 * attributes.border_width),
                            height: Int(attributes.height + 2 * attributes.border_width))
        }
        return nil
    }

    /// Calls `body` whenever a top-level window of any client is shown, hidden or moved
    /// (SubstructureNotify on the root window, read from GDK's own event stream). Returns
    /// the handler to disconnect from the display, 0 when the display is not X11.
    @discardableResult
    public static func watchTopLevels(on displayObject: OpaquePointer, _ body: @escaping () -> Void) -> gulong {
        guard isInstance(displayObject, of: gdk_x11_display_get_type()) else { return 0 }
        let display = gdk_x11_display_get_xdisplay(displayObject)
        let root = gdk_x11_display_get_xrootwindow(displayObject)
        if watchers == 0 {
            var attributes = XWindowAttributes()
            XGetWindowAttributes(display, root, &attributes)
            maskBefore = attributes.your_event_mask
            XSelectInput(display, root, maskBefore | SubstructureNotifyMask)
        }
        watchers += 1
        return onPointerBoolSignal(displayObject, "xevent") { event in
            guard let event else { return false }
            let xevent = event.assumingMemoryBound(to: XEvent.self)
            switch xevent.pointee.type {
            case MapNotify, UnmapNotify, ConfigureNotify:
                // Reported for the root's children: `event` (xany's window) is the root.
                if xevent.pointee.xany.window == root { body() }
            default:
                break
            }
            return false
        }
    }
}
