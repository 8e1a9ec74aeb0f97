import GtkBinding

/// Runs the settle step once input has settled: after the current event is fully handled.
///
/// Seed 002: "is input complete?" cannot be answered inside a change callback; defer the
/// decision to after the toolkit finishes the current event. In GTK that is an idle source
/// — but not one dispatched by a *nested* main loop (IBus's GTK4 module iterates one while
/// it waits for the engine to filter a key), which would run us in the middle of that key.
/// Focus-out, send and exit settle synchronously instead (`settleNow`).
final class SettleScheduler {
    private var pendingSource: UInt32?
    private let settle: () -> Void

    init(settle: @escaping () -> Void) { self.settle = settle }

    /// Asks for one settle after the current event; many requests, one settle.
    func request() {
        guard pendingSource == nil else { return }
        pendingSource = MainLoop.idle { [weak self] in
            self?.fire()
            return false
        }
    }

    /// Settles immediately, absorbing any pending request.
    func settleNow() {
        cancelPending()
        settle()
    }

    func cancelPending() {
        if let source = pendingSource { MainLoop.removeSource(source) }
        pendingSource = nil
    }

    private func fire() {
        pendingSource = nil
        guard !MainLoop.isNested else {
            // Still inside a nested loop: look again shortly, from the outer loop.
            pendingSource = MainLoop.timeout(milliseconds: 5) { [weak self] in
                self?.pendingSource = nil
                self?.request()
                return false
            }
            return
        }
        settle()
    }
}
