import ComposerCore
import Testing

@Suite("Commands with a button or a shortcut")
struct ComposerCommandTests {
    @Test func shortcutsByLetterAndShift() {
        #expect(ComposerCommand.shortcut(letter: "q", shift: false) == .quit)
        #expect(ComposerCommand.shortcut(letter: "t", shift: true) == .trim)
        #expect(ComposerCommand.shortcut(letter: "t", shift: false) == nil, "Ctrl+T is not trim")
        #expect(ComposerCommand.shortcut(letter: "q", shift: true) == nil)
        #expect(ComposerCommand.shortcut(letter: "c", shift: false) == nil, "copy stays the text view's")
        #expect(ComposerCommand.shortcuts.map(\.accelerator) == ["<Control>q", "<Control><Shift>t"])
    }

    @Test func trimRunsOnlyOverTheLimitAndNeverWhileComposing() {
        let limit = LengthLimit(limit: 3)
        let model = ComposerModel(text: "abc")
        #expect(!model.canTrim(limit: limit), "at the limit: nothing to trim")
        model.applyInsert(at: 3, text: "d", origin: .key)
        #expect(model.canTrim(limit: limit))
        model.preeditStarted()
        model.preeditChanged(Preedit(text: "か", cursor: 1, segments: []))
        #expect(!model.canTrim(limit: limit), "not in the middle of a composition")
        model.preeditEnded()
        #expect(model.canTrim(limit: limit))
        #expect(!model.canTrim(limit: LengthLimit(limit: 4, unit: .scalars)))
    }
}
