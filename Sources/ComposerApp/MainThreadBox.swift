/// Carries a GTK-side object into a main-queue closure.
///
/// Swift 6 requires main-queue closures to be Sendable. Everything GTK-side lives on the one
/// thread that runs the GLib loop, and the app drains the main queue from that loop
/// (`MainLoop.drainDispatchMainQueue`), so the object never actually crosses threads.
struct MainThreadBox<Value>: @unchecked Sendable {
    let value: Value
}
