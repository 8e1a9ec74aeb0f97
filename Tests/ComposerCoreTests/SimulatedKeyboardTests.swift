import ComposerCore
import Testing

@Suite("The simulated keyboard follows the input's focus, as a device's does")
struct SimulatedKeyboardTests {
    @Test func itComesUpWithTheFocusAndGoesDownWithoutIt() {
        var keyboard = SimulatedKeyboard(inset: 200, inputFocused: false)
        #expect(!keyboard.isUp)
        #expect(keyboard.observation == .simulated(inset: nil))
        keyboard.focusChanged(true)
        #expect(keyboard.isUp)
        #expect(keyboard.observation == .simulated(inset: 200))
        keyboard.focusChanged(false)
        #expect(!keyboard.isUp)
    }

    @Test func theToggleHidesOrForcesItUntilTheFocusNextChanges() {
        var keyboard = SimulatedKeyboard(inset: 200, inputFocused: true)
        keyboard.requested(up: false)
        #expect(!keyboard.isUp, "hidden while the input has the focus")
        keyboard.focusChanged(true)
        #expect(!keyboard.isUp, "the same focus: still hidden")
        keyboard.focusChanged(false)
        keyboard.requested(up: true)
        #expect(keyboard.isUp, "forced up without the focus")
        keyboard.focusChanged(true)
        #expect(keyboard.isUp)
        keyboard.focusChanged(false)
        #expect(!keyboard.isUp, "the focus left: down, as a device's would go")
    }

    @Test func askingForWhatAlreadyIsChangesNothing() {
        var keyboard = SimulatedKeyboard(inset: 200, inputFocused: true)
        keyboard.requested(up: true)
        #expect(keyboard.chosen == nil, "still following the focus")
        keyboard.focusChanged(false)
        #expect(!keyboard.isUp)
    }

    /// Through the composer: `keyboard` trace lines and `.keyboardChanged` effects follow.
    @Test func theComposerTracesTheKeyboardAsTheFocusMoves() {
        let composer = Composer()
        _ = composer.handle(.simulatedKeyboardOffered(inset: 180, inputFocused: false))
        let up = composer.handle(.focusChanged(focused: true))
        let shown = KeyboardEvent(visible: true, height: 180, overlap: 180, source: .simulated)
        #expect(up.contains(.trace(.keyboard(shown))))
        #expect(up.contains(.keyboardChanged(shown)))
        let down = composer.handle(.focusChanged(focused: false))
        #expect(down.contains(.trace(.keyboard(KeyboardEvent(visible: false, height: 0, overlap: 0, source: .simulated)))))
        _ = composer.handle(.simulatedKeyboardRequested(up: true))
        #expect(composer.simulatedKeyboard?.isUp == true, "forced up by the toggle")
        // The window setting its toggle to match reports the same request: nothing happens.
        #expect(composer.handle(.simulatedKeyboardRequested(up: true)).isEmpty)
    }

    /// Without an offer (a replay, or no `--osk-inset`) focus changes move no keyboard.
    @Test func withoutASimulatedKeyboardFocusMovesNoKeyboard() {
        let composer = Composer()
        let effects = composer.handle(.focusChanged(focused: true))
        #expect(!effects.contains { if case .keyboardChanged = $0 { true } else { false } })
    }
}
