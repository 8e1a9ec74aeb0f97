/// What the window observed, in the order it happened: the only way into the composer's
/// decisions (`Composer.handle`). A window, a test and a recorded transcript produce the
/// same events, so they drive the composer the same way.
public enum InputEvent: Equatable, Sendable {
    // MARK: The input method (handlers and emission hooks of the text view's IM context)

    case preeditStarted
    case preeditChanged(Preedit)
    case preeditEnded
    /// The input method commits `text`; the text view inserts it next.
    case commitStarted(String)
    /// The text view inserted the committed text.
    case commitEnded
    /// The input method read the text around the caret.
    case surroundingRetrieved
    /// The input method deletes text around the caret (characters from the caret); the text
    /// view deletes it next.
    case surroundingDeleted(offset: Int, count: Int)

    // MARK: Keys

    /// A key was pressed (before anyone handled it). If the composer routes it
    /// (`Composer.routes`), the window filters it through the input method and reports
    /// `keyFiltered`; otherwise the text view has it.
    ///
    /// `forwarded`: the input method had the key first and passed it on after acting on
    /// it — the key was pressed before the input method's last commit or preedit change
    /// reached the window. A compositor's input method (Wayland's input-method-v2) sees
    /// every key before the application: fcitx5-hangul commits on Return and forwards the
    /// Return, which arrives after the commit, as if pressed with nothing composing.
    case keyPressed(name: String, shift: Bool, forwarded: Bool = false)
    /// A routed key after the input method saw it: whether the input method consumed it.
    case keyFiltered(name: String, shift: Bool, consumedByInputMethod: Bool)

    // MARK: The text buffer

    /// The buffer inserted `text` at scalar offset `offset` (any cause but the composer's
    /// own edits, which the window applies without reporting them back).
    case inserted(offset: Int, text: String)
    /// The buffer deleted scalar `range`.
    case deleted(Range<Int>)
    /// A user action on the buffer (a commit, a paste, a typed key) is complete.
    case userActionEnded
    /// Undo or redo starts or ends changing the buffer.
    case historyStarted(EditOrigin)
    case historyEnded(EditOrigin)
    /// A paste was asked for; the clipboard's text arrives later (GTK4 pastes asynchronously).
    case pasteStarted
    case pasteEnded
    /// Something is dropped on the text.
    case dropped
    /// A pointer press in the text, before the text view handles it (and resets the input
    /// method, which makes some engines drop what they were composing).
    case pointerPressed
    /// The same press, where it was (window coordinates): traced as `press`, which a rerun
    /// of the transcript clicks again. `inputMethodResetFirst`: the input method acted
    /// after the press was made, by the press's own time (`ForwardedKeyClock`): the
    /// compositor reset it for this press before the window was told of the press (mutter
    /// does, on every press in a surface with text input).
    case pointerPressedAt(x: Int, y: Int, inputMethodResetFirst: Bool = false)
    /// The selection or the caret moved (scalar offsets).
    case selectionChanged(anchor: Int, caret: Int)
    /// The buffer holds other text than the composer knows (a change it could not see):
    /// the buffer wins.
    case bufferDiverged(text: String)

    // MARK: The window

    case focusChanged(focused: Bool)
    /// The GTK input-method module in use changed (told before the composition it draws
    /// starts): it decides what finishing a composition may drop (`InputMethodModule`).
    case inputMethodModuleChanged(InputMethodModule)
    /// The input method's daemon (`name`: its D-Bus name) left the session bus while the app
    /// ran: it died. Its GTK module never ends the composition it was showing.
    case inputMethodLost(name: String)
    /// What the window learned about the on-screen keyboard (squeekboard, its own height,
    /// the simulated keyboard).
    case keyboardObserved(KeyboardObservation)
    /// The window offers a simulated keyboard `inset` pixels tall (`--osk-inset`), and
    /// whether the input has the focus now: from here on it follows the focus
    /// (`SimulatedKeyboard`). A replay copies the recorded `keyboard` lines instead.
    case simulatedKeyboardOffered(inset: Int, inputFocused: Bool)
    /// The simulated keyboard's toggle asks for it up or down.
    case simulatedKeyboardRequested(up: Bool)
    /// The panel was laid out anew (the window measured and solved it).
    case laidOut(Layout)
    /// The input shows the text in scalar `range` (after a scroll or a new size). Told only
    /// for a draft long enough to be highlighted around what is shown
    /// (`TokenHighlighter.highlightsAroundShownText`).
    case shownTextChanged(Range<Int>)
    /// The last message sent before this session, from the profile (Up in an empty input
    /// edits it).
    case historyRestored(lastSent: String)
    /// The window painted the frame `Effect.awaitFrame` asked for (`--trace-frames`).
    case framePainted
    /// Where the caret was told to the input method and its candidate window went, read
    /// once input settled (while the inspector is shown, or `--trace-placement`).
    /// (Boxed: every other event is small, and events are copied on every keystroke.)
    indirect case placementObserved(CandidatePlacement)
    /// The window is shown, its input has the keyboard focus and the data is in.
    case ready
    /// People, channels and emoji the app loaded after the window opened (off the main
    /// thread, once the first frame is painted) are here. A word typed before them is
    /// completed at the next settle, and an Enter that waited for them is decided then
    /// (`Composer.init(awaitingData:)`).
    case dataArrived(CompletionData)
    /// Input has settled: the current event is fully handled (an idle, or the frame's
    /// before-paint phase). Decisions are made now.
    case settle

    // MARK: Commands (buttons, shortcuts, the completion list)

    case send
    case trim
    /// Accept completion row `index` (nil: the selected one).
    case acceptCompletion(index: Int?)
    /// Move the completion list's selection by `delta` rows (Up: -1, Down: +1).
    case moveCompletion(by: Int)
    /// Close the completion list (it stays closed until the word at the caret changes).
    case closeCompletion
    case exit(ExitReason)
}

/// Completion sources and the names the highlighter knows, loaded after the window opened.
///
/// `@unchecked Sendable`: `CompletionSource` is a class; the loading thread builds it and
/// hands it over once, and from then on only the composer's thread touches it.
public struct CompletionData: Equatable, @unchecked Sendable {
    /// The names to highlight; nil keeps the highlighter's (a source that arrives on its
    /// own: an older trace's emoji index, built on first use).
    public var tokens: TokenNames?
    public var sources: [CompletionSource]

    public init(tokens: TokenNames?, sources: [CompletionSource]) {
        self.tokens = tokens
        self.sources = sources
    }

    /// The same names and the very same sources (a source is compared by identity).
    public static func == (lhs: CompletionData, rhs: CompletionData) -> Bool {
        lhs.tokens == rhs.tokens && lhs.sources.count == rhs.sources.count
            && zip(lhs.sources, rhs.sources).allSatisfy { $0 === $1 }
    }
}
