/// What the composer's commands do: send, trim, accept a completion, break the line, exit.
/// Each settles first, so it acts on the text the user sees decided.
extension Composer {
    /// Sends the committed text if the model says so; never while composing.
    func send() {
        guard !exited else { return }
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
