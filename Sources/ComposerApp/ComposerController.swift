import CGtk
import ComposerCore
import ComposerStore
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
    /// The @people, #channels and :emoji: completion (the core's `CompletionList`).
    public var completion: CompletionList { composer.completion }
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
    /// The IM context, its module and its daemon (`InputMethodObserver`).
    private(set) var inputMethod: InputMethodObserver!
    /// Where the caret is told to the input method (while the inspector is shown, or
    /// `--trace-placement`), and the inspector's overlay of it.
    private(set) var placement: CandidatePlacementWatcher?
    var placementOverlay: PlacementOverlay?
    /// The counter in words for screen readers, once typing pauses.
    private(set) lazy var counterSpeech = CounterSpeech(sources: sources) { [weak self] status in
        self?.ui.limitIndicators.speakCounter(status)
    }
    var readyAnnounced = false
    /// The IME inspector (`IMEInspector`).
    private(set) var inspector: IMEInspector!
    /// Keeps the draft and the sent messages in the profile (nil: nothing is kept, as in most
    /// in-process tests).
    var draftKeeper: DraftKeeper?
    /// Asks the session not to log out (true) while a save is pending; the app sets it
    /// (GtkApplication's inhibit API).
    public var inhibitLogout: (Bool) -> Void = { _ in }
    var destroyed = false
    /// The idle that reports what the input shows (`observeShownText`), while one is due.
    var shownTextReport: UInt32?
    /// Tells the buffer's signals that echo the composer's own edits from news.
    let ownChanges = OwnChanges()
    let quit: () -> Void

    /// - Parameter quit: ends the app after the exit event (quits the GApplication; tests
    ///   pass their own).
    /// - Parameter data: people, channels and emoji; nil when they are still loading (the
    ///   app installs them with `useData` once read).
    public convenience init(options: ComposerOptions, trace: TraceWriter, directory: WorkspaceDirectory = .empty,
                            emoji: [EmojiEntry] = [], profile: ProfileOpening? = nil, quit: @escaping () -> Void) {
        self.init(options: options, trace: trace, data: ComposerData(directory: directory, emoji: emoji),
                  profile: profile, quit: quit)
    }

    /// - Parameter profile: the profile's store, opened before the window (its draft is
    ///   `options.initialText` already): the draft and the sent messages are kept there.
    public init(options: ComposerOptions, trace: TraceWriter, data: ComposerData?, profile: ProfileOpening? = nil,
                quit: @escaping () -> Void) {
        self.options = options
        self.trace = trace
        hasData = data != nil
        let data = data ?? .empty
        directory = data.directory
        self.quit = quit
        // While the data loads there are no sources (not empty ones): a word's source is
        // then missing, and an Enter on it waits for the data (`Composer.holdEnterForData`).
        let completion = CompletionList(
            sources: hasData ? data.completionSources : [],
            recents: RecentItems(directory: URL(fileURLWithPath: options.profileDirectory)))
        composer = Composer(text: options.initialText, caret: options.caret, limit: options.limit,
                            completion: completion, tokens: data.tokens, traces: trace.isEnabled,
                            tracesFrames: options.tracesFrames, awaitingData: !hasData,
                            keepsRecentEvents: true)
        scheduler = SettleScheduler(sources: sources) { [weak self] in self?.settle() }
        // With a trace the inspector's log follows the session from its start.
        inspector = IMEInspector(ui: ui, sources: sources, start: trace.isEnabled ? Self.startEvent(options) : nil,
                                 elapsedMilliseconds: { [weak self] in self?.trace.elapsedMilliseconds ?? 0 },
                                 requestTracing: { [weak self] in
                                     guard let self else { return }
                                     apply(composer.requestTracing())
                                 },
                                 tracesFrames: { [weak self] on in
                                     self?.composer.tracesFrames(on || options.tracesFrames)
                                     self?.placement?.turn(on: on || options.tracesPlacement)
                                 },
                                 placementOverlay: { [weak self] on in self?.showPlacementOverlay(on) },
                                 labDirectory: options.dataDirectory.isEmpty ? nil : options.dataDirectory + "/lab/engines")
        scheduler.settleBeforeEachFrame(of: ui.window)

        ui.buffer.replaceAll(with: options.initialText)
        ui.inputSizer.prefit(draft: options.initialText)
        gtk_text_buffer_set_modified(ui.buffer.pointer, 0)
        let caret = model.selection.caret
        ui.buffer.select(anchor: caret, caret: caret)
        if StartAtEnd.follows(draftScalars: model.document.scalarCount, caret: caret) { ui.inputSizer.followEndUntilInput() }

        observeBuffer()
        observeShownText()
        inputMethod = InputMethodObserver(textView: ui.textView) { [weak self] event in self?.forward(event) }
        Self.tell(ui.textView, inputMethod: inputMethod, options.inputMethodFacing)
        placement = CandidatePlacementWatcher(textView: ui.textView, context: inputMethod.contextPointer, sources: sources,
                                              moduleID: { [weak self] in self?.inputMethod.moduleID }) { [weak self] reading in
            self?.forward(.placementObserved(reading))
        }
        placement?.turn(on: options.tracesPlacement)
        observePointerPresses()
        routeKeys()
        observeWindow()
        actions = ComposerActions(window: ui.window, sendButton: ui.sendButton, trimButton: ui.limitIndicators.trimButton,
                                  caretButtons: ui.caretButtons,
                                  toggles: [.inspector: ui.inspectorToggle, .caretToolbar: ui.toolbarToggle,
                                            .simulatedKeyboard: ui.keyboardToggle]) { [weak self] command in
            switch command {
            case .send: self?.send()
            case .trim: self?.trimToLimit()
            case .quit: self?.exit(reason: .ctrlQ)
            }
        } moveCaret: { [weak self] direction, extend in
            self?.pressCaretButton(direction, extend: extend)
        } completion: { [weak self] event in
            self?.forward(event)
        } toggleRequested: { [weak self] toggle, on in
            self?.toggleRequested(toggle, on)
        } copyReport: { [weak self] in
            self?.copyBugReport()
        } checklist: { [weak self] in
            self?.toggleChecklist()
        }
        ui.completionList.onActivate = { [weak self] index in self?.acceptCompletion(index) }
        if let profile { keep(profile) }
        setUpLayout()
        // The first "text" event: the starting state, before focus and "ready".
        scheduler.settleNow()
    }

    /// Installs people, channels and emoji that were loaded after the window opened: the
    /// composer completes and highlights what is already typed with them at the next settle
    /// (a list for a word typed before they came opens then) and decides an Enter that
    /// waited for them; "ready" can be announced.
    public func useData(_ data: ComposerData) {
        guard !destroyed else { return }
        directory = data.directory
        hasData = true
        forward(.dataArrived(CompletionData(tokens: data.tokens, sources: data.completionSources)))
        announceReadyIfFocused()
    }

    /// Once the first frame is painted, runs `load` on a thread of its own and installs
    /// what it returns (`useData`). People, channels and the emoji index take long enough to
    /// read and index (100,000 people: the better part of a second) that they must not delay
    /// the first frame; on two cores a loader running beside start-up slowed it by a fifth.
    /// The app loads `--data`; tests pass a loader they hold back.
    ///
    /// Once the data is in use, a thread of its own gives the system back the memory that
    /// reading and installing it freed (`FreedMemory`): 7 MB with the emoji.
    public func loadDataAfterFirstFrame(_ load: @escaping @Sendable () -> ComposerData) {
        afterFirstFrame { [weak self] in
            MainLoop.offMainThread(load) { data in
                self?.useData(data)
                FreedMemory.giveBackOffMainThread()
            }
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

    /// Shows the window, then gives the input the focus. Not before: GTK 4.8 focuses the
    /// view's input method context even in a window not yet realized, which creates an
    /// input method delegate with no client widget; realizing the view then replaces it,
    /// and IBus's orphaned delegate, focused, later asks for surrounding text no one answers
    /// ("… has no capability of surrounding-text feature", and surrounding text turned off
    /// for engines that need it, ibus-m17n and ibus-unikey; seen in 3 of 25 start-ups).
    public func present() {
        gtk_window_present(cast(ui.window))
        gtk_widget_grab_focus(ui.textView)
    }

    /// Runs `body` once, after the window's first frame is painted.
    public func afterFirstFrame(_ body: @escaping () -> Void) {
        ui.afterNextFrame(body)
    }

    // MARK: Events and settle

    /// What the window learned about the on-screen keyboard, for the composer.
    func observe(_ observation: KeyboardObservation) { forward(.keyboardObserved(observation)) }

    /// A new panel layout, for the composer (the trace).
    func observe(_ layout: Layout) { forward(.laidOut(layout)) }

    /// Reports `event` to the composer and applies what it decides.
    func forward(_ event: InputEvent) {
        guard !destroyed else { return }
        if ui.inputSizer.followsEnd, StartAtEnd.endsFollowing(event) { ui.inputSizer.stopFollowingEnd() }
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
        if ui.buffer.characterCount != model.document.scalarCount {
            forward(.bufferDiverged(text: ui.buffer.text))
            forwardSelection()
        }
        assert(ui.buffer.selection == (model.selection.anchor, model.selection.caret),
               "the model's selection \(model.selection) is not the buffer's \(ui.buffer.selection)")
        // The input is fitted to the new text before the controllers tag it: the text view
        // has just laid out the caret's paragraph for the input method and still has it; a
        // new tag would make it lay the paragraph out once more.
        ui.inputSizer.fit(after: model.log)
        let before = model.log.lastSequence
        forward(.settle)
        if !model.log.edits(after: before).isEmpty { ui.inputSizer.fit(after: model.log) }  // a limit cut
        draftKeeper?.settled(model)
        // Once per settle, not per input event, and only when the completion rows or the
        // hint changed: a new input height is seen in the frame's layout phase.
        panelLayout.relayoutIfRegionsChanged()
    }

    /// Sends the committed text if the core says so; never while composing.
    public func send() { forward(.send) }

    /// Accepts row `index` (default: the selected one) of the completion list.
    public func acceptCompletion(_ index: Int?) { forward(.acceptCompletion(index: index)) }

    /// "Trim to limit": removes the overflow in one undoable step (never mid-composition).
    public func trimToLimit() { forward(.trim) }

    // MARK: Window, focus, exit

    /// "ready" once the window is shown and the input has keyboard focus. It is posted to
    /// the main queue: it then comes after the focus event is fully handled, and a session
    /// that reaches "ready" has proven the GLib ↔ libdispatch bridge works.
    func announceReadyIfFocused() {
        guard !destroyed, hasData, !readyAnnounced, gtk_widget_has_focus(ui.textView) != 0 else { return }
        readyAnnounced = true
        let controller = MainThreadBox(value: self)
        DispatchQueue.main.async { controller.value.forward(.ready) }
    }

    /// Final settle, the exit event, then quit. Idempotent: closing after Ctrl+Q is one exit.
    public func exit(reason: ExitReason) {
        if destroyed {
            // The window is gone: the composer still settles and reports its exit.
            applyTraceOnly(composer.handle(.exit(reason)))
            return
        }
        forward(.exit(reason))
    }

    /// Applies only the trace of `effects` (the window is gone), and quits if asked.
    private func applyTraceOnly(_ effects: [Effect]) {
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
    func windowDestroyed() {
        destroyed = true
        guard !sources.isCancelled else { return }
        draftKeeper?.flush(model)
        sources.cancelAll()
        peerDriver = nil
        placement?.turn(on: false)
        inputMethod.stop()
    }
}
