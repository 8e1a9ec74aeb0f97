import ComposerCore
import Testing

/// Up in an empty input edits the last sent message (as in the chat apps people use).
@Suite("Editing the last sent message")
struct EditLastSentTests {
    /// A composer and what it asked of the window, without GTK.
    final class Driver {
        let composer = Composer(traces: true)
        var effects: [Effect] = []

        @discardableResult
        func handle(_ event: InputEvent) -> [Effect] {
            let result = composer.handle(event)
            effects += result
            return result
        }

        func type(_ text: String) {
            let caret = composer.model.selection.caret
            handle(.inserted(offset: caret, text: text))
            handle(.settle)
        }

        /// A routed key as the window reports it (the input method did not want it).
        @discardableResult
        func key(_ name: String, wasRouted: Bool = true) -> [Effect] {
            #expect(composer.routes(keyName: name, shift: false) == wasRouted, "\(name) routed")
            var result = handle(.keyPressed(name: name, shift: false))
            if wasRouted { result += handle(.keyFiltered(name: name, shift: false, consumedByInputMethod: false)) }
            return result
        }
    }

    @Test func upInAnEmptyInputBringsBackTheLastMessageAndSendReplacesIt() {
        let driver = Driver()
        driver.type("hello")
        driver.key("Return")
        #expect(driver.effects.contains(.sent("hello")))
        let up = driver.key("Up")
        #expect(up.contains(.editingLastSent(true)))
        #expect(driver.composer.model.text == "hello")
        #expect(driver.composer.model.selection.caret == 5, "caret at its end")
        #expect(driver.composer.isEditingLastSent)
        driver.type(" world")
        let sent = driver.key("Return")
        #expect(sent.contains(.sentEdited("hello world")))
        #expect(!sent.contains(.sent("hello world")))
        #expect(sent.contains(.editingLastSent(false)))
        #expect(sent.contains(.trace(.send("hello world", editsLast: true))))
        #expect(driver.composer.model.text.isEmpty)
        #expect(driver.composer.lastSent == "hello world")
    }

    @Test func upIsTheTextViewsWhenTheInputHasTextOrNothingWasSent() {
        let driver = Driver()
        driver.key("Up", wasRouted: false)
        driver.handle(.historyRestored(lastSent: "before"))
        driver.type("x")
        driver.key("Up", wasRouted: false)
        #expect(driver.composer.model.text == "x")
        #expect(!driver.composer.isEditingLastSent)
    }

    @Test func escapeLeavesTheMessageAsSentAndEmptiesTheInput() {
        let driver = Driver()
        driver.handle(.historyRestored(lastSent: "kept"))
        #expect(driver.effects.contains(.trace(.history(lastSent: "kept"))))
        driver.key("Up")
        driver.type(" changed")
        let escape = driver.key("Escape")
        #expect(escape.contains(.editingLastSent(false)))
        #expect(driver.composer.model.text.isEmpty)
        #expect(driver.composer.lastSent == "kept")
        #expect(!driver.effects.contains { if case .sentEdited = $0 { true } else { false } })
        driver.key("Escape", wasRouted: false)  // not editing: Escape is the text view's again
    }

    @Test func upWhileComposingOnlyReachesTheInputMethod() {
        let driver = Driver()
        driver.handle(.historyRestored(lastSent: "kept"))
        driver.handle(.preeditStarted)
        driver.handle(.preeditChanged(Preedit(text: "か", cursor: 1, segments: [])))
        driver.key("Up")
        #expect(!driver.composer.isEditingLastSent)
        #expect(driver.composer.model.text.isEmpty)
    }
}
