/// Where a recorded offset lands in the replay's text.
///
/// With the recorded settings the two texts are the same and every offset stays. With
/// others they can differ (a hard limit cut more, or nothing): an offset in the text both
/// share at the start or at the end keeps its place relative to it; one inside the part
/// that differs goes to the end of the replay's differing part. An input method's commit
/// or delete-surrounding is placed relative to the caret instead, as GTK does.
struct EditPlacement {
    private let recorded: ComposerModel
    private let replayed: ComposerModel
    private let identical: Bool

    init(recorded: ComposerModel, replayed: ComposerModel) {
        self.recorded = recorded
        self.replayed = replayed
        identical = recorded.document.scalarCount == replayed.document.scalarCount
            && isScalarIdentical(recorded.text, replayed.text)
    }

    /// `offset` in the recorded text → the replay's.
    func place(_ offset: Int) -> Int {
        guard !identical else { return offset }
        let old = Array(recorded.text.unicodeScalars), new = Array(replayed.text.unicodeScalars)
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        if offset <= prefix { return offset }
        if offset >= old.count - suffix { return new.count - (old.count - offset) }
        return new.count - suffix
    }

    /// `offset`, recorded relative to the recording's caret → the same distance from the
    /// replay's caret, within the text.
    func placeNearCaret(_ offset: Int) -> Int {
        guard !identical else { return offset }
        let placed = replayed.selection.caret + (offset - recorded.selection.caret)
        return max(0, min(placed, replayed.document.scalarCount))
    }
}
