import CGtk
@_spi(Testing) import ComposerApp
import Foundation
import GtkBinding
import Testing

extension GtkWindowSuites {
    /// When the memory a long paste freed is given back (#35's RSS after a 10 MB paste).
    @MainActor
    @Suite struct FreedMemoryTests {
        /// The draft saver asks from its own thread within a second of a paste, while GTK
        /// lays the text out for seconds more in idles of a higher priority (a text view
        /// validates at GDK_PRIORITY_REDRAW + 5), freeing as it goes. Given back then, 8 MB
        /// of a 10 MB paste stayed resident; the trim waits until those idles are done.
        @Test func memoryIsGivenBackOnlyOnceTheLayoutIdlesAreDone() async throws {
            let order = Order()
            var roundsAfterAsking = 0
            MainLoop.idle(priority: G_PRIORITY_HIGH_IDLE + 25) {  // GTK_TEXT_VIEW_PRIORITY_VALIDATE
                order.add("layout")
                if order.asked { roundsAfterAsking += 1 }
                return roundsAfterAsking < 20
            }
            Thread.detachNewThread {
                order.ask()
                FreedMemory.giveBackOnceIdle { order.add(Thread.isMainThread ? "trim on the main thread" : "trim") }
            }
            #expect(MainLoop.iterate(until: { roundsAfterAsking == 20 && order.all.contains { $0.hasPrefix("trim") } },
                                     timeoutMilliseconds: 10_000),
                    "the memory was never given back: \(order.all.suffix(3))")
            #expect(order.all.last == "trim", "given back before the layout idles were done, or on the main thread: \(order.all.suffix(25))")
        }
    }
}

/// What ran, in order, from any thread.
private final class Order: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    private var wasAsked = false
    func add(_ event: String) { lock.withLock { events.append(event) } }
    func ask() { lock.withLock { wasAsked = true } }
    var asked: Bool { lock.withLock { wasAsked } }
    var all: [String] { lock.withLock { events } }
}
