/// What the user sees in the input, as it is kept across a crash, a kill or a restart:
/// the committed text with any composition on screen spliced in at the caret.
///
/// A composition showing when the app dies is typed text, not noise: it is restored as
/// plain text (the input method that made it is gone), and `composing` says where it was
/// so the restored text could be shown as such.
public struct Draft: Equatable, Sendable {
    /// The text as the user sees it (a composition included).
    public var text: String
    /// The caret, in Unicode scalars of `text`.
    public var caret: Int
    /// Where the composition was in `text` (scalars), if one was showing.
    public var composing: Range<Int>?

    public init(text: String, caret: Int, composing: Range<Int>? = nil) {
        self.text = text
        self.caret = caret
        self.composing = composing
    }

    public static let empty = Draft(text: "", caret: 0)

    public var isEmpty: Bool { text.isEmpty }
}

extension ComposerModel {
    /// The draft as the user sees it now: a preedit on screen is spliced in at the caret,
    /// and the caret is put where the input method's cursor was in it. O(n): read it when
    /// saving (throttled), never per keystroke.
    public var draft: Draft {
        let caret = selection.caret
        guard let preedit, !preedit.text.isEmpty else {
            return Draft(text: document.string, caret: caret)
        }
        let before = document.substring(scalars: 0..<caret)
        let after = document.substring(scalars: caret..<document.scalarCount)
        let length = preedit.text.unicodeScalars.count
        let cursor = min(max(preedit.cursor, 0), length)
        return Draft(text: before + preedit.text + after, caret: caret + cursor, composing: caret..<caret + length)
    }

    /// What changes the draft, cheaply compared (no text copied): the edit log's last
    /// sequence, the selection and the preedit. Equal stamps mean an equal draft.
    public var draftStamp: DraftStamp {
        DraftStamp(sequence: log.lastSequence, anchor: selection.anchor, caret: selection.caret,
                   preedit: preedit.flatMap { $0.text.isEmpty ? nil : "\($0.cursor)\u{0}\($0.text)" })
    }
}

/// A cheap fingerprint of the draft (see `ComposerModel.draftStamp`).
public struct DraftStamp: Equatable, Sendable {
    let sequence: Int
    let anchor: Int
    let caret: Int
    let preedit: String?
}
