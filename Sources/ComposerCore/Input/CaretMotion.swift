/// A caret toolbar button (shown while an on-screen keyboard is up): ← → move by one
/// grapheme, ↑ ↓ by one display line.
///
/// ← and → are logical: backward and forward in the text (in a right-to-left paragraph
/// the app may swap the buttons).
public enum CaretDirection: String, Sendable, CaseIterable {
    case left, right, up, down

    /// The keyboard's way to the toolbar (a virtual keyboard may have modifiers but no
    /// arrows of its own): Control+Alt+arrow presses the button, with Shift it extends the
    /// selection. In GTK's accelerator syntax ("<Control><Alt><Shift>Left").
    public func accelerator(extend: Bool) -> String {
        "<Control><Alt>\(extend ? "<Shift>" : "")\(rawValue.prefix(1).uppercased() + rawValue.dropFirst())"
    }
}

/// What a caret toolbar button does.
public enum CaretMove: Equatable, Sendable {
    /// Put the selection here (scalar offsets, on grapheme boundaries).
    case set(TextSelection)
    /// Move the caret one display line up or down; the app does the geometry (GtkTextView's
    /// display-line move, which keeps the horizontal position as the arrow keys do). With `extend` the anchor stays and the selection grows; without it the
    /// selection collapses to the moved caret.
    case displayLine(up: Bool, extend: Bool)
}

/// Moving the caret without a keyboard's arrow keys: an on-screen keyboard has none, and the
/// toolbar's buttons never take the focus from the input.
///
/// A caret is an empty selection. Moves are by grapheme (👨‍👩‍👧, 🇯🇵 and C + U+030C each
/// move as one), guarded at both ends: ← at 0 and → at the end leave the caret where it is.
///
/// With a selection, ← and → collapse it to its start or its end without moving further
/// (the desktop convention, what GTK's arrow keys do); with `extend` (a modifier or a long
/// press) the caret end moves by one grapheme and the anchor stays, like Shift+arrow.
/// Offsets outside the document are clamped; a caret inside a grapheme moves to that
/// grapheme's start (←) or end (→).
public enum CaretMotion {
    public static func plan(selection: TextSelection, document: TextDocument,
                            direction: CaretDirection, extend: Bool) -> CaretMove {
        let anchor = document.clampScalar(selection.anchor)
        let caret = document.clampScalar(selection.caret)
        switch direction {
        case .up: return .displayLine(up: true, extend: extend)
        case .down: return .displayLine(up: false, extend: extend)
        case .left, .right:
            let forward = direction == .right
            if extend {
                return .set(TextSelection(anchor: anchor, caret: step(from: caret, forward: forward, in: document)))
            }
            if anchor != caret {
                return .set(TextSelection(caret: forward ? max(anchor, caret) : min(anchor, caret)))
            }
            return .set(TextSelection(caret: step(from: caret, forward: forward, in: document)))
        }
    }

    /// The grapheme boundary before or after a scalar offset (clamped at both ends).
    public static func step(from scalar: Int, forward: Bool, in document: TextDocument) -> Int {
        let offset = document.clampScalar(scalar)
        let grapheme = document.graphemeOffset(ofScalar: offset)  // rounds down inside a grapheme
        if forward {
            return document.scalarOffset(ofGrapheme: grapheme + 1)  // clamped at the end
        }
        if !document.isGraphemeBoundary(scalar: offset) {
            return document.scalarOffset(ofGrapheme: grapheme)  // the start of this grapheme
        }
        return document.scalarOffset(ofGrapheme: max(0, grapheme - 1))
    }
}
