// Observed buffer changes. Selection positions move like marks in a text buffer:
// on insert, every position at or after the insertion point shifts right (so the
// caret that typed the text ends up after it); on delete, positions inside the
// deleted range collapse to its start and positions after it shift left.
extension ComposerModel {
    /// Records text the buffer inserted at scalar `offset` (clamped). Empty text is ignored.
    public func applyInsert(at offset: Int, text inserted: String, origin: EditOrigin) {
        guard !inserted.isEmpty else { return }
        let at = document.clampScalar(offset)
        let length = inserted.unicodeScalars.count
        replaceDocument(at..<at, with: inserted, removed: "", origin: origin)
        moveSelection { $0 >= at ? $0 + length : $0 }
    }

    /// Records text the buffer deleted in scalar `range` (clamped). Empty ranges are ignored.
    public func applyDelete(range: Range<Int>, origin: EditOrigin) {
        let range = document.clampedScalarRange(range)
        guard !range.isEmpty else { return }
        let removed = document.substring(scalars: range)
        replaceDocument(range, with: "", removed: removed, origin: origin)
        moveSelection { position in
            if position <= range.lowerBound { return position }
            if position <= range.upperBound { return range.lowerBound }
            return position - range.count
        }
    }

    /// Sets the selection (both ends clamped to the text).
    public func setSelection(anchor: Int, caret: Int) {
        selection = TextSelection(anchor: document.clampScalar(anchor), caret: document.clampScalar(caret))
    }

    private func replaceDocument(_ range: Range<Int>, with inserted: String, removed: String, origin: EditOrigin) {
        document.replace(scalars: range, with: inserted)
        nearby.apply(range: range, inserted: inserted)
        log.recordEdit(range: range, removed: removed, inserted: inserted, origin: origin)
    }

    private func moveSelection(_ move: (Int) -> Int) {
        selection = TextSelection(
            anchor: document.clampScalar(move(selection.anchor)),
            caret: document.clampScalar(move(selection.caret)))
    }
}
