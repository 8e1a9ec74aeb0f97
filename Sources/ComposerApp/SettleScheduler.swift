import CGtk
import GtkBinding

/// Runs the settle step once input has settled: after the current event is fully handled.
///
/// Seed 002: "is input complete?" cannot be answered inside a change callback; defer the
/// decision to after the toolkit finishes the current event. In GTK that is an idle source
/// — but not one dispatched by a *nested* main loop (IBus's GTK4 module iterates one while
/// it waits for the engine to filter a key), which would run us in the middle of that key.
/// Focus-out, send and exit settle synchronously instead (`settleNow`).
///
/// The idle runs before the frame is drawn: after every pending event (keys, the input
/// method's D-Bus messages: priority 0) and before GDK's paint (`GDK_PRIORITY_REDRAW`,
/// 120), so the settle's effects (counter, overflow colour, highlights, a grown input,
/// an opened completion list) appear in the same frame as the text that caused them.
/// At GLib's default idle priority (200) they came one frame later.
final class SettleScheduler {
    /// Between the last event and the frame's paint (`G_PRIORITY_HIGH_IDLE + 20` in GDK).
    static let priority = G_PRIORITY_HIGH_IDLE + 10

    private var pendingSource: UInt32?
    private let sources: SourceGroup
    private let settle: () -> Void
    /// Settles run so far (tests wait for "settled since X" with it).
    private(set) var settleCount = 0

    init(sources: SourceGroup, settle: @escaping () -> Void) {
        self.sources = sources
        self.settle = settle
    }

    /// Whether a settle was asked for and has not run yet: input has not settled.
    var isPending: Bool { pendingSource != nil }

    /// Asks for one settle after the current event; many requests, one settle.
    func request() {
        guard pendingSource == nil else { return }
        pendingSource = sources.idle(priority: Self.priority) { [weak self] in
            self?.fire()
            return false
        }
    }

    /// Settles immediately, absorbing any pending request.
    func settleNow() {
        cancelPending()
        run()
    }

    func cancelPending() {
        sources.remove(pendingSource)
        pendingSource = nil
    }

    private func fire() {
        pendingSource = nil
        guard !MainLoop.isNested else {
            // Still inside a nested loop: look again shortly, from the outer loop.
            pendingSource = sources.timeout(milliseconds: 5) { [weak self] in
                self?.pendingSource = nil
                self?.request()
                return false
            }
            return
        }
        run()
    }

    private func run() {
        settleCount += 1
        settle()
    }
}
