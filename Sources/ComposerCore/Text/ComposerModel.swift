/// The composer's state: committed text, selection, preedit, and the edit log.
///
/// It mirrors what the toolkit's buffer already did — it observes, it does not veto — so an
/// input method is never surprised (accept all input). Offsets from the toolkit are
/// clamped, never trusted: a bad offset must not crash the composer.
///
/// Setters are `internal(set)` only so the editing and preedit extensions in
/// sibling files can write; outside the module everything is read-only.
///
/// Used from one thread (the GTK main thread), hence a non-Sendable final class.
public final class ComposerModel {
    public internal(set) var document: TextDocument
    public internal(set) var selection: TextSelection
    /// Non-nil between `preeditStarted()` and `preeditEnded()`.
    public internal(set) var preedit: Preedit?
    public internal(set) var log: EditLog
    /// The scalars the settle steps read last, kept in step with every edit (see `scalars(in:)`).
    var nearby = NearbyScalars()

    /// - Parameter caret: scalar offset; defaults to the end of `text`, clamped.
    public init(text: String = "", caret: Int? = nil) {
        let document = TextDocument(text)
        self.document = document
        self.selection = TextSelection(caret: document.clampScalar(caret ?? document.scalarCount))
        self.preedit = nil
        self.log = EditLog()
    }

    /// The scalars between two offsets (clamped): from the copy kept near the latest reads
    /// and edits when it holds them, else out of the rope (and then kept). For settle steps
    /// that read a window around the caret or an edit at every settle.
    public func scalars(in range: Range<Int>) -> [Unicode.Scalar] {
        let range = document.clampedScalarRange(range)
        if let kept = nearby.scalars(in: range) { return kept }
        let read = document.scalars(in: range)
        nearby.keep(read, at: range.lowerBound)
        return read
    }

    /// The committed text (O(n): a copy out of the rope).
    public var text: String { document.string }

    /// True while there is visible uncommitted text. An empty preedit between
    /// start and end is not composing for Send, though it still makes settles
    /// non-quiet (see `markSettle()`).
    public var isComposing: Bool {
        guard let preedit else { return false }
        return !preedit.text.isEmpty
    }

    public var snapshot: TextSnapshot {
        TextSnapshot(text: text, caret: selection.caret, selection: selection)
    }
}
