import Foundation

/// A thread of its own that runs blocks in the order they come. Started by the first block,
/// it then stays, asleep on a condition while it has nothing to do: no timer, so it never
/// wakes the process while the app is idle, and no thread is created per write.
///
/// Why not a serial DispatchQueue: on Linux a libdispatch worker stays behind after its work
/// and wakes the process every second; the composer's idle goal is zero wake-ups. Why not a
/// thread per batch of blocks (as before): a draft saved every 300 ms while the user types
/// started and ended a thread each time, whose CPU a per-thread measurement never saw
/// (issue #35: 1.2 ms per key with a 1 MB draft went uncounted by `make bench`).
final class SerialWorker: @unchecked Sendable {
    /// What the worker's thread shares with its owner; the thread holds only this, so the
    /// worker can go, and its thread ends once the blocks given before are run.
    private final class Queue: @unchecked Sendable {
        let condition = NSCondition()
        var blocks: [() -> Void] = []
        var closed = false
    }

    private let queue = Queue()
    private var started = false
    private let name: String

    init(name: String) {
        self.name = name
    }

    deinit {
        queue.condition.lock()
        queue.closed = true
        queue.condition.signal()
        queue.condition.unlock()
    }

    /// Runs `block` on the worker, after every block given before it.
    func async(_ block: @escaping @Sendable () -> Void) {
        queue.condition.lock()
        queue.blocks.append(block)
        if !started {
            started = true
            Thread { [queue, name] in
                // Named from the thread itself: Foundation on Linux does not pass a name set
                // before `start` to the system, where profilers and /proc read it.
                Thread.current.name = name
                Self.run(queue)
            }.start()
        }
        queue.condition.signal()
        queue.condition.unlock()
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

    /// The worker's thread: the next block, or sleep until one comes; it ends once the
    /// worker is gone and nothing is left to run.
    private static func run(_ queue: Queue) {
        while true {
            queue.condition.lock()
            while queue.blocks.isEmpty, !queue.closed { queue.condition.wait() }
            guard !queue.blocks.isEmpty else {
                queue.condition.unlock()
                return
            }
            let next = queue.blocks.removeFirst()
            queue.condition.unlock()
            next()
        }
    }
}
