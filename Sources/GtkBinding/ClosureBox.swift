import CGtk

/// A Swift closure kept alive for C: retained once when handed to GLib, released exactly
/// once by GLib's destroy-notify (or by the weak-ref callback), so handlers live as long as
/// the object they are connected to and no longer.
///
public final class ClosureBox<Body> {
    public let body: Body

    public init(_ body: Body) {
        self.body = body
        liveBoxes += 1
    }

    deinit { liveBoxes -= 1 }

    /// Retains the box for C and returns it as `gpointer` user data.
    func retainedPointer() -> gpointer { Unmanaged.passRetained(self).toOpaque() }

    /// The box behind a `gpointer` user data, not consuming the retain.
    static func from(_ data: gpointer?) -> ClosureBox<Body> {
        Unmanaged<ClosureBox<Body>>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Destroy-notify for `g_signal_connect_data` (GClosureNotify shape). Releasing
    /// through `AnyObject` keeps these C function pointers free of generic captures.
    static var releaseOnClosureDestroy: GClosureNotify {
        { data, _ in if let data { Unmanaged<AnyObject>.fromOpaque(data).release() } }
    }

    /// Destroy-notify for sources and hooks (GDestroyNotify shape).
    static var releaseOnDestroy: GDestroyNotify {
        { data in if let data { Unmanaged<AnyObject>.fromOpaque(data).release() } }
    }
}

/// Boxes alive across all closure types (all GTK code runs on one thread).
nonisolated(unsafe) var liveBoxes = 0

/// Number of signal/source/hook closures currently retained for C.
public var liveClosureCount: Int { liveBoxes }
