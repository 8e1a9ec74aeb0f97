/// What the composer asks of the window, in order. The window applies each as it comes
/// and decides nothing itself.
public enum Effect: Equatable, Sendable {
    /// Replace scalar `range` of the buffer with `text` as one undoable step. The composer
    /// has already made the edit in its model: the window must not report it back.
    case edit(range: Range<Int>, text: String)
    /// Empty the buffer as a step the user cannot undo (the text was sent).
    case clear
    /// Put the selection (and the caret) here.
    case select(anchor: Int, caret: Int)
    /// Retag text: the overflow, a highlight kind or the invisible controls' mark.
    case tag(TagEffect)
    /// Write a trace event.
    case trace(TraceEvent)
    /// Show the counter for this status (and the Trim button with it).
    case showStatus(LimitStatus)
    /// Which commands can run now: Send, Trim, the caret moves (they wait while a
    /// composition is in progress) and the completion list's (while it is open).
    case controls(canSend: Bool, canTrim: Bool, canMoveCaret: Bool, completionOpen: Bool)
    /// The completion list changed (opened, narrowed, moved, closed): show it again.
    case completionChanged
    /// Lay the panel out for the keyboard as it is now.
    case keyboardChanged(KeyboardEvent)
    /// Explain why the message was not sent.
    case showLimitHint(LimitHint)
    /// The user's action cannot be done (the error bell).
    case bell
    /// The message was sent: show it in the list.
    case sent(String)
    /// The last sent message was edited: show its new text in its place.
    case sentEdited(String)
    /// Editing the last sent message starts (true) or ends (false): Send saves the edit,
    /// Escape cancels it.
    case editingLastSent(Bool)
    /// The input method's idea of the text is stale after the composer's own edit.
    case resetInputMethod
    /// End the composition on screen as focus loss would, before a click reaches the text
    /// view (`.pointerPressed`) or for an orphaned preedit nothing else would end
    /// (`Composer.keyFiltered`). If the module in use may end it with nothing committed
    /// (`InputMethodModule`), `keep` is what the user saw: the window types it when no
    /// commit came and nothing is drawn any more. Nil: the module commits by itself.
    case finishComposition(keep: String?)
    /// The input method left the bus with `drawn` on screen (or just ended by its module as
    /// the connection closed): end whatever the module still draws, and type `drawn` at the
    /// caret unless the module committed it itself meanwhile. Nothing the user saw is lost.
    case keepAbandonedComposition(drawn: String)
    /// Keep the caret in view (after a newline).
    case scrollToCaret
    /// Settle once the current event is fully handled.
    case requestSettle
    /// The composer is done: quit after the exit event.
    case quit
    /// Report the next painted frame (`InputEvent.framePainted`): `--trace-frames`.
    case awaitFrame
    /// The trace asked for mid-session starts now: the window writes its `start` line; the
    /// composer's trace effects follow.
    case tracingStarted
}
