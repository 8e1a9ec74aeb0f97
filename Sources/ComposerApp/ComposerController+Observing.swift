import CGtk
import ComposerCore
import Foundation
import GtkBinding

/// What the window observes — the buffer, the input method, the keys, the window — each
/// reported to the composer as an input event (`forward`). Nothing here decides.
extension ComposerController {
    func observeBuffer() {
        let buffer = ui.buffer
        onTextInserted(buffer.pointer, after: true) { [weak self] end, text in
            guard let self, ownChanges.editsAreNews else { return }
            // After the default handler the iter points just past the inserted text.
            forward(.inserted(offset: offset(of: end) - text.unicodeScalars.count, text: text))
        }
        // Before the default handler, while the removed text can still be read. The model
        // moves its selection as GTK moves its marks: nothing to read back afterwards.
        onRangeDeleted(buffer.pointer, after: false) { [weak self] start, end in
            guard let self, ownChanges.editsAreNews else { return }
            forward(.deleted(min(offset(of: start), offset(of: end))..<max(offset(of: start), offset(of: end))))
        }
        // A commit or paste is done, and the text view is about to lay the caret's paragraph
        // out for the input method: text typed past the limit gets its colour first.
        onSignal(buffer.pointer, "end-user-action") { [weak self] in
            guard let self, ownChanges.editsAreNews else { return }
            forward(.userActionEnded)
        }
        let insertMark = gtk_text_buffer_get_insert(buffer.pointer)
        let boundMark = gtk_text_buffer_get_selection_bound(buffer.pointer)
        onMarkSet(buffer.pointer) { [weak self] mark in
            guard let self, ownChanges.selectionIsNews,
                  mark == insertMark || mark == boundMark else { return }
            forwardSelection()
        }
        // Undo and redo are buffer signals whose class handler does the work (run-last):
        // a plain handler runs before it, an "after" handler once it is done.
        for (signal, origin) in [("undo", EditOrigin.undo), ("redo", .redo)] {
            onSignal(buffer.pointer, signal) { [weak self] in self?.forward(.historyStarted(origin)) }
            onSignal(buffer.pointer, signal, after: true) { [weak self] in self?.forward(.historyEnded(origin)) }
        }
        // GTK4 pastes asynchronously: paste-clipboard starts it, paste-done ends it.
        onSignal(ui.textView, "paste-clipboard") { [weak self] in self?.forward(.pasteStarted) }
        onPointerSignal(buffer.pointer, "paste-done") { [weak self] _ in self?.forward(.pasteEnded) }
        observeDrops()
    }

    /// A drop inserts inside the text view's own GtkDropTarget "drop" handler, which stops
    /// the emission; an emission hook sees it first.
    private func observeDrops() {
        guard let target = controller(of: ui.textView, type: gtk_drop_target_get_type()) else { return }
        observeEmissions(of: "drop", definedOn: gtk_drop_target_get_type(), instance: target) { [weak self] _ in
            self?.forward(.dropped)
        }
    }

    /// A long draft is highlighted around what the input shows (`TokenHighlighter`): each
    /// new scroll position or input height is told as the text it shows. A short draft
    /// costs a character count per scroll.
    ///
    /// Told from an idle, not from the adjustment's signal: the offsets are read against
    /// the edit log's latest edit, and GTK may move the adjustment inside a buffer change
    /// (the text view keeps its first line in place when text above it changes), before
    /// the composer has heard of the change. A drag's many values make one report.
    func observeShownText() {
        let adjustment = gtk_scrolled_window_get_vadjustment(opaque(ui.inputScroller))!
        let report: () -> Void = { [weak self] in self?.shownTextMayHaveChanged() }
        onSignal(adjustment, "value-changed", report)
        onNotify(adjustment, property: "page-size", report)
    }

    private func shownTextMayHaveChanged() {
        guard shownTextReport == nil,
              TokenHighlighter.highlightsAroundShownText(scalarCount: Int(gtk_text_buffer_get_char_count(ui.buffer.pointer)))
        else { return }
        shownTextReport = sources.idle(priority: G_PRIORITY_HIGH_IDLE) { [weak self] in
            self?.shownTextReport = nil
            self?.reportShownText()
            return false
        }
    }

    private func reportShownText() {
        guard TokenHighlighter.highlightsAroundShownText(scalarCount: Int(gtk_text_buffer_get_char_count(ui.buffer.pointer))),
              gtk_widget_get_mapped(ui.textView) != 0 else { return }
        var shown = GdkRectangle(), top = GtkTextIter(), bottom = GtkTextIter()
        gtk_text_view_get_visible_rect(cast(ui.textView), &shown)
        _ = gtk_text_view_get_iter_at_location(cast(ui.textView), &top, 0, shown.y)
        _ = gtk_text_view_get_iter_at_location(cast(ui.textView), &bottom, shown.width, shown.y + shown.height)
        let start = Int(gtk_text_iter_get_offset(&top)), end = Int(gtk_text_iter_get_offset(&bottom)) + 1
        forward(.shownTextChanged(start..<max(start, end)))
    }

    /// Presses in the text reach the composer before the text view's own handlers (which
    /// reset the input method): `.pointerPressedAt` may finish a composition first. Where
    /// (window coordinates) goes in the trace, for a rerun of the transcript to click again.
    func observePointerPresses() {
        let gesture = gtk_gesture_click_new()!
        gtk_event_controller_set_propagation_phase(gesture, GTK_PHASE_CAPTURE)
        onClickGesture(gesture, "pressed") { [weak self] _, x, y in
            guard let self else { return }
            var windowX = x, windowY = y
            _ = gtk_widget_translate_coordinates(cast(ui.textView), cast(ui.window), x, y, &windowX, &windowY)
            let resetFirst = inputMethod.actedAfter(eventTime: gtk_event_controller_get_current_event_time(gesture))
            forward(.pointerPressedAt(x: Int(windowX.rounded()), y: Int(windowY.rounded()),
                                      inputMethodResetFirst: resetFirst))
        }
        gtk_widget_add_controller(cast(ui.textView), gesture)
    }

    func forwardSelection() {
        let selection = ui.buffer.selection
        forward(.selectionChanged(anchor: selection.anchor, caret: selection.caret))
    }

    /// One capture-phase router: the input method sees a routed key first; only a key it
    /// did not consume is ours. Every other key goes untouched to the text view, which
    /// filters it through the IM itself (filtering twice would type it twice).
    func routeKeys() {
        captureKeyPresses(on: ui.textView) { [weak self] key in
            guard let self else { return false }
            guard !composer.exited else { return true }
            let name = key.name, shift = key.shift
            let routed = composer.routes(keyName: name, shift: shift)
            let forwarded = inputMethod.actedAfter(eventTime: key.time)
            forward(.keyPressed(name: name, shift: shift, forwarded: forwarded))
            guard routed else { return false }
            let consumed = inputMethodConsumes(key, textView: ui.textView)
            forward(.keyFiltered(name: name, shift: shift, consumedByInputMethod: consumed))
            return true
        }
    }

    func observeWindow() {
        observeFocus(of: ui.textView) { [weak self] focused in
            guard let self else { return }
            forward(.focusChanged(focused: focused))
            announceReadyIfFocused()
        }
        onNotify(ui.window, property: "is-active") { [weak self] in self?.announceReadyIfFocused() }
        // Closing the window destroys it without our destroy(): from then on, hands off.
        onSignal(ui.window, "destroy") { [weak self] in self?.windowDestroyed() }
        onBoolSignal(ui.window, "close-request") { [weak self] in
            self?.exit(reason: .close)
            return false
        }
        captureKeyPresses(on: ui.window) { [weak self] key in
            guard let self, key.control else { return false }
            // Ctrl+Q and Ctrl+Shift+T are GTK shortcuts (`ComposerActions`); a key that types
            // no Latin letter in the active layout runs the one of its letter in another.
            if !key.alt, let letter = key.latinLetterInAnotherLayout {
                return actions.activateShortcut(letter: letter, shift: key.shift)
            }
            return false
        }
        // The system's dark or high-contrast style switched at run time: the tags take the
        // new palette (libadwaita restyles the rest). The style manager outlives the window:
        // the observer goes with it.
        let stopObserving = SystemStyle.observe { [weak self] in self?.ui.tags.style() }
        onSignal(ui.window, "destroy") { stopObserving() }
    }
}

/// The first controller of `type` among a widget's own event controllers.
private func controller(of widget: UnsafeMutablePointer<GtkWidget>, type: GType) -> UnsafeMutableRawPointer? {
    let controllers = gtk_widget_observe_controllers(widget)!
    defer { g_object_unref(controllers.rawPointer) }
    for index in 0..<g_list_model_get_n_items(controllers) {
        guard let item = g_list_model_get_item(controllers, index) else { continue }
        g_object_unref(item)  // the widget keeps its controllers alive
        if isInstance(item, of: type) { return item }
    }
    return nil
}
