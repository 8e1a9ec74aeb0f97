/// While the window applies the composer's own edit or selection, the buffer's signals
/// report what the composer already did, and are not reported back. A selection only
/// silences "mark-set": GTK resets the input method when the caret is set, and what the
/// input method does then is news.
final class OwnChanges {
    private var applyingEdit = false
    private var applyingSelection = false

    /// Whether an insertion, deletion or end of a user action now is news for the composer.
    var editsAreNews: Bool { !applyingEdit }
    /// Whether a move of the caret or the selection bound now is news for the composer.
    var selectionIsNews: Bool { !applyingEdit && !applyingSelection }

    /// Runs `body`, which applies the composer's own edit.
    func edit(_ body: () -> Void) {
        applyingEdit = true
        defer { applyingEdit = false }
        body()
    }

    /// Runs `body`, which applies the composer's own selection.
    func select(_ body: () -> Void) {
        applyingSelection = true
        defer { applyingSelection = false }
        body()
    }
}
