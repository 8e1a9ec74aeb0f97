import CGtk
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// libdispatch's hooks for a foreign run loop (CoreFoundation uses them on Linux).
@_silgen_name("_dispatch_get_main_queue_handle_4CF")
private func dispatchMainQueueHandle() -> Int32
@_silgen_name("_dispatch_main_queue_callback_4CF")
private func dispatchMainQueueCallback(_ message: UnsafeMutableRawPointer?)

/// A main-thread closure carried through another thread, never called there.
private nonisolated final class MainThreadHandOff<Value>: @unchecked Sendable {
    let body: @MainActor (Value) -> Void
    init(_ body: @escaping @MainActor (Value) -> Void) { self.body = body }
}

/// The GLib main loop as the app's only loop, and the sources it runs.
public enum MainLoop {
    /// Whether a GLib loop is nested inside another dispatch (e.g. IBus's GTK4 module
    /// waits for the engine with a nested loop while filtering a key). Work that must run
    /// "after the current event" must not run then.
    public static var isNested: Bool { g_main_depth() > 1 }

    /// Runs `body` when the loop is idle at `priority`; repeats while it returns true.
    @discardableResult
    public static func idle(priority: Int32 = G_PRIORITY_DEFAULT_IDLE, _ body: @escaping () -> Bool) -> UInt32 {
        noteMainThread()
        let box = ClosureBox(body)
        return g_idle_add_full(priority, { data in
            onMainActor { ClosureBox<() -> Bool>.from(data).body() } ? 1 : 0
        }, box.retainedPointer(), ClosureBox<() -> Bool>.releaseOnDestroy)
    }

    /// Runs `body` after `milliseconds`; repeats while it returns true.
    @discardableResult
    public static func timeout(milliseconds: UInt32, _ body: @escaping () -> Bool) -> UInt32 {
        noteMainThread()
        let box = ClosureBox(body)
        return g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
            onMainActor { ClosureBox<() -> Bool>.from(data).body() } ? 1 : 0
        }, box.retainedPointer(), ClosureBox<() -> Bool>.releaseOnDestroy)
    }

    /// Runs `body` on the loop when the process receives `signal` (SIGTERM, SIGINT):
    /// signal-safe, unlike a C signal handler.
    @discardableResult
    public static func onUnixSignal(_ signal: Int32, _ body: @escaping () -> Void) -> UInt32 {
        noteMainThread()
        let box = ClosureBox(body)
        return g_unix_signal_add_full(G_PRIORITY_HIGH, signal, { data in
            onMainActor { ClosureBox<() -> Void>.from(data).body() }
            return 1
        }, box.retainedPointer(), ClosureBox<() -> Void>.releaseOnDestroy)
    }

    public static func removeSource(_ id: UInt32) { g_source_remove(id) }

    /// Runs `work` on a background thread, then `deliver` with its result on the main loop
    /// (an idle at `priority`; `g_idle_add` is GLib's thread-safe way in). For work that
    /// must not delay a frame, e.g. reading and indexing a large directory at start.
    ///
    /// `deliver` is created on the main thread and only ever called there: the background
    /// thread merely carries it.
    public static func offMainThread<Value: Sendable>(priority: Int32 = G_PRIORITY_DEFAULT_IDLE,
                                                      _ work: @escaping @Sendable () -> Value,
                                                      then deliver: @escaping @MainActor (Value) -> Void) {
        let handOff = MainThreadHandOff(deliver)
        // A thread of its own that ends with the work: a libdispatch worker would stay
        // behind and wake the process every second while it is idle. Not niced: callers
        // start it after the first frame, and a niced thread on a busy two-core machine
        // (a build running) got a few per cent of a core — people and emoji arrived tens
        // of seconds late, after the user had typed past the completion they wanted.
        Thread.detachNewThread {
            let value = work()
            post(priority: priority) { handOff.body(value) }
        }
    }

    /// Runs `body` once on the main loop (an idle at `priority`), from any thread:
    /// `g_idle_add` is GLib's thread-safe way in, and the loop runs on the main thread.
    /// Unlike `DispatchQueue.main`, it needs no drain of libdispatch's queue (tests have none).
    public nonisolated static func post(priority: Int32 = G_PRIORITY_DEFAULT, _ body: @escaping @MainActor () -> Void) {
        let box = MainThreadHandOff<Void> { _ in body() }
        g_idle_add_full(priority, { data in
            let box = Unmanaged<MainThreadHandOff<Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.body(()) }
            return 0
        }, Unmanaged.passRetained(box).toOpaque(), { data in
            if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
        })
    }

    /// GLib's monotonic clock, as a Duration since an arbitrary start.
    public static var now: Duration { .microseconds(g_get_monotonic_time()) }

    /// Makes `DispatchQueue.main` and `@MainActor` work while `g_application_run` owns the
    /// main thread: GLib never drains libdispatch's main queue by itself, so hops to it
    /// would wait forever. libdispatch signals pending work on an eventfd; a GLib fd source
    /// reads it (or the loop would spin) and drains the queue.
    ///
    /// Call once, from the process's main thread, before the loop runs; only in the app
    /// (a test runner already drains the main queue its own way).
    public static func drainDispatchMainQueue() {
        let fd = dispatchMainQueueHandle()
        g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd, G_IO_IN, { fd, _, _ in
            var counter: UInt64 = 0
            _ = withUnsafeMutableBytes(of: &counter) { read(fd, $0.baseAddress, 8) }
            dispatchMainQueueCallback(nil)
            return 1
        }, nil, nil)
    }

    /// Iterates the default context until `condition` holds or `timeoutMilliseconds` pass.
    /// For tests and shutdown; the app itself runs `g_application_run`.
    @discardableResult
    public static func iterate(until condition: () -> Bool, timeoutMilliseconds: Int) -> Bool {
        let deadline = g_get_monotonic_time() + Int(timeoutMilliseconds) * 1000
        // A ticking source so a blocking iteration wakes up to re-check the condition.
        let ticker = g_timeout_add_full(G_PRIORITY_DEFAULT, 10, { _ in 1 }, nil, nil)
        defer { g_source_remove(ticker) }
        while !condition() {
            if g_get_monotonic_time() > deadline { return false }
            g_main_context_iteration(nil, 1)
        }
        return true
    }
}
