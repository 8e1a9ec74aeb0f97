import CGtk

/// One strong GObject reference, released when this Swift value dies.
///
/// Widgets are owned by their parent; this is for objects we keep beyond that ownership
/// (the IM context we observe, list models) so that a Swift field never dangles.
@MainActor
public final class ObjectRef {
    public let pointer: UnsafeMutableRawPointer

    /// Takes a new reference (`g_object_ref`).
    public init(retaining pointer: some GPointer) {
        self.pointer = pointer.rawPointer
        g_object_ref(self.pointer)
    }

    /// Adopts a reference the caller already owns (e.g. from a `_new` constructor or a
    /// "transfer full" getter).
    public init(adopting pointer: some GPointer) {
        self.pointer = pointer.rawPointer
    }

    isolated deinit { g_object_unref(pointer) }
}

/// Calls `body` once, when `object` is finalized. Used to tie non-signal resources
/// (emission hooks) to an object's lifetime.
public func onFinalize(_ object: some GPointer, _ body: @escaping () -> Void) {
    let box = Unmanaged.passRetained(ClosureBox(body)).toOpaque()
    g_object_weak_ref(cast(object), { data, _ in
        guard let data else { return }
        let box = Unmanaged<ClosureBox<() -> Void>>.fromOpaque(data)
        box.takeUnretainedValue().body()
        box.release()
    }, box)
}
