// The preedit lifecycle, as GtkIMContext signals it. The preedit is kept apart
// from the document: it is shown, never committed, never judged.
extension ComposerModel {
    /// `preedit-start`: composition begins, possibly with no text yet.
    public func preeditStarted() {
        if preedit == nil { preedit = .empty }
    }

    /// `preedit-changed`. Some input methods skip `preedit-start`, so non-empty
    /// text starts a preedit implicitly; an empty change outside a preedit (sent
    /// by some input methods after `preedit-end`) is ignored.
    public func preeditChanged(_ newPreedit: Preedit) {
        if preedit == nil, newPreedit.text.isEmpty { return }
        preedit = newPreedit
    }

    /// `preedit-end`: composition is over (committed or cancelled).
    public func preeditEnded() {
        preedit = nil
    }

    /// Marks a settle in the log. It is quiet only when no preedit is active.
    public func markSettle() {
        log.recordSettle(preeditActive: preedit != nil)
    }
}
