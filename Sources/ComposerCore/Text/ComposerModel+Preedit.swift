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
    ///
    /// A preedit emptied after it showed text ends the composition here: GtkIMMulticontext
    /// switching modules mid-composition emits an empty preedit-changed and never a
    /// preedit-end, and a composition kept open would stop the limit, completion and the
    /// edit log's trimming for good. Nothing is lost: an input method that goes on
    /// composing shows text again, which starts a preedit implicitly.
    public func preeditChanged(_ newPreedit: Preedit) {
        if newPreedit.text.isEmpty {
            if let preedit, !preedit.text.isEmpty { self.preedit = nil }
            return
        }
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
