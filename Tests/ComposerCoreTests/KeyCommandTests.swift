import ComposerCore
import Testing

@Suite struct KeyCommandTests {
    @Test func enterSendsAndShiftEnterBreaksTheLine() {
        #expect(KeyCommand(keyName: "Return", shift: false) == .send)
        #expect(KeyCommand(keyName: "KP_Enter", shift: false) == .send)
        #expect(KeyCommand(keyName: "ISO_Enter", shift: true) == .newline)
        #expect(KeyCommand(keyName: "Return", shift: true) == .newline)
        #expect(KeyCommand(keyName: "a", shift: false) == nil)
        #expect(KeyCommand(keyName: "Tab", shift: false) == nil)
    }

    @Test(arguments: [KeyCommand.send, .newline])
    func theInputMethodAlwaysComesFirst(command: KeyCommand) {
        #expect(command.outcome(inputMethodConsumed: true, wasComposing: true) == .inputMethodTookIt)
        #expect(command.outcome(inputMethodConsumed: true, wasComposing: false) == .inputMethodTookIt)
        // ibus-hangul: commits the syllable, reports Return unused.
        #expect(command.outcome(inputMethodConsumed: false, wasComposing: true) == .confirmedComposition)
        #expect(command.outcome(inputMethodConsumed: false, wasComposing: false) == .perform(command))
    }
}
