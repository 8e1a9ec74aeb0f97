import Foundation

/// A thread of its own that runs blocks in the order they come and ends when it has none
/// left (the next block starts a new one): nothing stays behind while the app is idle.
///
/// Why not a serial DispatchQueue: on Linux a libdispatch worker stays behind after its work
/// and wakes the process every second; the composer's idle goal is zero wake-ups.
final class SerialWorker: @unchecked Sendable {
    private let lock = NSLock()
    private var blocks: [() -> Void] = []
    private var thread: Thread?
    private let name: String

    init(name: String) {
        self.name = name
    }

    /// Runs `block` on the worker, after every block given before it.
    func async(_ block: @escaping @Sendable () -> Void) {
        lock.lock()
        blocks.append(block)
        if thread == nil { startThread() }
        lock.unlock()
    }

    /// Runs `block` on the worker after every block given before it, and waits for it.
    func sync<Value: Sendable>(_ block: @escaping @Sendable () -> Value) -> Value {
        let done = NSCondition()
        nonisolated(unsafe) var result: Value?
        nonisolated(unsafe) var finished = false
        async {
            let value = block()
            done.lock()
            result = value
            finished = true
            done.signal()
            done.unlock()
        }
        done.lock()
        while !finished { done.wait() }
        done.unlock()
        return result!
    }

    /// Called with `lock` held.
    private func startThread() {
        let thread = Thread { self.run() }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    private func run() {
        while true {
            lock.lock()
            guard !blocks.isEmpty else {
                thread = nil
                lock.unlock()
                return
            }
            let next = blocks.removeFirst()
            lock.unlock()
            next()
        }
    }
}
