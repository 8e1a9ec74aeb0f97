import ComposerCore
import Testing

@Suite("Send decision")
struct SendDecisionTests {
    @Test func sendsTextAsIs() {
        let model = ComposerModel(text: "  子猫\n")
        #expect(model.sendDecision() == .send("  子猫\n"))
        #expect(model.canSend())
    }

    @Test(arguments: ["", " ", "\n\n", " \t\r\n", "\u{3000}", "\u{2028}"])
    func refusesBlankText(_ text: String) {
        let model = ComposerModel(text: text)
        #expect(model.sendDecision() == .refuse(.empty))
        #expect(!model.canSend())
    }

    @Test(arguments: [" \u{301}", "\u{200B}", "\u{3000}x"])
    func sendsWhatCanBeSeen(_ text: String) {
        #expect(ComposerModel(text: text).sendDecision() == .send(text))
    }

    @Test func refusesWhileComposingEvenWithText() {
        let model = ComposerModel(text: "ok")
        model.preeditStarted()
        #expect(model.sendDecision() == .send("ok"))  // empty preedit: not composing
        model.preeditChanged(Preedit(text: "こ", cursor: 1, segments: []))
        #expect(model.sendDecision() == .refuse(.composing))
        model.preeditEnded()
        #expect(model.canSend())
    }
}
