import ComposerCore
import Testing

@Suite("InputBarSizing")
struct InputBarSizingTests {
    let sizing = InputBarSizing(lineHeight: 20, verticalPadding: 12)

    @Test func growsFromOneToSixLinesThenStops() {
        #expect(sizing.minHeight == 32)
        #expect(sizing.maxHeight == 132)
        #expect(sizing.height(forContentHeight: 0) == 32)
        #expect(sizing.height(forContentHeight: 20) == 32)
        #expect(sizing.height(forContentHeight: 60) == 72)
        #expect(sizing.height(forContentHeight: 120) == 132)
        #expect(sizing.height(forContentHeight: 500) == 132)
        #expect(!sizing.needsScrolling(forContentHeight: 120))
        #expect(sizing.needsScrolling(forContentHeight: 121))
    }

    @Test func customLineRangeAndRepairedNonsense() {
        let custom = InputBarSizing(lineHeight: 10, verticalPadding: 0, minLines: 2, maxLines: 3)
        #expect(custom.height(forContentHeight: 5) == 20)
        #expect(custom.height(forContentHeight: 25) == 25)
        #expect(custom.height(forContentHeight: 40) == 30)
        let odd = InputBarSizing(lineHeight: 10, verticalPadding: -5, minLines: 0, maxLines: -1)
        #expect(odd.minHeight == 10 && odd.maxHeight == 10)
    }
}

@Suite("Send decision")
struct SendDecisionTests {
    @Test func sendsTextAsIs() {
        let model = ComposerModel(text: "  子猫\n")
        #expect(model.sendDecision() == .send("  子猫\n"))
        #expect(model.canSend)
    }

    @Test(arguments: ["", " ", "\n\n", " \t\r\n", "\u{3000}", "\u{2028}"])
    func refusesBlankText(_ text: String) {
        let model = ComposerModel(text: text)
        #expect(model.sendDecision() == .refuse(.empty))
        #expect(!model.canSend)
    }

    @Test func refusesWhileComposingEvenWithText() {
        let model = ComposerModel(text: "ok")
        model.preeditStarted()
        #expect(model.sendDecision() == .send("ok"))  // empty preedit: not composing
        model.preeditChanged(Preedit(text: "こ", cursor: 1, segments: []))
        #expect(model.sendDecision() == .refuse(.composing))
        model.preeditEnded()
        #expect(model.canSend)
    }
}
