@_spi(Testing) import ComposerApp
import ComposerCore
import Testing
import TestHarness

extension GtkWindowSuites {
    /// What the window gives screen readers, in process (AccessibilityEndToEndTests reads it
    /// through AT-SPI): the counter in words, and the hint in the input's description.
    @MainActor
    @Suite(.serialized)
    struct AccessibilityWindowTests {
        @Test func theCounterIsNamedInWordsAndTheHintIsTheInputsDescription() async throws {
            let options = ComposerOptions(initialText: "hello world", profileDirectory: try GtkFixture.newProfile(),
                                          limit: LengthLimit(limit: 5))
            let (composer, _) = try await GtkFixture.composer(options)
            defer { GtkFixture.close(composer) }
            // The starting state has its words as the window opens: a screen reader reading
            // it at once must not hear the status's GType.
            #expect(composer.counterSpoken == "6 characters over the limit")
            try await GtkFixture.settled(composer, "the start")
            #expect(composer.inputDescription == nil)

            try GtkFixture.xdotool.key(["Return"])
            try await GtkFixture.wait("the hint") { composer.limitHintShown != nil }
            #expect(composer.inputDescription == composer.limitHintShown)

            // Later words follow once typing pauses.
            try GtkFixture.xdotool.key(Array(repeating: "BackSpace", count: 7))
            try await GtkFixture.settled(composer, "one under the limit") { composer.model.text == "hell" }
            try await GtkFixture.wait("the counter in words") { composer.counterSpoken == "1 character left" }
            #expect(composer.inputDescription == nil, "the hint leaves the description with the hint")
        }
    }
}
