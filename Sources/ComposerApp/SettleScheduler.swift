import CGtk
import GtkBinding

/// Runs the settle step once input has settled: after the current event is fully handled.
///
/// Decide after input settles: "is input complete?" cannot be answered inside a change
/// callback; defer the decision to after the toolkit finishes the current event. In GTK
/// that is an idle source — but not one dispatched by a *nested* main loop (IBus's GTK4
/// module iterates one while it waits for the engine to filter a key), which would run us
/// in the middle of that key. Focus-out, send and exit settle synchronously instead
/// (`settleNow`).
///
/// Settle effects (counter, overflow colour, highlights, a grown input, an opened
/// completion list) must appear in the frame that shows the text that caused them. So a
/// pending settle also runs in the frame clock's "before-paint" phase: GTK4 delivers input
/// events in the frame's own event flush, right before it lays out and paints, and an idle
/// of any priority would only run after that paint. The idle stays for input that draws no
/// frame, at a priority above GDK's paint (`GDK_PRIORITY_REDRAW`, 120).
final class SettleScheduler {
    /// After pending events, before GDK's paint (`G_PRIORITY_HIGH_IDLE + 20`).
    static let priority = G_PRIORITY_HIGH_IDLE + 10
    private var framePhases: FrameClockPhases?

    private var pendingSource: UInt32?
    private let sources: SourceGroup
    private let settle: () -> Void
    /// While the settle runs: a settle its effects ask for is this one.
    private(set) var isSettling = false

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

    /// Also settles, when one is pending, right before each frame of `window` is painted.
    func settleBeforeEachFrame(of window: UnsafeMutablePointer<GtkWidget>) {
        framePhases = FrameClockPhases(of: window, [("before-paint", { [weak self] in self?.settleIfPending() })])
    }

    /// Runs a pending settle now, unless inside a nested loop (then the idle still waits).
    func settleIfPending() {
        guard isPending, !MainLoop.isNested else { return }
        settleNow()
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
        isSettling = true
        defer { isSettling = false }
        settle()
    }
}
