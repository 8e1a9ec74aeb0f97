/// What the composer's commands do: send, trim, accept a completion, break the line, exit.
/// Each settles first, so it acts on the text the user sees decided.
extension Composer {
    /// Sends the committed text if the model says so; never while composing.
    func send() {
        guard !exited else { return }
        heldEnter = nil  // the Send button while an Enter waits: the user has decided
        settle()
        switch model.sendDecision(limit: limit) {
        case .send(let message):
            let edits = isEditingLastSent
            effects.append(edits ? .sentEdited(message) : .sent(message))
            trace(.send(message, editsLast: edits))
            lastSent = message
            if edits { stopEditingLastSent() }
            traceEdit { model.applyDelete(range: 0..<model.document.scalarCount, origin: .program) }
            effects.append(.clear)
            settle()
        case .refuse(.overLimit(let over)):
            effects.append(.showLimitHint(limit.overLimitHint(by: over)))
            effects.append(.bell)
        case .refuse:
            effects.append(.bell)
        }
    }

    /// Enter (not taken by the input method, nothing composing) with a `@`, `#` or `:` word
    /// at the caret while the people, channels and emoji are still loading — the first
    /// moment after start, seconds on a busy machine. Had they been there, the list would be
    /// open and Enter would accept its first row: sending the word as typed (`：ねこ` instead
    /// of the 🐱 the user was after, issue #31) would let the machine's speed decide what
    /// the same keys do. So Enter waits, and at the first settle after the data arrives it
    /// does what it would have done with the data there (`decideHeldEnter`): accept the
    /// first row when the word has one, send otherwise. The same keys make the same message
    /// on any machine, and a replay decides the same.
    ///
    /// Nothing is lost while it waits: the text stays as typed. Typing on, moving the caret
    /// or composing before the data arrives is a new intention: the waiting Enter is dropped
    /// (a second Enter on the same text is the same one). The Send button never waits.
    /// Returns whether Enter waits.
    func holdEnterForData() -> Bool {
        guard awaitingData, !exited else { return false }
        settle()
        guard let word = completion.trigger.word(in: model), completion.sources[word.source] == nil else { return false }
        heldEnter = (model.log.lastEditSequence, model.selection)
        return true
    }

    /// After a settle, the Enter waiting for the data: dropped when the text, the selection
    /// or a composition changed since it was pressed; once the data is in (and the settle
    /// just run has evaluated the word with it), Enter as it would have been.
    func decideHeldEnter() {
        guard let held = heldEnter else { return }
        guard held.editSequence == model.log.lastEditSequence, held.selection == model.selection,
              !model.isComposing, !exited else {
            heldEnter = nil
            return
        }
        // An input method's empty preedit holds the list back: wait until it ends.
        guard !awaitingData, model.preedit == nil else { return }
        heldEnter = nil
        if completion.isOpen { acceptCompletion(nil) } else { send() }
    }

    /// "Trim to limit": removes the overflow in one undoable step (never mid-composition).
    func trimToLimit() {
        guard !exited, !model.isComposing else { return }
        settle()
        let boundary = model.document.limitBoundary(limit.limit, in: limit.unit)
        guard boundary < model.document.scalarCount else { return }
        edit(boundary..<model.document.scalarCount, with: "", origin: .program)
        settle()
    }

    /// Accepts row `index` (default: the selected one): replaces the prefix and query with
    /// the item as one undoable edit of the composer's own, caret after it. The length
    /// limit applies to it like to any insertion.
    func acceptCompletion(_ index: Int?) {
        guard !exited else { return }
        settle()
        guard let acceptance = completion.acceptance(of: index, in: model) else { return }
        edit(acceptance.replaceRange, with: acceptance.text, origin: .program)
        select(acceptance.caretAfter)
        effects.append(.resetInputMethod)
        completionChanged(completion.didAccept(acceptance))
        settle()
    }

    /// Up in an empty input: the last sent message comes back into the input to be edited,
    /// caret at its end; Send replaces it, Escape leaves it as it was.
    func editLastSent() {
        guard !exited, let message = lastSent, model.document.isEmpty, !isEditingLastSent else { return }
        edit(0..<0, with: message, origin: .program)
        let end = message.unicodeScalars.count
        select(end)
        isEditingLastSent = true
        effects.append(.editingLastSent(true))
        effects.append(.resetInputMethod)
        settle()
    }

    /// Escape while editing: the input empties (undoably) and the message stays as sent.
    func cancelEditingLastSent() {
        guard !exited, isEditingLastSent else { return }
        stopEditingLastSent()
        if !model.document.isEmpty { edit(0..<model.document.scalarCount, with: "", origin: .program) }
        effects.append(.resetInputMethod)
        settle()
    }

    private func stopEditingLastSent() {
        isEditingLastSent = false
        effects.append(.editingLastSent(false))
    }

    /// Shift+Enter: a line break where the caret is, replacing the selection, as typing it
    /// would.
    func insertNewline() {
        edit(model.selection.lower..<model.selection.upper, with: "\n", origin: .key)
        effects.append(.scrollToCaret)
        effects.append(.requestSettle)
    }

    func completionChanged(_ events: [TraceEvent]) {
        for event in events { trace(event) }
        effects.append(.completionChanged)
        showControls()
    }

    /// Final settle, the exit event, then quit. Once: closing after Ctrl+Q is one exit.
    func exit(_ reason: ExitReason) {
        guard !exited else { return }
        exited = true
        settle()
        trace(.exit(text: model.text, caret: model.selection.caret, preedit: model.preedit?.text ?? "", reason: reason))
        effects.append(.quit)
    }
}
