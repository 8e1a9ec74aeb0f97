import CGtk
import ComposerCore
import Dispatch
import Foundation
import GtkBinding

/// The window's side of the composer: it observes the input method, the keys and the
/// buffer, reports each observation to the core's `Composer` as an `InputEvent`, and applies
/// the `Effect`s it returns. It decides nothing: what a key means, when to cut, colour,
/// complete or send is the core's.
public final class ComposerController {
    let ui = ComposerView()
    /// The decisions: a state machine the window feeds and obeys.
    public let composer: Composer
    public var model: ComposerModel { composer.model }
    public var limit: LengthLimit { composer.limit }
    /// The @people, #channels and :emoji: completion (seed 000).
    public var completion: CompletionController { composer.completion }
    public let trace: TraceWriter
    /// People and channels (from `--data`): given at start (tests), or installed once
    /// loaded off the main thread (`useData`).
    public private(set) var directory: WorkspaceDirectory
    /// Whether people, channels and emoji are installed: "ready" waits for them, so that
    /// what is typed after "ready" completes the same way in every run.
    private(set) var hasData: Bool
    /// Send, trim and quit as GActions with their shortcuts.
    private(set) var actions: ComposerActions!
    var panelLayout: PanelLayout!
    var caretToolbar: CaretToolbar?
    var keyboardWatcher: DBusPropertyWatcher?
    var peerDriver: TypingPeerDriver?
    let options: ComposerOptions
    var scheduler: SettleScheduler!
    /// Every idle and timeout of this window: cancelled when the window is destroyed.
    let sources = SourceGroup()
    var inputMethod: InputMethodContext?
    var readyAnnounced = false
    /// Whether the emoji index was asked for (it is built on first use).
    private var emojiIndexRequested = false
    /// The edit log's sequence when the input's growth was last measured.
    private var grownAtSequence = Int.min
    var destroyed = false
    /// While the window applies the composer's own edit or selection: the buffer's signals
    /// report what the composer already did, and are not reported back. (A selection only
    /// silences "mark-set": GTK resets the input method when the caret is set, and what the
    /// input method does then is news.)
    private var applyingOwnEdit = false
    private var applyingOwnSelection = false
    /// While the window runs a settle: a settle asked for by its effects is this one.
    private var settling = false
    let quit: () -> Void

    /// - Parameter quit: ends the app after the exit event (quits the GApplication; tests
    ///   pass their own).
    /// - Parameter data: people, channels and emoji; nil when they are still loading (the
    ///   app installs them with `useData` once read).
    public convenience init(options: ComposerOptions, trace: TraceWriter, directory: WorkspaceDirectory = .empty,
                            emoji: [EmojiEntry] = [], quit: @escaping () -> Void) {
        self.init(options: options, trace: trace, data: ComposerData(directory: directory, emoji: emoji), quit: quit)
    }

    public init(options: ComposerOptions, trace: TraceWriter, data: ComposerData?, quit: @escaping () -> Void) {
        self.options = options
        self.trace = trace
        hasData = data != nil
        let data = data ?? .empty
        directory = data.directory
        self.quit = quit
        let completion = CompletionController(
            sources: data.completionSources,
            recents: RecentItems(directory: URL(fileURLWithPath: options.profileDirectory)))
        composer = Composer(text: options.initialText, caret: options.caret, limit: options.limit,
                            completion: completion, tokens: data.tokens, traces: trace.isEnabled)
        scheduler = SettleScheduler(sources: sources) { [weak self] in self?.settle() }
        scheduler.settleBeforeEachFrame(of: ui.window)
        completion.onMissingSource = { [weak self] name in self?.sourceMissing(name, data: data) }

        ui.buffer.replaceAll(with: options.initialText)
        gtk_text_buffer_set_modified(ui.buffer.pointer, 0)
        let caret = model.selection.caret
        ui.buffer.select(anchor: caret, caret: caret)

        observeBuffer()
        observeInputMethod()
        routeKeys()
        observeWindow()
        actions = ComposerActions(window: ui.window, sendButton: ui.sendButton, trimButton: ui.trimButton,
                                  caretButtons: ui.caretButtons.map(\.1)) { [weak self] command in
            switch command {
            case .send: self?.send()
            case .trim: self?.trimToLimit()
            case .quit: self?.exit(reason: .ctrlQ)
            }
        } moveCaret: { [weak self] direction, extend in
            self?.pressCaretButton(direction, extend: extend)
        }
        ui.completionList.onActivate = { [weak self] index in self?.acceptCompletion(index) }
        setUpLayout()
        // The first "text" event: the starting state, before focus and "ready".
        settle()
        gtk_widget_grab_focus(ui.textView)
    }

    /// Installs people, channels and emoji that were loaded after the window opened: the
    /// next settle completes and highlights what is already typed with them, and "ready"
    /// can be announced.
    public func useData(_ data: ComposerData) {
        guard !destroyed else { return }
        directory = data.directory
        hasData = true
        completion.onMissingSource = { [weak self] name in self?.sourceMissing(name, data: data) }
        apply(composer.install(tokens: data.tokens, sources: data.completionSources))
        announceReadyIfFocused()
    }

    /// The first emoji word: the emoji index is built now, off the main thread, and the
    /// word completes at the settle after it arrives (the list opens a moment later).
    private func sourceMissing(_ name: String, data: ComposerData) {
        guard name == CompletionSource.emojiName, !emojiIndexRequested else { return }
        emojiIndexRequested = data.loadEmojiSource { [weak self] handOff in
            guard let self, !destroyed else { return }
            apply(composer.add(handOff.source))
        }
    }

    /// Settles now (tests change the buffer directly and then want the effects).
    public func settleNow() { scheduler.settleNow() }

    /// Whether input has settled: no settle is waiting to run. After the last input event
    /// of a test has been handled, this turns true once its effects (limit, overflow,
    /// completion, highlighting, counter, Send) are applied.
    public var isSettled: Bool { !scheduler.isPending }

    /// Settles run so far.
    public var settleCount: Int { composer.settleCount }

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
            guard let self, !applyingOwnEdit else { return }
            // After the default handler the iter points just past the inserted text.
            forward(.inserted(offset: offset(of: end) - text.unicodeScalars.count, text: text))
        }
        // Before the default handler, while the removed text can still be read. The model
        // moves its selection as GTK moves its marks: nothing to read back afterwards.
        onRangeDeleted(buffer.pointer, after: false) { [weak self] start, end in
            guard let self, !applyingOwnEdit else { return }
            forward(.deleted(min(offset(of: start), offset(of: end))..<max(offset(of: start), offset(of: end))))
        }
        // A commit or paste is done, and the text view is about to lay the caret's paragraph
        // out for the input method: text typed past the limit gets its colour first.
        onSignal(buffer.pointer, "end-user-action") { [weak self] in
            guard let self, !applyingOwnEdit else { return }
            forward(.userActionEnded)
        }
        let insertMark = gtk_text_buffer_get_insert(buffer.pointer)
        let boundMark = gtk_text_buffer_get_selection_bound(buffer.pointer)
        onMarkSet(buffer.pointer) { [weak self] mark in
            guard let self, !applyingOwnEdit, !applyingOwnSelection,
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

    private func observeInputMethod() {
        guard let context = InputMethodContext(textView: ui.textView) else { return }
        inputMethod = context
        context.observe { [weak self] event in
            switch event {
            case .preeditStart: self?.forward(.preeditStarted)
            case .preeditChanged(let preedit): self?.forward(.preeditChanged(Preedit(preedit)))
            case .preeditEnd: self?.forward(.preeditEnded)
            case .commitWillInsert(let text): self?.forward(.commitStarted(text))
            case .commitDidInsert: self?.forward(.commitEnded)
            case .retrieveSurrounding: self?.forward(.surroundingRetrieved)
            case let .deleteSurrounding(offset, count): self?.forward(.surroundingDeleted(offset: offset, count: count))
            }
        }
    }

    private func forwardSelection() {
        let selection = ui.buffer.selection
        forward(.selectionChanged(anchor: selection.anchor, caret: selection.caret))
    }

    // MARK: Keys

    /// One capture-phase router: the input method sees a routed key first; only a key it
    /// did not consume is ours. Every other key goes untouched to the text view, which
    /// filters it through the IM itself (filtering twice would type it twice).
    private func routeKeys() {
        captureKeyPresses(on: ui.textView) { [weak self] key in
            guard let self else { return false }
            guard !composer.exited else { return true }
            let name = key.name, shift = key.shift
            let routed = composer.routes(keyName: name, shift: shift)
            forward(.keyPressed(name: name, shift: shift))
            guard routed else { return false }
            let consumed = inputMethodConsumes(key, textView: ui.textView)
            forward(.keyFiltered(name: name, shift: shift, consumedByInputMethod: consumed))
            return true
        }
    }

    // MARK: Settle and effects

    /// Reports `event` to the composer and applies what it decides.
    private func forward(_ event: InputEvent) {
        guard !destroyed else { return }
        apply(composer.handle(event))
    }

    /// Brings the composer up to date should the buffer ever hold text it could not see
    /// change, then settles.
    ///
    /// The selection is not read back: GTK reports every move of the caret it makes ("mark-set"),
    /// and the marks it moves with an edit move as the model's do (right gravity). Debug
    /// builds (the tests) check that on every settle.
    private func settle() {
        guard !destroyed else { return }
        settling = true
        defer { settling = false }
        if ui.buffer.characterCount != model.document.scalarCount {
            forward(.bufferDiverged(text: ui.buffer.text))
            forwardSelection()
        }
        assert(ui.buffer.selection == (model.selection.anchor, model.selection.caret),
               "the model's selection \(model.selection) is not the buffer's \(ui.buffer.selection)")
        // The input is fitted to the new text before the controllers tag it: the text view
        // has just laid out the caret's paragraph for the input method and still has it; a
        // new tag would make it lay the paragraph out once more.
        fitInputToText()
        let before = model.log.lastSequence
        forward(.settle)
        if !model.log.edits(after: before).isEmpty { fitInputToText() }  // a limit cut
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

    /// Applies the composer's effects, in order.
    private func apply(_ effects: [Effect]) {
        for effect in effects {
            guard !destroyed else { return }
            switch effect {
            case let .edit(range, text):
                applyingOwnEdit { ui.buffer.replace(range, with: text) }
            case .clear:
                applyingOwnEdit { ui.buffer.clearIrreversibly() }
            case let .select(anchor, caret):
                applyingOwnSelection = true
                ui.buffer.select(anchor: anchor, caret: caret)
                applyingOwnSelection = false
            case .tag(.overflowTag(let add, let remove)):
                ui.buffer.retag(ui.overflowTag, add: add, remove: remove)
            case let .tag(.highlight(kind, add, remove)):
                ui.buffer.retag(ui.highlightTags[kind]!, add: add, remove: remove)
            case .tag(.trim):
                break  // the composer hands cuts on as edits
            case .trace(let event):
                trace.emit(event)
            case .showStatus(let status):
                ui.show(status)
            case let .controls(canSend, canTrim, composing):
                actions.update(canSend: canSend, canTrim: canTrim, canMoveCaret: !composing)
            case .completionChanged:
                panelLayout.relayout()
            case .showLimitHint(let text):
                ui.showLimitHint(text)
            case .bell:
                gtk_widget_error_bell(ui.textView)
            case .sent(let text):
                ui.messageList.append(text)
            case .resetInputMethod:
                gtk_text_view_reset_im_context(cast(ui.textView))
            case .scrollToCaret:
                gtk_text_view_scroll_mark_onscreen(cast(ui.textView), gtk_text_buffer_get_insert(ui.buffer.pointer))
            case .requestSettle:
                if !settling { scheduler.request() }
            case .quit:
                quit()
            }
        }
    }

    private func applyingOwnEdit(_ body: () -> Void) {
        applyingOwnEdit = true
        defer { applyingOwnEdit = false }
        body()
    }

    /// Sends the committed text if the core says so; never while composing.
    public func send() { forward(.send) }

    /// Accepts row `index` (default: the selected one) of the completion list.
    public func acceptCompletion(_ index: Int?) { forward(.acceptCompletion(index: index)) }

    /// "Trim to limit": removes the overflow in one undoable step (never mid-composition).
    public func trimToLimit() { forward(.trim) }

    // MARK: Window, focus, exit

    private func observeWindow() {
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
        if destroyed {
            // The window is gone: the composer still settles and reports its exit.
            trace(composer.handle(.exit(reason)))
            return
        }
        forward(.exit(reason))
    }

    /// Applies only the trace of `effects` (the window is gone), and quits if asked.
    private func trace(_ effects: [Effect]) {
        for effect in effects {
            if case .trace(let event) = effect { trace.emit(event) }
            if case .quit = effect { quit() }
        }
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
