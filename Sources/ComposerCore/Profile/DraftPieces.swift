/// The draft's text as the profile keeps it: in pieces of `scalars` Unicode scalars (the
/// last one shorter), so that a save rewrites the pieces from the first one that changed
/// and keeps the others. Typing at the end of a 1 MB draft rewrites one piece of at most
/// 16 KB instead of the megabyte (issue #35: the whole text, converted and written every
/// 300 ms of typing, cost a fifth of each key's CPU).
public enum DraftPieces {
    /// Unicode scalars per piece: at most 16 KB of UTF-8.
    public static let scalars = 4_096

    /// `text` cut into pieces (none for an empty text). Counts scalars on the UTF-8 bytes
    /// (every byte that does not continue a scalar starts one): a few instructions a byte,
    /// where stepping through `unicodeScalars` cost twenty a scalar.
    public static func split(_ text: String, scalars size: Int = scalars) -> [String] {
        var text = text
        return text.withUTF8 { bytes in
            var pieces: [String] = []
            var start = 0, counted = 0
            for offset in bytes.indices where bytes[offset] & 0xC0 != 0x80 {
                if counted == size {
                    pieces.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self))
                    start = offset
                    counted = 0
                }
                counted += 1
            }
            if start < bytes.count {
                pieces.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
            }
            return pieces
        }
    }
}

/// A save of the draft: its pieces from `first` on (the pieces before it are as in the
/// previous update asked for), its caret and composition, and how to make every piece when
/// the saved ones cannot be kept (the first save of a session, after a message's write,
/// after another window on the profile saved its draft).
public struct DraftUpdate: Sendable {
    /// The first piece given; the draft's text ends with the last of `pieces`.
    public let first: Int
    public let pieces: [String]
    /// As `Draft`'s: in Unicode scalars of the whole text.
    public let caret: Int
    public let composing: Range<Int>?
    /// Every piece of the same text, made when asked (off the main thread, by the saver).
    public let allPieces: @Sendable () -> [String]

    public init(first: Int, pieces: [String], caret: Int, composing: Range<Int>?,
                allPieces: @escaping @Sendable () -> [String]) {
        self.first = first
        self.pieces = pieces
        self.caret = caret
        self.composing = composing
        self.allPieces = allPieces
    }

    /// The whole of `draft`, every piece given.
    public init(_ draft: Draft) {
        let pieces = DraftPieces.split(draft.text)
        self.init(first: 0, pieces: pieces, caret: draft.caret, composing: draft.composing) { pieces }
    }

    /// This update after `earlier`, which was asked for first and is not written yet: one
    /// update that writes both (this one's pieces kept from `earlier.first` on).
    public func after(_ earlier: DraftUpdate) -> DraftUpdate {
        guard first > earlier.first else { return self }
        let carried = first - earlier.first
        guard carried <= earlier.pieces.count else {
            // Not a follow-up of `earlier` (never made by `ComposerModel.draftUpdate`).
            return DraftUpdate(first: 0, pieces: allPieces(), caret: caret, composing: composing, allPieces: allPieces)
        }
        return DraftUpdate(first: earlier.first, pieces: Array(earlier.pieces.prefix(carried)) + pieces,
                           caret: caret, composing: composing, allPieces: allPieces)
    }
}

extension ComposerModel {
    /// The draft (as `draft` would give it) as an update of the one whose stamp was `saved`:
    /// the pieces from the first one an edit or a composition touched since, the others
    /// left as saved. Nil `saved`, or an edit log that no longer reaches back to it: every
    /// piece. O(the pieces given), not O(the text): typing at the end of a long draft
    /// converts one piece.
    public func draftUpdate(since saved: DraftStamp?) -> DraftUpdate {
        // Not a default argument: a client module compiles those into its own code, and an
        // incremental build kept the old size there when only the constant changed.
        draftUpdate(since: saved, pieceScalars: DraftPieces.scalars)
    }

    /// `draftUpdate(since:)` with pieces of `size` scalars (tests use small ones).
    public func draftUpdate(since saved: DraftStamp?, pieceScalars size: Int) -> DraftUpdate {
        let caret = selection.caret
        let preeditText = preedit.map(\.text) ?? ""
        let length = preeditText.unicodeScalars.count
        let pieceCount = (document.scalarCount + length + size - 1) / size
        var first = 0
        // A stamp from ahead of this log is not this model's: everything is written.
        if let saved, saved.sequence <= log.lastSequence, log.holdsEverything(after: saved.sequence) {
            // Before the lowest edit and before a composition (then or now), the text is the same.
            var lowest = log.lowestEditStart(after: saved.sequence) ?? Int.max
            if saved.preedit != nil { lowest = min(lowest, saved.caret) }
            if length > 0 { lowest = min(lowest, caret) }
            first = min(lowest / size, pieceCount)
        }
        let document = self.document
        let pieces = Self.draftPieces(document, preedit: preeditText, at: caret, from: first, size: size)
        let allPieces: @Sendable () -> [String] = {
            Self.draftPieces(document, preedit: preeditText, at: caret, from: 0, size: size)
        }
        guard length > 0, let preedit else {
            return DraftUpdate(first: first, pieces: pieces, caret: caret, composing: nil, allPieces: allPieces)
        }
        let cursor = min(max(preedit.cursor, 0), length)
        return DraftUpdate(first: first, pieces: pieces, caret: caret + cursor, composing: caret..<caret + length,
                           allPieces: allPieces)
    }

    /// The pieces of `document` with `preedit` spliced in at `caret`, from piece `first` on.
    private static func draftPieces(_ document: TextDocument, preedit: String, at caret: Int, from first: Int,
                                    size: Int) -> [String] {
        let start = first * size
        let count = document.scalarCount
        let length = preedit.unicodeScalars.count
        let tail: String
        if length == 0 {
            tail = start < count ? document.substring(scalars: start..<count) : ""
        } else if start <= caret {
            tail = document.substring(scalars: start..<caret) + preedit + document.substring(scalars: caret..<count)
        } else if start < caret + length {
            tail = String(preedit.unicodeScalars.dropFirst(start - caret)) + document.substring(scalars: caret..<count)
        } else {
            tail = document.substring(scalars: start - length..<count)
        }
        return DraftPieces.split(tail, scalars: size)
    }
}
