import CGtk
#if canImport(Glibc)
import Glibc
#endif

/// The thread GTK runs on: the one that made the first connection (every connection is
/// made by main-actor code before any handler can run).
nonisolated(unsafe) private var mainThread: pthread_t?

/// Notes the main thread; called by every connection.
func noteMainThread() {
    if mainThread == nil { mainThread = pthread_self() }
}

/// Runs a handler's body as the main-actor code it is, from a C trampoline, after checking
/// that GLib called it on the main thread: GTK emits on the thread that owns the main
/// context, and a handler reached from any other thread stops there instead of touching
/// GTK. Debug builds check with `MainActor.assumeIsolated`; release builds compare thread
/// ids (a few instructions, where the executor check costs hundreds on every keystroke's
/// handlers).
@inline(__always)
nonisolated func onMainActor<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
    #if DEBUG
    return try MainActor.assumeIsolated(body)
    #else
    guard let mainThread, pthread_equal(pthread_self(), mainThread) != 0 else {
        fatalError("GtkBinding: a GTK handler ran off the main thread")
    }
    return try withoutActuallyEscaping(body) { body in
        try unsafeBitCast(body, to: (() throws -> T).self)()
    }
    #endif
}
