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

    @Test func listKeysAreRoutedOnlyWhileTheListIsOpen() {
        for key in ["Up", "Down", "Tab", "Escape"] {
            #expect(KeyCommand(keyName: key, shift: false) == nil, "\(key) stays the text view's")
        }
        #expect(KeyCommand(keyName: "Up", shift: false, completionOpen: true) == .completionPrevious)
        #expect(KeyCommand(keyName: "Down", shift: false, completionOpen: true) == .completionNext)
        #expect(KeyCommand(keyName: "Tab", shift: false, completionOpen: true) == .completionAccept)
        #expect(KeyCommand(keyName: "Return", shift: false, completionOpen: true) == .completionAccept)
        #expect(KeyCommand(keyName: "Return", shift: true, completionOpen: true) == .newline)
        #expect(KeyCommand(keyName: "Escape", shift: false, completionOpen: true) == .completionClose)
        #expect(KeyCommand(keyName: "a", shift: false, completionOpen: true) == nil)
    }

    @Test(arguments: [KeyCommand.send, .newline, .completionNext, .completionAccept])
    func theInputMethodAlwaysComesFirst(command: KeyCommand) {
        #expect(command.outcome(inputMethodConsumed: true, wasComposing: true) == .inputMethodTookIt)
        #expect(command.outcome(inputMethodConsumed: true, wasComposing: false) == .inputMethodTookIt)
        // ibus-hangul: commits the syllable, reports Return unused.
        #expect(command.outcome(inputMethodConsumed: false, wasComposing: true) == .confirmedComposition)
        #expect(command.outcome(inputMethodConsumed: false, wasComposing: false) == .perform(command))
    }
}
