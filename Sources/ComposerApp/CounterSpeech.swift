import ComposerCore
import GtkBinding

/// The counter in words for screen readers, once typing pauses. It owns its state: the
/// status not yet spoken, whether it changed since the timer's last tick, and the timer.
///
/// Said on every key it would cost each keystroke a catalog lookup and a format (about a
/// fifth of the controllers' work per key, measured by `make bench`), and a screen reader
/// would only be interrupted by it mid-word. So a keystroke only records the new state;
/// one repeating 400 ms timer, started after a pause, gives the words at the first tick
/// with no change since the one before (400–800 ms after the last key), then stops.
///
/// The starting state is given at once: nothing was typed to wait for, and a screen reader
/// reads the window as soon as it appears (a status still unnamed would be read as its
/// GType, "GtkBox").
final class CounterSpeech {
    static let interval: UInt32 = 400

    private let sources: SourceGroup
    private let speak: (LimitStatus) -> Void
    private var pending: LimitStatus?
    private var changedSinceTick = false
    private var timer: UInt32?
    private var spokenOnce = false

    /// - Parameter speak: gives the words (`ComposerView.speakCounter`).
    init(sources: SourceGroup, speak: @escaping (LimitStatus) -> Void) {
        self.sources = sources
        self.speak = speak
    }

    /// The counter now shows `status`.
    func changed(_ status: LimitStatus) {
        if !spokenOnce {
            spokenOnce = true
            speak(status)
            return
        }
        pending = status
        changedSinceTick = true
        guard timer == nil else { return }
        timer = sources.timeout(milliseconds: Self.interval) { [weak self] in
            guard let self else { return false }
            if changedSinceTick {
                changedSinceTick = false
                return true
            }
            timer = nil
            if let status = pending {
                pending = nil
                speak(status)
            }
            return false
        }
    }
}
