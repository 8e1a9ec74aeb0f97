import ComposerCore
import Testing

@Suite struct StartAtEndTests {
    @Test func aDraftWithTheCaretAtItsEndIsFollowed() {
        #expect(StartAtEnd.follows(draftScalars: 10, caret: nil))
        #expect(StartAtEnd.follows(draftScalars: 10, caret: 10))
        #expect(!StartAtEnd.follows(draftScalars: 10, caret: 3), "the caret inside: the text view shows it")
        #expect(!StartAtEnd.follows(draftScalars: 0, caret: nil), "nothing to follow")
    }

    @Test func theUsersFirstInputEndsIt() {
        let typed: [InputEvent] = [
            .keyPressed(name: "a", shift: false), .keyFiltered(name: "Return", shift: false, consumedByInputMethod: true),
            .preeditChanged(Preedit(text: "あ", cursor: 1, segments: [])), .commitStarted("あ"), .inserted(offset: 0, text: "a"),
            .deleted(0..<1), .pasteStarted, .dropped, .pointerPressed, .pointerPressedAt(x: 1, y: 2),
            .selectionChanged(anchor: 0, caret: 0), .send, .trim, .acceptCompletion(index: nil),
            .moveCompletion(by: 1), .closeCompletion, .simulatedKeyboardRequested(up: true),
        ]
        for event in typed { #expect(StartAtEnd.endsFollowing(event), "\(event)") }
    }

    /// What happens at start without the user: the window is shown, focused and laid out,
    /// the data arrives, and an input method reads the text and clears its preedit on focus.
    @Test func whatTheWindowAndTheInputMethodDoOnTheirOwnDoesNot() {
        let own: [InputEvent] = [
            .focusChanged(focused: true), .ready, .settle, .framePainted, .surroundingRetrieved,
            .preeditStarted, .preeditChanged(Preedit(text: "", cursor: 0, segments: [])), .preeditEnded,
            .simulatedKeyboardOffered(inset: 200, inputFocused: true), .historyRestored(lastSent: "hi"),
            .dataArrived(CompletionData(tokens: nil, sources: [])), .inputMethodLost(name: "org.freedesktop.IBus"),
        ]
        for event in own { #expect(!StartAtEnd.endsFollowing(event), "\(event)") }
    }
}
