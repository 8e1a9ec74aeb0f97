@testable import ComposerStore
import Foundation
import Testing

@Suite("The saver's worker thread")
struct SerialWorkerTests {
    /// The kernel's id of the calling thread ("/proc/thread-self" is "PID/task/TID").
    static func threadID() -> Int32 {
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        return Int32(link.split(separator: "/").last ?? "") ?? -1
    }

    /// Whether the process has a thread `id` (its /proc entry).
    static func threadExists(_ id: Int32) -> Bool {
        FileManager.default.fileExists(atPath: "/proc/self/task/\(id)")
    }

    /// Whether thread `id` sleeps (state S in its /proc stat line); false once it is gone.
    static func threadSleeps(_ id: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(id)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[close...].dropFirst(2).first == "S"
    }

    /// Waits (30 s at most) until the worker's thread `id` has gone idle: asleep, or ended.
    static func waitUntilIdle(_ id: Int32) {
        let deadline = Date().addingTimeInterval(30)
        while threadExists(id), !threadSleeps(id), Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
    }

    @Test("blocks run in order on one thread, which stays between them instead of ending per write")
    func oneThreadForEveryWrite() {
        let worker = SerialWorker(name: "test worker")
        var threads: Set<Int32> = []
        var order: [Int] = []
        for round in 0..<5 {
            // Each `sync` returns after the worker ran out of blocks: a thread that ended when
            // idle (the old worker) would show a new id in the next round.
            let (id, ran) = worker.sync { (Self.threadID(), round) }
            threads.insert(id)
            order.append(ran)
            Self.waitUntilIdle(id)
            #expect(Self.threadExists(id))
        }
        #expect(threads.count == 1)
        #expect(order == Array(0..<5))
        #expect(!threads.contains(Self.threadID()))
    }

    @Test("the thread ends once its worker is gone, after the blocks given before")
    func threadEndsWithItsWorker() throws {
        var worker: SerialWorker? = SerialWorker(name: "test worker")
        let id = try #require(worker?.sync { Self.threadID() })
        let ran = NSCondition()
        nonisolated(unsafe) var lastRan = false
        worker?.async {
            ran.lock(); lastRan = true; ran.signal(); ran.unlock()
        }
        worker = nil
        ran.lock()
        let ranBy = Date().addingTimeInterval(30)
        while !lastRan, ran.wait(until: ranBy) {}
        ran.unlock()
        #expect(lastRan)
        let deadline = Date().addingTimeInterval(30)
        while Self.threadExists(id), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(!Self.threadExists(id))
    }
}
