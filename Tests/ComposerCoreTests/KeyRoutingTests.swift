@testable import ComposerCore
import Testing

/// A routed key from its press to the input method's verdict, alone (`ComposerTests` drives
/// it through the composer with the engines' real sequences).
@Suite struct KeyRoutingTests {
    static let enter = KeyRouting.Pressed(command: .send, wasComposing: true, forwarded: false)

    @Test func theInputMethodsReactionIsHeldUntilTheVerdict() {
        var routing = KeyRouting()
        let heldBefore = routing.hold(.settle)
        #expect(!heldBefore, "nothing is held while no routed key is filtered")
        routing.route(Self.enter)
        #expect(routing.isFiltering)
        let heldCommit = routing.hold(.commit("子猫"))
        let heldEnd = routing.hold(.preeditEnd)
        #expect(heldCommit && heldEnd)
        let verdict = routing.filtered()
        #expect(verdict.pressed == Self.enter)
        #expect(verdict.heldTrace == [.commit("子猫"), .preeditEnd])
        #expect(!routing.isFiltering)
        let heldAfter = routing.hold(.settle)
        #expect(!heldAfter, "the verdict lets go of the held lines")
        let again = routing.filtered()
        #expect(again.heldTrace.isEmpty && again.pressed == nil)
    }

    @Test func aKeyPassedOnWithoutAWordIsTold() {
        var routing = KeyRouting()
        routing.inputMethodDidAct()
        routing.route(Self.enter)
        let quiet = routing.filtered()
        #expect(!quiet.inputMethodActed, "what the input method did before the press does not count")
        routing.route(Self.enter)
        routing.inputMethodDidAct()
        let acted = routing.filtered()
        #expect(acted.inputMethodActed)
    }

    @Test func aForwardedKeyMeansWhatItMeantWhileItsCompositionWasShown() {
        var routing = KeyRouting()
        var composing = routing.keyPressed(composing: true, forwarded: false)
        #expect(composing)
        composing = routing.keyPressed(composing: false, forwarded: true)
        #expect(!composing)
        // The composition ends (the input method committed), then the key it passed on comes.
        routing.compositionEnded()
        composing = routing.keyPressed(composing: false, forwarded: true)
        #expect(composing)
        // Only the first key after the end: the next one is pressed on an empty input.
        composing = routing.keyPressed(composing: false, forwarded: true)
        #expect(!composing)
        // A key typed directly is not one the input method held back, and it resets it.
        routing.compositionEnded()
        composing = routing.keyPressed(composing: false, forwarded: false)
        #expect(!composing)
        composing = routing.keyPressed(composing: false, forwarded: true)
        #expect(!composing, "a key in between resets it")
    }
}
