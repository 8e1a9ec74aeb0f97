import CGtk
import ComposerCore
import Dispatch
import Foundation
import GtkBinding

/// Wires the window to the core: IM and buffer events → `ComposerModel`; settle →
/// `SettlePipeline` → trace and widget effects. Decisions (can we send, what changed) are
/// the core's; this class only observes and applies.
public final class ComposerController {
    let ui = ComposerView()
    public let model: ComposerModel
    public let trace: TraceWriter
    /// People and channels (from `--data`): given at start (tests), or installed once
    /// loaded off the main thread (`useData`).
    public private(set) var directory: Directory
    /// Whether people, channels and emoji are installed: "ready" waits for them, so that
    /// what is typed after "ready" completes the same way in every run.
    private(set) var hasData: Bool
    public private(set) var limit: LengthLimit
    var limitController: LengthLimitController!
    var overflowController: OverflowController!
    /// Send, trim and quit as GActions with their shortcuts.
    private(set) var actions: ComposerActions!
    /// The @people, #channels and :emoji: completion (seed 000).
    public private(set) var completion: CompletionController!
    var panelLayout: PanelLayout!
    /// Colours @mentions, #channels and :shortcodes: in the text as you type (seed 002).
    var highlighter: TokenHighlighter!
    var caretToolbar: CaretToolbar?
    var keyboardWatcher: DBusPropertyWatcher?
    var peerDriver: TypingPeerDriver?
    let options: ComposerOptions
    private(set) var pipeline: SettlePipeline!
    let origins = EditOriginTracker()
    var scheduler: SettleScheduler!
    /// Every idle and timeout of this window: cancelled when the window is destroyed.
    let sources = SourceGroup()
    var inputMethod: InputMethodContext?
    var readyAnnounced = false
    /// Whether the emoji index was asked for (it is built on first use).
    private var emojiIndexRequested = false
    /// The edit log's sequence when the input's growth was last measured.
    private var grownAtSequence = Int.min
    var exited = false
    var destroyed = false
    /// Trace events of the IM's reaction to a routed key, held while the router filters it
    /// so that the "key" line comes first, as for every other key.
    var heldDuringFilter: [TraceEvent]?
    let quit: () -> Void

    /// - Parameter quit: ends the app after the exit event (quits the GApplication; tests
    ///   pass their own).
    /// - Parameter data: people, channels and emoji; nil when they are still loading (the
    ///   app installs them with `useData` once read).
    public convenience init(options: ComposerOptions, trace: TraceWriter, directory: Directory = .empty,
                            emoji: [EmojiEntry] = [], quit: @escaping () -> Void) {
        self.init(options: options, trace: trace, data: ComposerData(directory: directory, emoji: emoji), quit: quit)
    }

    public init(options: ComposerOptions, trace: TraceWriter, data: ComposerData?, quit: @escaping () -> Void) {
        model = ComposerModel(text: options.initialText, caret: options.caret)
        limit = options.limit
        self.options = options
        self.trace = trace
        hasData = data != nil
        let data = data ?? .empty
        directory = data.directory
        self.quit = quit
        scheduler = SettleScheduler(sources: sources) { [weak self] in self?.settle() }
        scheduler.settleBeforeEachFrame(of: ui.window)
        limitController = LengthLimitController(limit: limit) { [weak self] in self?.apply($0) }
        overflowController = OverflowController(limit: limit) { [weak self] in self?.apply($0) }
        completion = CompletionController(
            sources: data.completionSources,
            recents: RecentItems(directory: URL(fileURLWithPath: options.profileDirectory)))
        highlighter = makeHighlighter(data)
        pipeline = makePipeline()
        completion.onMissingSource = { [weak self] name in self?.sourceMissing(name, data: data) }

        ui.buffer.replaceAll(with: options.initialText)
        gtk_text_buffer_set_modified(ui.buffer.pointer, 0)
        let caret = model.selection.caret
        ui.buffer.select(anchor: caret, caret: caret)

        observeBuffer()
        observeInputMethod()
        routeKeys()
        observeWindow()
        actions = ComposerActions(window: ui.window, sendButton: ui.sendButton, trimButton: ui.trimButton) {
            [weak self] command in
            switch command {
            case .send: self?.send()
            case .trim: self?.trimToLimit()
            case .quit: self?.exit(reason: .ctrlQ)
            }
        }
        ui.completionList.onActivate = { [weak self] index in self?.acceptCompletion(index) }
        setUpLayout()
        // The first "text" event: the starting state, before focus and "ready".
        settle()
        gtk_widget_grab_focus(ui.textView)
    }

    /// The fixed settle order: limit → overflow → completion → highlighting → trace. The
    /// text reporter copies the whole text per change: only when someone reads it.
    private func makePipeline() -> SettlePipeline {
        SettlePipeline(controllers: [limitController, overflowController, completion, highlighter]
                       + (trace.isEnabled ? [TextChangeReporter()] : []))
    }

    /// Installs people, channels and emoji that were loaded after the window opened: the
    /// next settle completes and highlights what is already typed with them, and "ready"
    /// can be announced.
    public func useData(_ data: ComposerData) {
        guard !destroyed else { return }
        directory = data.directory
        hasData = true
        for source in data.completionSources { completion.add(source) }
        // A new highlighter knows nothing tagged: start it from an untagged buffer.
        for tag in ui.highlightTags.values { ui.buffer.removeTag(tag, from: 0..<ui.buffer.characterCount) }
        highlighter = makeHighlighter(data)
        pipeline = makePipeline()
        completion.onMissingSource = { [weak self] name in self?.sourceMissing(name, data: data) }
        scheduler.request()
        announceReadyIfFocused()
    }

    private func makeHighlighter(_ data: ComposerData) -> TokenHighlighter {
        TokenHighlighter(people: data.directory.people.map(\.name), channels: data.directory.channels.map(\.name),
                           shortcodes: data.emojiShortcodes) { [weak self] in self?.apply($0) }
    }

    /// The first emoji word: the emoji index is built now, off the main thread, and the
    /// word completes at the settle after it arrives (the list opens a moment later).
    private func sourceMissing(_ name: String, data: ComposerData) {
        guard name == CompletionSource.emojiName, !emojiIndexRequested else { return }
        emojiIndexRequested = data.loadEmojiSource { [weak self] handOff in
            guard let self, !destroyed else { return }
            completion.add(handOff.source)
            scheduler.request()
        }
    }

    /// Settles now (tests change the buffer directly and then want the effects).
    public func settleNow() { scheduler.settleNow() }

    /// Whether input has settled: no settle is waiting to run. After the last input event
    /// of a test has been handled, this turns true once its effects (limit, overflow,
    /// completion, highlighting, counter, Send) are applied.
    public var isSettled: Bool { !scheduler.isPending }

    /// Settles run so far.
    public var settleCount: Int { scheduler.settleCount }

    public func present() {
        gtk_window_present(cast(ui.window))
    }

    /// Runs `body` once, after the window's first frame is painted.
    public func afterFirstFrame(_ body: @escaping () -> Void) {
        ui.afterNextFrame(body)
    }

    // MARK: Observing

    private func observeBuffer() {
        let buffer = ui.buffer
        onTextInserted(buffer.pointer, after: true) { [weak self] end, text in
            guard let self else { return }
            // After the default handler the iter points just past the inserted text.
            let length = text.unicodeScalars.count
            model.applyInsert(at: offset(of: end) - length, text: text, origin: origins.current)
            emitLastEdit()
            // The model moved its selection as GTK moves its marks (both right gravity):
            // nothing to read back from the buffer before the settle.
            scheduler.request()
        }
        // Before the default handler, while the removed text can still be read.
        onRangeDeleted(buffer.pointer, after: false) { [weak self] start, end in
            guard let self else { return }
            let range = min(offset(of: start), offset(of: end))..<max(offset(of: start), offset(of: end))
            model.applyDelete(range: range, origin: origins.current)
            emitLastEdit()
        }
        onRangeDeleted(buffer.pointer, after: true) { [weak self] _, _ in self?.textChanged() }
        // A commit or paste is done, and the text view is about to lay the caret's paragraph
        // out for the input method: text typed past the limit gets its colour first.
        onSignal(buffer.pointer, "end-user-action") { [weak self] in
            guard let self, !destroyed else { return }
            overflowController.tagInsertedOverflow(model)
        }
        let insertMark = gtk_text_buffer_get_insert(buffer.pointer)
        let boundMark = gtk_text_buffer_get_selection_bound(buffer.pointer)
        onMarkSet(buffer.pointer) { [weak self] mark in
            guard let self, mark == insertMark || mark == boundMark else { return }
            syncSelection()
            scheduler.request()
        }
        // Undo and redo are buffer signals whose class handler does the work (run-last):
        // a plain handler runs before it, an "after" handler once it is done.
        for (signal, origin) in [("undo", EditOrigin.undo), ("redo", .redo)] {
            onSignal(buffer.pointer, signal) { [weak self] in self?.origins.begin(origin) }
            onSignal(buffer.pointer, signal, after: true) { [weak self] in self?.origins.end(origin) }
        }
        // GTK4 pastes asynchronously: paste-clipboard starts it, paste-done ends it.
        onSignal(ui.textView, "paste-clipboard") { [weak self] in self?.origins.pasteInFlight = true }
        onPointerSignal(buffer.pointer, "paste-done") { [weak self] _ in
            self?.origins.pasteInFlight = false
        }
        observeDrops()
    }

    /// A drop inserts inside the text view's own GtkDropTarget "drop" handler, which stops
    /// the emission; an emission hook sees it first.
    private func observeDrops() {
        guard let target = controller(of: ui.textView, type: gtk_drop_target_get_type()) else { return }
        observeEmissions(of: "drop", definedOn: gtk_drop_target_get_type(), instance: target) { [weak self] _ in
            self?.origins.holdUntilSettle(.drop)
        }
    }

    private func observeInputMethod() {
        guard let context = InputMethodContext(textView: ui.textView) else { return }
        inputMethod = context
        context.observe { [weak self] event in self?.handle(event) }
    }

    private func emit(_ event: TraceEvent) {
        if heldDuringFilter != nil {
            heldDuringFilter!.append(event)
        } else {
            trace.emit(event)
        }
    }

    private func handle(_ event: InputMethodEvent) {
        guard !destroyed else { return }
        switch event {
        case .preeditStart:
            model.preeditStarted()
            emit(.preeditStart)
        case .preeditChanged(let preedit):
            let converted = Preedit(preedit)
            model.preeditChanged(converted)
            emit(.preedit(converted))
        case .preeditEnd:
            model.preeditEnded()
            emit(.preeditEnd)
        case .commitWillInsert(let text):
            emit(.commit(text))
            origins.begin(.imCommit)
        case .commitDidInsert:
            origins.end(.imCommit)
        case .retrieveSurrounding:
            emit(.surroundingRetrieve)
        case .deleteSurrounding(let offset, let count):
            emit(.surroundingDelete(offset: offset, count: count))
            origins.holdUntilSettle(.deleteSurrounding)
        }
        // Composing began or ended: Send and the caret toolbar follow at once, also when a
        // nested loop holds the settle back. Everything else waits for the settle, which
        // runs before the next frame is drawn.
        switch event {
        case .preeditStart, .preeditEnd: refreshControls()
        default: break
        }
        scheduler.request()
    }

    /// The edit the model just recorded, as a trace event.
    private func emitLastEdit() {
        if case .edit(let edit)? = model.log.entries.last { emit(.edit(edit)) }
    }

    private func textChanged() {
        syncSelection()
        scheduler.request()
    }

    private func syncSelection() {
        let selection = ui.buffer.selection
        model.setSelection(anchor: selection.anchor, caret: selection.caret)
    }

    // MARK: Keys

    /// One capture-phase router: the input method sees a routed key first; only a key it
    /// did not consume is ours. Every other key goes untouched to the text view, which
    /// filters it through the IM itself (filtering twice would type it twice).
    private func routeKeys() {
        captureKeyPresses(on: ui.textView) { [weak self] key in
            guard let self else { return false }
            guard !exited else { return true }
            origins.keyPressed()
            guard let command = KeyCommand(keyName: key.name, shift: key.shift,
                                           completionOpen: completion.isOpen) else {
                trace.emit(.key(keyval: key.name, consumed: nil))
                return false
            }
            let wasComposing = model.isComposing
            heldDuringFilter = []
            let consumed = inputMethodConsumes(key, textView: ui.textView)
            let reaction = heldDuringFilter ?? []
            heldDuringFilter = nil
            trace.emit(.key(keyval: key.name, consumed: consumed))
            reaction.forEach(trace.emit)
            // The IM may have run a nested loop in which the app was told to exit.
            guard !exited else { return true }
            switch command.outcome(inputMethodConsumed: consumed, wasComposing: wasComposing) {
            case .inputMethodTookIt, .confirmedComposition: break
            case .perform(.send): send()
            case .perform(.newline): insertNewline()
            case .perform(.completionPrevious): completionChanged(completion.moveSelection(by: -1))
            case .perform(.completionNext): completionChanged(completion.moveSelection(by: 1))
            case .perform(.completionClose): completionChanged(completion.close())
            case .perform(.completionAccept): acceptCompletion(nil)
            }
            return true
        }
    }

    private func insertNewline() {
        guard !exited else { return }
        origins.during(.key) { ui.buffer.insertAtCaret("\n") }
        gtk_text_view_scroll_mark_onscreen(cast(ui.textView), gtk_text_buffer_get_insert(ui.buffer.pointer))
    }

    // MARK: Settle and effects

    /// Brings the model up to date and runs the controllers in their fixed order; their
    /// trace events come before the "text" event of the same settle.
    private func settle() {
        guard !destroyed else { return }
        syncSelection()
        resyncIfDiverged()
        // The input is fitted to the new text before the controllers tag it: the text view
        // has just laid out the caret's paragraph for the input method and still has it; a
        // new tag would make it lay the paragraph out once more.
        fitInputToText()
        let before = model.log.lastSequence
        for event in pipeline.settle(model) { trace.emit(event) }
        if !model.log.edits(after: before).isEmpty { fitInputToText() }  // a limit cut
        origins.settled()
        refreshControls()
        // Once per settle, not per input event, and only when the completion rows or the
        // hint changed: a new input height is seen in the frame's layout phase.
        panelLayout.relayoutIfRegionsChanged()
    }

    /// The input grows with its text in this frame (the cap is measured again only when an
    /// edit could change it).
    private func fitInputToText() {
        if grownAtSequence != Int.min, let editFrom = model.log.edits(after: grownAtSequence).map(\.range.lowerBound).min() {
            ui.fitInputToText(editFrom: editFrom)
        }
        grownAtSequence = model.log.lastSequence
    }

    /// The model mirrors the buffer edit by edit; if they ever disagree (a change we could
    /// not observe), the buffer wins, recorded as a program edit so the log stays whole.
    private func resyncIfDiverged() {
        guard ui.buffer.characterCount != model.document.scalarCount else { return }
        let bufferText = ui.buffer.text
        model.applyDelete(range: 0..<model.document.scalarCount, origin: .program)
        model.applyInsert(at: 0, text: bufferText, origin: .program)
        syncSelection()
    }

    private func refreshControls() {
        guard !destroyed else { return }
        actions.update(canSend: model.canSend(limit: limit), canTrim: model.canTrim(limit: limit))
        ui.show(overflowController.status)
        // The caret toolbar is insensitive while a composition is active.
        for (_, button) in ui.caretButtons { gtk_widget_set_sensitive(button, model.isComposing ? 0 : 1) }
    }

    /// Sends the committed text if the core says so; never while composing.
    public func send() {
        guard !exited, !destroyed else { return }
        scheduler.settleNow()
        let text: String
        switch model.sendDecision(limit: limit) {
        case .send(let message):
            text = message
        case .refuse(.overLimit(let over)):
            ui.showLimitHint(limit.overLimitHint(by: over))
            gtk_widget_error_bell(ui.textView)
            return
        case .refuse:
            gtk_widget_error_bell(ui.textView)
            return
        }
        ui.messageList.append(text)
        trace.emit(.send(text))
        origins.during(.program) { ui.buffer.clearIrreversibly() }
        scheduler.settleNow()
    }

    private func completionChanged(_ events: [TraceEvent]) {
        events.forEach(trace.emit)
        panelLayout.relayout()
    }

    /// Accepts row `index` (default: the selected one): replaces the prefix and query with
    /// the item as one undoable edit of the composer's own, caret after it. The length
    /// limit applies to it like to any insertion.
    public func acceptCompletion(_ index: Int?) {
        guard !exited, !destroyed else { return }
        scheduler.settleNow()
        guard let acceptance = completion.acceptance(of: index, in: model) else { return }
        origins.during(.program) { ui.buffer.replace(acceptance.replaceRange, with: acceptance.text) }
        ui.buffer.select(anchor: acceptance.caretAfter, caret: acceptance.caretAfter)
        // The input method's idea of the surrounding text is stale after our edit.
        gtk_text_view_reset_im_context(cast(ui.textView))
        completionChanged(completion.didAccept(acceptance))
        scheduler.settleNow()
    }

    /// Applies a settle controller's decision to the buffer; the buffer's signals bring
    /// the change back into the model like any edit.
    func apply(_ effect: SettleEffect) {
        guard !destroyed else { return }
        switch effect {
        case let .trim(range, caret):
            origins.during(.program) { ui.buffer.delete(range) }
            ui.buffer.select(anchor: caret, caret: caret)
        case let .overflowTag(add, remove):
            ui.buffer.retag(ui.overflowTag, add: add, remove: remove)
        case let .highlight(kind, add, remove):
            ui.buffer.retag(ui.highlightTags[kind]!, add: add, remove: remove)
        }
    }

    /// "Trim to limit": removes the overflow in one undoable step (never mid-composition).
    public func trimToLimit() {
        guard !exited, !destroyed, !model.isComposing else { return }
        scheduler.settleNow()
        let boundary = model.document.limitBoundary(limit.limit, in: limit.unit)
        guard boundary < model.document.scalarCount else { return }
        origins.during(.program) { ui.buffer.delete(boundary..<model.document.scalarCount) }
        scheduler.settleNow()
    }

    // MARK: Window, focus, exit

    private func observeWindow() {
        observeFocus(of: ui.textView) { [weak self] focused in
            guard let self else { return }
            trace.emit(.focus(in: focused))
            if !focused { scheduler.settleNow() }
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
            // Ctrl+Alt+arrows press the caret toolbar's buttons (Shift extends): the toolbar
            // reachable from a keyboard, e.g. a virtual one that has no arrows but modifiers.
            if key.alt, let direction = CaretDirection(keyName: key.name) {
                pressCaretButton(direction, extend: key.shift)
                return true
            }
            // Ctrl+Q and Ctrl+Shift+T are GTK shortcuts (`ComposerActions`); a key that types
            // no Latin letter in the active layout runs the one of its letter in another.
            if !key.alt, let letter = key.latinLetterInAnotherLayout {
                return actions.activateShortcut(letter: letter, shift: key.shift)
            }
            return false
        }
        onSignal(ui.textView, "realize", after: true) { [weak self] in self?.ui.styleTags() }
        // A dark-style switch or a new theme at run time recolours the tags. The settings
        // outlive the window: the handlers go with it.
        if let settings = gtk_settings_get_default() {
            let handlers = ["gtk-application-prefer-dark-theme", "gtk-theme-name"].map { property in
                onNotify(settings, property: property) { [weak self] in self?.ui.styleTagsAfterNextFrame() }
            }
            onSignal(ui.window, "destroy") {
                for handler in handlers { g_signal_handler_disconnect(settings.rawPointer, handler) }
            }
        }
    }

    /// "ready" once the window is shown and the input has keyboard focus. It is posted to
    /// the main queue: it then comes after the focus event is fully handled, and a session
    /// that reaches "ready" has proven the GLib ↔ libdispatch bridge works.
    private func announceReadyIfFocused() {
        guard !destroyed, hasData, !readyAnnounced, gtk_widget_has_focus(ui.textView) != 0 else { return }
        readyAnnounced = true
        let trace = MainThreadBox(value: trace)
        DispatchQueue.main.async { trace.value.emit(.ready) }
    }

    /// Final settle, the exit event, then quit. Idempotent: closing after Ctrl+Q is one exit.
    public func exit(reason: ExitReason) {
        guard !exited else { return }
        exited = true
        scheduler.settleNow()
        trace.emit(.exit(text: model.text, caret: model.selection.caret,
                         preedit: model.preedit?.text ?? "", reason: reason))
        quit()
    }

    /// Destroys the window (tests create and destroy many).
    /// After this the widgets are gone: every path that touches them checks `destroyed`,
    /// because the IM context (which we hold a reference to) can still emit while the
    /// window tears down.
    public func destroy() {
        guard !destroyed else { return }
        destroyed = true
        gtk_window_destroy(cast(ui.window))
        windowDestroyed()
    }

    /// The window is gone (destroyed by us or closed): no source of ours runs again.
    private func windowDestroyed() {
        destroyed = true
        guard !sources.isCancelled else { return }
        sources.cancelAll()
        peerDriver = nil
        inputMethod = nil
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
