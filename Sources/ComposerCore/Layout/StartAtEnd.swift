/// Where a draft given at start is shown: a draft with the caret at its end is shown at its
/// very end (its last line and the input's bottom margin), and stays there while GTK lays
/// it out, until the user's first input.
///
/// Why not scroll the caret into view once, as a text view does: GTK scrolls "just enough"
/// (the caret's line at the bottom edge, the bottom margin out of view), and computes the
/// scroll from the heights it has estimated for lines it has not laid out yet, so the
/// scroll can stop anywhere short of the end (21 px of 700 for a 20-line draft). Left 5 px
/// short, the first kana typed (drawn in a taller CJK fallback font) scrolls the input by
/// 3 px, and every scroll shows GtkScrolledWindow's indicator, which fades in and out over
/// about 100 frames: 2.7 frames per key instead of 1 (Benchmarks/findings.md).
///
/// After the first input the text view keeps its caret in view as it always does: following
/// the end then would scroll on every taller line and fight a user who scrolled up.
public enum StartAtEnd {
    /// Whether a draft of `draftScalars` Unicode scalars given with the caret at `caret`
    /// (nil: at its end) is shown at its end until the first input.
    public static func follows(draftScalars: Int, caret: Int?) -> Bool {
        draftScalars > 0 && (caret ?? draftScalars) >= draftScalars
    }

    /// Whether `event` is the user's own input, which ends following the end: a key, the
    /// input method composing or committing, an edit, a paste or drop, a press in the text,
    /// a moved caret, a command. Not what the window learns on its own (focus, layout,
    /// frames, data, the keyboard's height, settles), nor what an input method does on
    /// focus without the user (reads the surrounding text, starts, clears or ends an empty
    /// preedit).
    public static func endsFollowing(_ event: InputEvent) -> Bool {
        switch event {
        case .preeditChanged(let preedit):
            return !preedit.text.isEmpty
        case .commitStarted, .commitEnded, .surroundingDeleted,
             .keyPressed, .keyFiltered, .inserted, .deleted, .userActionEnded, .historyStarted, .historyEnded,
             .pasteStarted, .pasteEnded, .dropped, .pointerPressed, .pointerPressedAt, .selectionChanged,
             .bufferDiverged, .simulatedKeyboardRequested, .send, .trim, .acceptCompletion, .moveCompletion,
             .closeCompletion, .exit:
            return true
        case .preeditStarted, .preeditEnded, .surroundingRetrieved, .focusChanged, .inputMethodModuleChanged, .inputMethodLost, .keyboardObserved,
             .simulatedKeyboardOffered, .laidOut, .shownTextChanged, .historyRestored, .framePainted, .placementObserved, .ready,
             .dataArrived, .settle:
            return false
        }
    }
}
