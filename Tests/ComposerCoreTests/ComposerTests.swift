@testable import ComposerCore
import Testing

/// The composer as a state machine, driven by input events the way the window drives it,
/// with a buffer of its own that applies the effects (the window's part, without GTK).
private final class Window {
    let composer: Composer
    /// The buffer as the window would hold it after applying every effect.
    private(set) var buffer: [Unicode.Scalar]
    private(set) var effects: [Effect] = []

    init(_ text: String = "", limit: LengthLimit = LengthLimit(), completion: CompletionList? = nil,
         traces: Bool = true, awaitingData: Bool = false) {
        composer = Composer(text: text, limit: limit,
                            completion: completion ?? CompletionList(sources: []), traces: traces,
                            awaitingData: awaitingData)
        buffer = Array(text.unicodeScalars)
    }

    var text: String { composer.model.text }
    var bufferText: String { String(String.UnicodeScalarView(buffer)) }

    /// Reports `event` and applies the effects; returns them.
    @discardableResult
    func send(_ event: InputEvent) -> [Effect] {
        let result = composer.handle(event)
        effects += result
        for effect in result {
            if case let .edit(range, text) = effect {
                buffer.replaceSubrange(range, with: Array(text.unicodeScalars))
            }
            if case .clear = effect { buffer = [] }
        }
        return result
    }

    /// What the text view does for a key it handles itself: the buffer changes, the window
    /// reports it.
    func type(_ text: String) {
        let caret = composer.model.selection.caret
        buffer.insert(contentsOf: Array(text.unicodeScalars), at: caret)
        send(.inserted(offset: caret, text: text))
        send(.userActionEnded)
    }

    /// An input method commit, as GTK reports it.
    func commit(_ text: String) {
        send(.commitStarted(text))
        let caret = composer.model.selection.caret
        buffer.insert(contentsOf: Array(text.unicodeScalars), at: caret)
        send(.inserted(offset: caret, text: text))
        send(.commitEnded)
        send(.userActionEnded)
    }

    var traced: [TraceEvent] { effects.compactMap { if case .trace(let event) = $0 { event } else { nil } } }

    /// Enter, not taken by the input method.
    @discardableResult
    func enter() -> [Effect] {
        send(.keyPressed(name: "Return", shift: false))
        return send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: false))
    }

    /// The app's data arrives (loaded off the main thread), then the settle it asks for.
    @discardableResult
    func dataArrives(_ sources: [CompletionSource]) -> [Effect] {
        let arrived = send(.dataArrived(CompletionData(tokens: TokenNames(), sources: sources)))
        #expect(arrived.contains(.requestSettle))
        return arrived + send(.settle)
    }

    var edits: [Edit] { traced.compactMap { if case .edit(let edit) = $0 { edit } else { nil } } }
}

@Suite("Composer: input events in, effects out")
struct ComposerTests {
    @Test func typedTextIsInTheModelAndAsksForASettle() {
        let window = Window()
        window.type("hi")
        #expect(window.text == "hi")
        #expect(window.effects.contains(.requestSettle))
        #expect(window.edits.map(\.origin) == [.key])
        let settled = window.send(.settle)
        #expect(settled.contains(.controls(canSend: true, canTrim: false, canMoveCaret: true, completionOpen: false)))
        #expect(settled.contains { if case .showStatus(let status) = $0 { status.count == 2 } else { false } })
    }

    @Test func everyEditCarriesItsOrigin() {
        let window = Window()
        window.commit("日本")
        window.send(.pasteStarted)
        window.type("x")
        window.send(.pasteEnded)
        window.send(.historyStarted(.undo))
        window.send(.deleted(2..<3))
        window.send(.deleted(7..<9))  // past the end: nothing is deleted, nothing reported
        window.send(.historyEnded(.undo))
        window.type("y")
        #expect(window.edits.map(\.origin) == [.imCommit, .paste, .undo, .key])
    }

    /// The IME-safe hard limit: the cut is the composer's own edit, made in the model at
    /// once and handed on; the settle then colours and reports the text the cut left, and a
    /// second settle finds nothing to do (the cut is not reported back).
    @Test func aHardLimitCutIsAnEditOfTheComposersOwnInOneSettle() {
        let window = Window("abc", limit: LengthLimit(limit: 4, mode: .hard))
        window.send(.settle)
        window.commit("def")
        let settled = window.send(.settle)
        #expect(window.text == "abcd")
        #expect(window.bufferText == "abcd", "the window's buffer follows the effects")
        let edit = settled.firstIndex(of: .edit(range: 4..<6, text: ""))
        #expect(edit != nil)
        #expect(settled.contains(.select(anchor: 4, caret: 4)))
        let limitEvent = settled.firstIndex(of: .trace(.limit(removed: "ef", at: 4)))
        #expect(limitEvent != nil && edit! < limitEvent!, "the cut comes before what the settle reports")
        #expect(window.edits.last?.origin == .program)
        let again = window.send(.settle)
        #expect(!again.contains { if case .edit = $0 { true } else { false } }, "nothing is cut twice")
    }

    /// The "key" line comes first: what the input method does while a routed key is with it
    /// is held until the window reports the key filtered.
    @Test func aRoutedKeysTraceComesBeforeWhatTheInputMethodDidWithIt() {
        let window = Window()
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "に", cursor: 1, segments: [])))
        #expect(window.composer.routes(keyName: "Return", shift: false))
        let pressed = window.send(.keyPressed(name: "Return", shift: false))
        #expect(pressed.isEmpty)
        let during = window.send(.preeditEnded) + window.send(.commitStarted("に"))
        #expect(!during.contains { if case .trace = $0 { true } else { false } })
        window.send(.inserted(offset: 0, text: "に"))
        window.send(.commitEnded)
        let filtered = window.send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: true))
        let names = filtered.compactMap { if case .trace(let event) = $0 { event.name } else { nil } }
        #expect(names == ["key", "preedit-end", "commit", "edit"])
        #expect(!filtered.contains { if case .sent = $0 { true } else { false } }, "Enter that confirms never sends")
        #expect(window.text == "に")
    }

    @Test func enterWhileComposingOnlyConfirmsEvenWhenTheInputMethodLetsItThrough() {
        let window = Window("안")
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "녕", cursor: 1, segments: [])))
        window.send(.keyPressed(name: "Return", shift: false))
        let filtered = window.send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: false))
        #expect(!filtered.contains { if case .sent = $0 { true } else { false } })
    }

    /// An orphaned composition: the engine dropped it (GTK's reset on a click) but IBus's
    /// GTK module still draws it and never ends it. Enter passed on without a word from the
    /// input method finishes it (as focus loss would) instead of confirming nothing forever.
    @Test func enterPassedOnWithoutAWordWhileComposingFinishesTheOrphanedComposition() {
        let window = Window("abc")
        window.send(.inputMethodModuleChanged(InputMethodModule(id: "ibus")))
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "tiếng", cursor: 5, segments: [])))
        window.send(.selectionChanged(anchor: 1, caret: 1))
        window.send(.keyPressed(name: "Return", shift: false))
        let filtered = window.send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: false))
        #expect(filtered.contains(.finishComposition(keep: "tiếng")))
        #expect(!filtered.contains { if case .sent = $0 { true } else { false } }, "it only confirms")
        // The input method commits what it showed, where it is drawn; the next Enter sends.
        window.send(.preeditEnded)
        window.send(.commitStarted("tiếng"))
        window.send(.inserted(offset: 1, text: "tiếng"))
        window.send(.commitEnded)
        window.send(.settle)
        window.send(.keyPressed(name: "Return", shift: false))
        let sent = window.send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: false))
        #expect(sent.contains(.sent("atiếngbc")))
    }

    /// A click mid-composition finishes it before the text view resets the input method;
    /// a click with nothing composing does nothing.
    @Test func aPressInTheTextMidCompositionFinishesItFirst() {
        let window = Window("abc")
        #expect(window.send(.pointerPressed).isEmpty)
        window.send(.inputMethodModuleChanged(InputMethodModule(id: "ibus")))
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "한", cursor: 1, segments: [])))
        #expect(window.send(.pointerPressed).contains(.finishComposition(keep: "한")))
    }

    /// What finishing a composition may drop depends on the GTK module drawing it: IBus's
    /// and the Wayland one (text-input-v3) may end it with no commit, so what was drawn is
    /// kept; Fcitx5's commits by itself, later, and GTK's simple context goes on composing.
    /// Told nothing, the composer keeps nothing (no module has drawn a composition yet).
    @Test(arguments: [("ibus", true), ("wayland", true), ("fcitx", false), ("gtk-im-context-simple", false),
                      ("xim", false), (nil, false)] as [(String?, Bool)])
    func whatAFinishedCompositionKeepsDependsOnTheModule(module: String?, keeps: Bool) {
        let window = Window("abc")
        if let module { window.send(.inputMethodModuleChanged(InputMethodModule(id: module))) }
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "한", cursor: 1, segments: [])))
        #expect(window.send(.pointerPressed).contains(.finishComposition(keep: keeps ? "한" : nil)))
        // The same for an orphaned composition that Enter finds.
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "글", cursor: 1, segments: [])))
        window.send(.keyPressed(name: "Return", shift: false))
        let filtered = window.send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: false))
        #expect(filtered.contains(.finishComposition(keep: keeps ? "글" : nil)))
    }

    /// The module last told is the one that counts (GTK may switch it at a focus in).
    @Test func theModuleLastToldDecides() {
        let window = Window("")
        window.send(.inputMethodModuleChanged(InputMethodModule(id: "fcitx")))
        window.send(.inputMethodModuleChanged(InputMethodModule(id: "ibus")))
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "あ", cursor: 1, segments: [])))
        #expect(window.send(.pointerPressed).contains(.finishComposition(keep: "あ")))
    }

    /// An engine that commits before passing Enter on (ibus-hangul) is not an orphan.
    @Test func enterPassedOnAfterTheInputMethodCommittedIsNotAnOrphan() {
        let window = Window("안")
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "녕", cursor: 1, segments: [])))
        window.send(.keyPressed(name: "Return", shift: false))
        window.send(.commitStarted("녕"))
        window.send(.inserted(offset: 1, text: "녕"))
        window.send(.commitEnded)
        let filtered = window.send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: false))
        #expect(!filtered.contains { if case .finishComposition = $0 { true } else { false } })
        #expect(!filtered.contains { if case .sent = $0 { true } else { false } })
    }

    /// A compositor's input method (fcitx5-hangul on Wayland) commits on Return and forwards
    /// the Return: it arrives after the commit, with nothing composing, but it was pressed
    /// while the composition showed — it only confirms. A Return pressed after the commit
    /// (not forwarded) sends, as does a forwarded one when no composition ended before it.
    @Test func aForwardedEnterPressedWhileComposingOnlyConfirms() {
        let window = Window("")
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "한", cursor: 1, segments: [])))
        window.send(.preeditChanged(Preedit(text: "", cursor: 0, segments: [])))
        window.send(.commitStarted("한"))
        window.send(.inserted(offset: 0, text: "한"))
        window.send(.commitEnded)
        window.send(.preeditEnded)
        window.send(.settle)
        window.send(.keyPressed(name: "Return", shift: false, forwarded: true))
        let confirmed = window.send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: false))
        #expect(!confirmed.contains { if case .sent = $0 { true } else { false } }, "it only confirms")
        #expect(confirmed.contains(.trace(.key(keyval: "Return", consumed: false, forwarded: true))))
        // Forwarded again, but no composition ended since the last key: it sends.
        window.send(.keyPressed(name: "Return", shift: false, forwarded: true))
        let sent = window.send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: false))
        #expect(sent.contains(.sent("한")))
    }

    /// fcitx5-anthy on Wayland keeps its Return (the app never sees it): the next Return is
    /// pressed after the commit arrived, not forwarded, and sends.
    @Test func anEnterPressedAfterTheCommitSends() {
        let window = Window("")
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "いぬ", cursor: 2, segments: [])))
        window.send(.preeditChanged(Preedit(text: "", cursor: 0, segments: [])))
        window.send(.commitStarted("いぬ"))
        window.send(.inserted(offset: 0, text: "いぬ"))
        window.send(.commitEnded)
        window.send(.preeditEnded)
        window.send(.settle)
        window.send(.keyPressed(name: "Return", shift: false))
        let sent = window.send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: false))
        #expect(sent.contains(.sent("いぬ")))
    }

    /// Consumed by the input method: it is composing; nothing to finish.
    @Test func enterTheInputMethodTookIsNeverAnOrphan() {
        let window = Window()
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "に", cursor: 1, segments: [])))
        window.send(.keyPressed(name: "Return", shift: false))
        let filtered = window.send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: true))
        #expect(!filtered.contains { if case .finishComposition = $0 { true } else { false } })
    }

    @Test func anUnroutedKeyIsTracedAndLeftToTheTextView() {
        let window = Window()
        #expect(!window.composer.routes(keyName: "a", shift: false))
        #expect(window.send(.keyPressed(name: "a", shift: false)) == [.trace(.key(keyval: "a", consumed: nil))])
    }

    @Test func enterSendsAndEmptiesTheInput() {
        let window = Window("hello")
        window.send(.keyPressed(name: "Return", shift: false))
        let effects = window.send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: false))
        #expect(effects.contains(.sent("hello")))
        #expect(effects.contains(.trace(.send("hello"))))
        #expect(effects.contains(.clear))
        #expect(window.text.isEmpty)
        #expect(window.bufferText.isEmpty)
    }

    @Test func sendOverASoftLimitExplainsAndRings() {
        let window = Window("abcdef", limit: LengthLimit(limit: 4))
        let effects = window.send(.send)
        #expect(effects.contains(.showLimitHint(LengthLimit(limit: 4).overLimitHint(by: 2))))
        #expect(effects.contains(.bell))
        #expect(window.text == "abcdef")
    }

    @Test func shiftEnterBreaksTheLineWhereTheCaretIs() {
        let window = Window("ab")
        window.send(.selectionChanged(anchor: 1, caret: 1))
        window.send(.keyPressed(name: "Return", shift: true))
        let effects = window.send(.keyFiltered(name: "Return", shift: true, consumedByInputMethod: false))
        #expect(effects.contains(.edit(range: 1..<1, text: "\n")))
        #expect(effects.contains(.scrollToCaret))
        #expect(window.text == "a\nb")
        #expect(window.edits.last?.origin == .key)
    }

    @Test func trimCutsTheOverflowAsOneEdit() {
        let window = Window("abcdef", limit: LengthLimit(limit: 4))
        let effects = window.send(.trim)
        #expect(effects.contains(.edit(range: 4..<6, text: "")))
        #expect(window.bufferText == "abcd")
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "x", cursor: 1, segments: [])))
        window.type("ghi")
        #expect(!window.send(.trim).contains { if case .edit = $0 { true } else { false } }, "never mid-composition")
    }

    @Test func acceptingACompletionReplacesTheWordAndResetsTheInputMethod() {
        let window = Window(completion: CompletionList(sources: [CompletionTestData.people]))
        window.commit("@tanaka")
        window.send(.settle)
        #expect(window.composer.completion.isOpen)
        #expect(window.composer.routes(keyName: "Tab", shift: false))
        window.send(.keyPressed(name: "Tab", shift: false))
        let effects = window.send(.keyFiltered(name: "Tab", shift: false, consumedByInputMethod: false))
        #expect(effects.contains(.resetInputMethod))
        #expect(effects.contains(.completionChanged))
        #expect(window.text.hasPrefix("@tanaka"))
        #expect(window.bufferText == window.text)
        #expect(window.traced.contains { if case .accept = $0 { true } else { false } })
        #expect(!window.composer.completion.isOpen)
    }

    /// Issue #31: `:neko` committed by ibus-anthy as `：ねこ` before the emoji were loaded
    /// opened no list, ever. The word is searched again when the data arrives: the list opens
    /// at the settle the arrival asks for.
    @Test func aWordTypedBeforeTheDataArrivesOpensItsListWhenItArrives() {
        let window = Window(awaitingData: true)
        window.commit("：ねこ")
        window.send(.settle)
        #expect(!window.composer.completion.isOpen, "no data yet")
        let effects = window.dataArrives([CompletionTestData.people, CompletionTestData.emojiSource])
        #expect(window.composer.completion.isOpen && window.composer.completion.items.first?.kind == .emoji,
                "\(window.composer.completion.items.map(\.id))")
        #expect(effects.contains { if case .trace(.completion(.open, ":", "ねこ", _, 0)) = $0 { true } else { false } },
                "\(effects)")
        #expect(effects.contains { if case .controls(_, _, _, completionOpen: true) = $0 { true } else { false } })
        #expect(window.text == "：ねこ", "nothing accepted or sent by the arrival itself")
    }

    /// With no word at the caret, the arrival searches nothing and changes nothing but the
    /// highlighting it resets.
    @Test func dataArrivingWithNoWordAtTheCaretOpensNothing() {
        let window = Window(awaitingData: true)
        window.commit("hello ")
        window.send(.settle)
        let effects = window.dataArrives([CompletionTestData.people, CompletionTestData.emojiSource])
        #expect(window.composer.completion.searchCount == 0 && !window.composer.completion.isOpen)
        #expect(!effects.contains { if case .trace(.completion) = $0 { true } else { false } }, "\(effects)")
        #expect(!effects.contains(.completionChanged))
        #expect(!effects.contains { if case .controls = $0 { true } else { false } }, "Send and the list's commands as they were")
        #expect(!effects.contains { if case .sent = $0 { true } else { false } })
        #expect(window.text == "hello ")
    }

    /// Enter on `：ねこ` while the data loads: had it been there the list would be open and
    /// Enter would accept its first row; sending `：ねこ` would let the machine's speed decide.
    /// Enter waits (the text stays), and once the data is in it accepts as it would have.
    @Test func anEnterPressedBeforeTheDataArrivesWaitsAndThenDoesWhatItWouldHaveDone() throws {
        let window = Window(awaitingData: true)
        window.commit("：ねこ")
        window.send(.settle)
        let waiting = window.enter()
        #expect(!waiting.contains { if case .sent = $0 { true } else { false } }, "\(waiting)")
        #expect(!waiting.contains(.clear))
        #expect(window.text == "：ねこ" && window.bufferText == "：ねこ")
        #expect(window.send(.settle).allSatisfy { if case .trace = $0 { true } else { false } }, "still waiting")
        let decided = window.dataArrives([CompletionTestData.people, CompletionTestData.emojiSource])
        let accepted = try #require(decided.compactMap { if case .trace(.accept(let item, let text)) = $0 { (item, text) } else { nil } }.first,
                                    "\(decided)")
        #expect(accepted.0.hasPrefix("1f"), "an emoji: \(accepted)")
        #expect(window.text == accepted.1 && window.bufferText == accepted.1)
        #expect(!decided.contains { if case .sent = $0 { true } else { false } }, "accepting never sends")
        window.enter()
        #expect(window.effects.contains(.sent(accepted.1)), "the next Enter sends, as always")
    }

    /// A word that nothing matches: the waiting Enter sends it once the data says so.
    @Test func aWaitingEnterSendsWhenTheWordMatchesNothing() {
        let window = Window(awaitingData: true)
        window.commit("see @zzqxzzqx")
        window.enter()
        #expect(!window.effects.contains { if case .sent = $0 { true } else { false } })
        let decided = window.dataArrives([CompletionTestData.people, CompletionTestData.emojiSource])
        #expect(decided.contains(.sent("see @zzqxzzqx")), "\(decided)")
        #expect(window.text.isEmpty)
    }

    /// Typing on (or moving the caret) before the data arrives is a new intention: the
    /// waiting Enter is dropped, nothing is sent or accepted, the text stays as typed.
    @Test func typingOnDropsTheWaitingEnter() {
        for moveInstead in [false, true] {
            let window = Window(awaitingData: true)
            window.commit("@tana")
            window.enter()
            if moveInstead {
                window.send(.selectionChanged(anchor: 2, caret: 2))
            } else {
                window.type("x")
            }
            window.send(.settle)
            window.dataArrives([CompletionTestData.people])
            #expect(!window.traced.contains { if case .accept = $0 { true } else { false } }, "moved: \(moveInstead)")
            #expect(!window.effects.contains { if case .sent = $0 { true } else { false } }, "moved: \(moveInstead)")
            #expect(window.text == (moveInstead ? "@tana" : "@tanax"))
        }
    }

    /// Only a word whose source is still loading makes Enter wait: plain text sends at once,
    /// and so does the Send button on a word (a click on Send means send).
    @Test func enterOnPlainTextAndTheSendButtonNeverWait() {
        let plain = Window(awaitingData: true)
        plain.commit("hello")
        #expect(plain.enter().contains(.sent("hello")))
        let button = Window(awaitingData: true)
        button.commit("@tana")
        #expect(button.send(.send).contains(.sent("@tana")))
    }

    /// The list's commands as events (the window's actions send them): the selection moves,
    /// the list closes, and "can the list's commands run" follows.
    @Test func theCompletionListsCommandsAndTheirEnabledState() {
        let window = Window(completion: CompletionList(sources: [CompletionTestData.people]))
        window.commit("@tana")
        let opened = window.send(.settle)
        #expect(opened.contains { if case .controls(_, _, _, completionOpen: true) = $0 { true } else { false } })
        let moved = window.send(.moveCompletion(by: 1))
        #expect(moved.contains(.completionChanged))
        #expect(window.composer.completion.selectedIndex == 1)
        let closed = window.send(.closeCompletion)
        #expect(!window.composer.completion.isOpen)
        #expect(closed.contains { if case .controls(_, _, _, completionOpen: false) = $0 { true } else { false } })
        let ignored = window.send(.moveCompletion(by: 1))
        #expect(!ignored.contains { if case .trace(.completion) = $0 { true } else { false } }, "closed: nothing moves")
        #expect(ignored.contains(.trace(.command(.completionMove(by: 1)))), "the command is recorded for replay all the same")
    }

    /// An IM module switch mid-composition (preedit-changed "" and no preedit-end): the hard
    /// limit, Send and completion work again at once, not after the next composition.
    @Test func aModuleSwitchMidCompositionLeavesNoNeverEndingComposition() {
        let window = Window("", limit: LengthLimit(limit: 2, mode: .hard))
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "かな", cursor: 2, segments: [])))
        window.commit("かなた")
        let emptied = window.send(.preeditChanged(.empty))
        #expect(emptied.contains { if case .controls(_, _, canMoveCaret: true, _) = $0 { true } else { false } },
                "the commands that wait for a composition to end can run again")
        window.send(.settle)
        #expect(window.text == "かな", "the hard limit cut the commit once nothing composes")
        #expect(window.bufferText == "かな")
    }

    /// The input method's daemon dies mid-composition and its GTK module keeps drawing it
    /// (fcitx5's): the composition is over, and what the user saw is kept as typed text
    /// (the window ends the drawing and types it).
    @Test func aLostInputMethodKeepsTheCompositionItStillShowed() {
        let window = Window("子猫")
        window.send(.keyPressed(name: "u", shift: false))
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "いぬ", cursor: 2, segments: [])))
        window.send(.settle)
        let lost = window.send(.inputMethodLost(name: "org.fcitx.Fcitx5"))
        #expect(lost.first == .trace(.inputMethodLost(name: "org.fcitx.Fcitx5")))
        #expect(lost.contains(.keepAbandonedComposition(drawn: "いぬ")))
        #expect(lost.contains { if case .controls(_, _, canMoveCaret: true, _) = $0 { true } else { false } },
                "the commands that waited for the composition can run")
        #expect(!window.composer.model.isComposing && window.text == "子猫", "the window types it; nothing yet")
        #expect(window.send(.inputMethodLost(name: "org.fcitx.Fcitx5")) == [.trace(.inputMethodLost(name: "org.fcitx.Fcitx5"))],
                "nothing composing, nothing abandoned: only the trace line")
    }

    /// IBus's module ends the composition itself as its connection closes, with no key and
    /// no commit; the name leaves the bus after that (a settle later, on a loaded machine):
    /// what was drawn is kept all the same.
    @Test func aCompositionEndedByItsDyingModuleIsKeptWhenTheNameLeaves() {
        let window = Window("子猫")
        window.send(.keyPressed(name: "u", shift: false))
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "いぬ", cursor: 2, segments: [])))
        window.send(.preeditChanged(.empty))
        window.send(.preeditEnded)
        window.send(.settle)
        let lost = window.send(.inputMethodLost(name: "org.freedesktop.IBus"))
        #expect(lost.contains(.keepAbandonedComposition(drawn: "いぬ")))
        #expect(window.send(.inputMethodLost(name: "org.freedesktop.IBus")).count == 1, "kept once")
    }

    /// A composition ended after a letter key, with no commit, when the input method then
    /// leaves the bus: the key was on its way to the dying daemon (IBus's module ends the
    /// composition and passes the key on as a commit of its own, in either order). What was
    /// drawn is kept, and the key's letter is typed too.
    @Test func aCompositionEndedWhileALetterWasOnItsWayIsKept() {
        /// いぬ drawn, `key` pressed, then the module's messages in `order`; what the name
        /// leaving the bus then asks of the window.
        func lost(after key: String, drawn: String = "いぬ", _ order: [InputEvent]) -> [Effect] {
            let window = Window("")
            window.send(.preeditStarted)
            window.send(.preeditChanged(Preedit(text: drawn, cursor: drawn.count, segments: [])))
            window.send(.keyPressed(name: key, shift: false))
            for event in order { window.send(event) }
            return window.send(.inputMethodLost(name: "org.freedesktop.IBus"))
        }
        func commit(_ text: String) -> [InputEvent] { [.commitStarted(text), .inserted(offset: 0, text: text), .commitEnded] }
        let end: [InputEvent] = [.preeditChanged(.empty), .preeditEnded]
        let kept = Effect.keepAbandonedComposition(drawn: "いぬ")
        #expect(lost(after: "k", end).contains(kept))
        // The module's commit of the undelivered key may come before the name leaves…
        #expect(lost(after: "k", end + commit("k")).contains(kept))
        // …or even before the module ends the composition.
        #expect(lost(after: "k", commit("k") + end).contains(kept))
        // A commit of what was drawn, after the end (ibus-hangul's order), does explain it.
        #expect(!lost(after: "space", drawn: "한", end + commit("한")).contains {
            if case .keepAbandonedComposition = $0 { true } else { false }
        }, "committed already: not typed twice")
    }

    /// A composition the user ended (Escape, BackSpace over its last letter), committed, or
    /// left by clicking or moving the focus is not brought back when the input method later
    /// leaves the bus.
    @Test func aCompositionTheUserEndedIsNotBroughtBack() {
        func endedThen(_ steps: (Window) -> Void) -> [Effect] {
            let window = Window("子猫")
            window.send(.preeditStarted)
            window.send(.preeditChanged(Preedit(text: "いぬ", cursor: 2, segments: [])))
            steps(window)
            return window.send(.inputMethodLost(name: "org.freedesktop.IBus"))
        }
        let cases: [(String, (Window) -> Void)] = [
            ("Escape", { $0.send(.keyPressed(name: "Escape", shift: false)); $0.send(.preeditChanged(.empty)); $0.send(.preeditEnded) }),
            ("a commit", { $0.send(.preeditChanged(.empty)); $0.send(.commitStarted("犬")); $0.send(.inserted(offset: 2, text: "犬"))
                $0.send(.commitEnded); $0.send(.preeditEnded) }),
            ("a click", { $0.send(.pointerPressed); $0.send(.preeditChanged(.empty)); $0.send(.preeditEnded) }),
            ("focus out", { $0.send(.focusChanged(focused: false)); $0.send(.preeditEnded) }),
            ("a key after the end", { $0.send(.preeditEnded); $0.send(.keyPressed(name: "a", shift: false)) }),
            ("BackSpace over its letters", { $0.send(.keyPressed(name: "BackSpace", shift: false))
                $0.send(.preeditChanged(Preedit(text: "い", cursor: 1, segments: [])))
                $0.send(.keyPressed(name: "BackSpace", shift: false)); $0.send(.preeditChanged(.empty)); $0.send(.preeditEnded) }),
        ]
        for (what, steps) in cases {
            #expect(!endedThen(steps).contains { if case .keepAbandonedComposition = $0 { true } else { false } }, "\(what)")
        }
    }

    /// GNOME Shell resets IBus on a press before the window hears of it, and ibus-anthy
    /// drops its composition on reset: the preedit ends with no commit, then the press
    /// arrives, stamped before that end. What was drawn is typed where it was drawn, once,
    /// before the click moves the caret.
    @Test func aCompositionTheCompositorDroppedForAPressIsTypedWhereItWasDrawn() {
        let window = Window("子猫")
        window.send(.preeditStarted)
        window.send(.preeditChanged(Preedit(text: "いぬ", cursor: 2, segments: [])))
        window.send(.settle)
        window.send(.preeditChanged(.empty))
        window.send(.preeditEnded)
        let press = window.send(.pointerPressedAt(x: 3, y: 9, inputMethodResetFirst: true))
        #expect(press.first == .trace(.press(x: 3, y: 9, imResetFirst: true)))
        #expect(press.contains(.edit(range: 2..<2, text: "いぬ")), "typed where it was drawn: \(press)")
        #expect(window.composer.model.text == "子猫いぬ")
        window.send(.selectionChanged(anchor: 0, caret: 0))
        #expect(!window.send(.pointerPressedAt(x: 3, y: 9, inputMethodResetFirst: true)).contains {
            if case .edit = $0 { true } else { false }
        }, "kept once: a second press finds nothing to keep")
        #expect(window.composer.model.text == "子猫いぬ")
    }

    /// The same end with a press that came after it (an Escape IBus took, which the window
    /// never sees, then a click), a commit of what was drawn before the press (ibus-hangul
    /// commits on reset), or a key between: nothing is typed.
    @Test func aPressAfterAnEndItDidNotCauseBringsNothingBack() {
        func pressed(resetFirst: Bool, _ between: [InputEvent]) -> [Effect] {
            let window = Window("")
            window.send(.preeditStarted)
            window.send(.preeditChanged(Preedit(text: "한", cursor: 1, segments: [])))
            window.send(.preeditChanged(.empty))
            for event in between { window.send(event) }
            window.send(.preeditEnded)
            return window.send(.pointerPressedAt(x: 1, y: 1, inputMethodResetFirst: resetFirst))
        }
        let typed: ([Effect]) -> Bool = { $0.contains { if case .edit = $0 { true } else { false } } }
        #expect(typed(pressed(resetFirst: true, [])), "the case itself")
        #expect(!typed(pressed(resetFirst: false, [])), "a press made after the end: a cancel stays a cancel")
        #expect(!typed(pressed(resetFirst: true, [.commitStarted("한"), .inserted(offset: 0, text: "한"), .commitEnded])),
                "committed on the reset: not typed twice")
        #expect(!typed(pressed(resetFirst: true, [.keyPressed(name: "a", shift: false)])), "the user went on typing")
    }

    @Test func focusLeavingSettlesAndExitHappensOnce() {
        let window = Window("x")
        let left = window.send(.focusChanged(focused: false))
        #expect(left.first == .trace(.focus(in: false)))
        #expect(left.contains { if case .controls = $0 { true } else { false } }, "settled at once")
        let exit = window.send(.exit(.sigterm))
        #expect(exit.contains(.trace(.exit(text: "x", caret: 1, preedit: "", reason: .sigterm))))
        #expect(exit.last == .quit)
        #expect(window.send(.exit(.close)).isEmpty)
        #expect(window.send(.keyPressed(name: "a", shift: false)).isEmpty, "after exit no key is the composer's")
    }

    @Test func withoutATraceNoTraceEffectIsMade() {
        let window = Window("ab", limit: LengthLimit(limit: 2, mode: .hard), traces: false)
        window.commit("c")
        window.send(.settle)
        #expect(window.traced.isEmpty)
        #expect(window.text == "ab", "the decisions are the same")
        #expect(window.effects.contains(.edit(range: 2..<3, text: "")))
    }

    /// The keyboard and the layout reach the trace through the composer: one event stream.
    @Test func keyboardAndLayoutObservationsAreTheComposers() {
        let window = Window()
        let shown = window.send(.keyboardObserved(.simulated(inset: 240)))
        let keyboard = KeyboardEvent(visible: true, height: 240, overlap: 240, source: .simulated)
        #expect(shown == [.trace(.keyboard(keyboard)), .keyboardChanged(keyboard)])
        let again = window.send(.keyboardObserved(.simulated(inset: 240)))
        #expect(again == [.keyboardChanged(keyboard)], "no news, but the panel is laid out for it")
        let layout = Layout(panelWidth: 480, panelHeight: 600, list: 320, completion: 0, completionRows: 0,
                            indicator: 0, toolbar: 40, input: 0, keyboard: 240)
        #expect(window.send(.laidOut(layout)) == [.trace(.layout(layout))])
        #expect(window.send(.ready) == [.trace(.ready)])
    }

    /// The same events give the same effects: what replay builds on.
    @Test func theSameEventsGiveTheSameEffects() {
        func run() -> [Effect] {
            let window = Window("start", limit: LengthLimit(limit: 8, mode: .hard))
            window.send(.settle)
            window.commit("日本語です")
            window.send(.settle)
            window.send(.keyPressed(name: "Return", shift: false))
            window.send(.keyFiltered(name: "Return", shift: false, consumedByInputMethod: false))
            return window.effects
        }
        #expect(run() == run())
    }
}
