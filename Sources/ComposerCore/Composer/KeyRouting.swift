/// A routed key (Enter, Shift+Enter, the list's keys) from its press to the input method's
/// verdict, and what happened on the input method's side in between.
///
/// The window filters a routed key through the input method itself and reports the press
/// (`keyPressed`) and the verdict (`keyFiltered`) as two events. Between them the input
/// method may commit, change or end its composition, even in a nested main loop. What the
/// key means is decided on what was on screen when it was pressed, and the trace shows the
/// key first and the input method's reaction after it, as for every other key: its lines
/// are held until the verdict.
///
/// A key a Wayland input method passes on after committing (`forwarded`) arrives after the
/// composition it confirmed has ended: it meant what it would have meant while that
/// composition was on screen.
struct KeyRouting {
    /// A routed key, as it was pressed.
    struct Pressed: Equatable {
        var command: KeyCommand
        /// Whether a composition was on screen when it was pressed.
        var wasComposing: Bool
        var forwarded: Bool
    }

    /// What the verdict on a routed key has to go on.
    struct Verdict {
        /// The key as it was pressed; nil for a key whose press the composer did not see.
        var pressed: Pressed?
        /// Trace lines of the input method's reaction, held since the press.
        var heldTrace: [TraceEvent]
        /// Whether the input method showed, changed, ended or committed anything since the
        /// press: a key it passes on while composing without a word is a sign that the
        /// composition on screen is an orphan.
        var inputMethodActed: Bool
    }

    private var pressed: Pressed?
    private var heldTrace: [TraceEvent]?
    /// Whether a composition ended (its preedit emptied or ended) since the last key that
    /// reached the composer.
    private var compositionEndedSinceKey = false
    private var inputMethodActed = false

    /// Whether a routed key is between its press and its verdict.
    var isFiltering: Bool { pressed != nil }

    /// The input method showed, changed, ended or committed something.
    mutating func inputMethodDidAct() {
        inputMethodActed = true
    }

    /// A composition ended without the composer asking (its preedit emptied or ended).
    mutating func compositionEnded() {
        compositionEndedSinceKey = true
    }

    /// A key reached the composer. Returns whether it was pressed while a composition was on
    /// screen: `composing` now, or a forwarded key whose composition ended before it came.
    mutating func keyPressed(composing: Bool, forwarded: Bool) -> Bool {
        let composingWhenPressed = composing || (forwarded && compositionEndedSinceKey)
        compositionEndedSinceKey = false
        return composingWhenPressed
    }

    /// The key just pressed is routed: its verdict comes as `filtered`. The input method's
    /// trace lines are held until then.
    mutating func route(_ key: Pressed) {
        pressed = key
        inputMethodActed = false
        heldTrace = []
    }

    /// Holds `event` if a routed key is being filtered; returns whether it did.
    mutating func hold(_ event: @autoclosure () -> TraceEvent) -> Bool {
        guard heldTrace != nil else { return false }
        heldTrace!.append(event())
        return true
    }

    /// The verdict has come: what the key was and what happened since, and nothing held.
    mutating func filtered() -> Verdict {
        let verdict = Verdict(pressed: pressed, heldTrace: heldTrace ?? [], inputMethodActed: inputMethodActed)
        pressed = nil
        heldTrace = nil
        return verdict
    }
}
