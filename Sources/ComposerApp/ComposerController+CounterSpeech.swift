import ComposerCore
import GtkBinding

/// The counter in words for screen readers, once typing pauses.
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
extension ComposerController {
    static let counterSpeechInterval: UInt32 = 400

    func counterChanged(_ status: LimitStatus) {
        if !counterSpokenOnce {
            counterSpokenOnce = true
            ui.speakCounter(status)
            return
        }
        counterToSpeak = status
        counterChangedSinceTick = true
        guard counterSpeech == nil else { return }
        counterSpeech = sources.timeout(milliseconds: Self.counterSpeechInterval) { [weak self] in
            guard let self else { return false }
            if counterChangedSinceTick {
                counterChangedSinceTick = false
                return true
            }
            counterSpeech = nil
            if let status = counterToSpeak {
                counterToSpeak = nil
                ui.speakCounter(status)
            }
            return false
        }
    }
}
