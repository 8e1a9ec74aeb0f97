/// The composer's decisions as a state machine: `handle(InputEvent) -> [Effect]`.
///
/// The window observes the input method, the keys and the buffer and reports what it saw;
/// the composer updates its model and returns what the window must do, in order. A test or
/// a recorded transcript drives it the same way, without a display.
///
/// Its own edits (a limit cut, an accepted completion, a newline, clearing after a send)
/// are made in the model first and then handed to the window as `.edit` effects, which the
/// window applies without reporting them back: data flows one way, and a settle never
/// re-enters itself through the buffer's signals. A settle runs in phases: text edits first
/// (the hard limit's cuts), then decorations (overflow, completion, highlighting) and the
/// trace, all on the text as the edits left it.
public final class Composer {
    public let model: ComposerModel
    /// The one limit: the settle steps, the commands and the counter read it here.
    public let limit: LengthLimit
    /// The @people, #channels and :emoji: completion (`CompletionList`).
    public let completion: CompletionList
    /// Colours @mentions, #channels and :shortcodes: as they are typed (at settles only).
    public private(set) var highlighter: TokenHighlighter
    /// What the input showed when the window last said (`InputEvent.shownTextChanged`), and
    /// the edit log's sequence then: a highlighter made later starts from it.
    private var shownText: (range: Range<Int>, sequence: Int)?
    public let overflow: OverflowColoring
    /// Marks invisible and bidirectional controls (`InvisibleControls`).
    public let controlMarking = InvisibleControlMarking()
    private let limitCutter: LimitCutter
    /// The trace's "text" reporter, kept when the highlighter is replaced: the same text is
    /// not reported twice.
    private var textReporter: TextChangeReporter?
    /// Whether the trace is on (`init(traces:)`, `startTracing`): every event, the text too.
    public private(set) var traces: Bool
    /// `init(keepsRecentEvents:)`: without the trace, the input method's and the user's
    /// events are still reported (`TraceEvent.isKeptBeforeTheTrace`) for the inspector's
    /// history before it opened (`RecentEvents`).
    public let keepsRecentEvents: Bool
    /// `init(tracesFrames:)`: when the first frame after input was painted (`paint`).
    private var frames: FramePaintTracing
    /// The last placement traced: a reading that changed nothing is not traced again.
    private var lastPlacement: CandidatePlacement?
    private var pipeline: SettlePipeline
    private let origins = EditOrigins()
    /// The on-screen keyboard, learned from the window's observations.
    private var keyboard = KeyboardState()
    /// The simulated keyboard, once the window offers one.
    public private(set) var simulatedKeyboard: SimulatedKeyboard?

    /// The effects of the event being handled (or last handled).
    var effects: [Effect] = []
    private var handling = false
    private var settling = false
    /// A routed key between its press and the input method's verdict (`KeyRouting`).
    private var routing = KeyRouting()
    /// The composition the input method last drew, while nothing on the composer's side
    /// would explain its end (`AbandonedComposition`).
    private var abandoned = AbandonedComposition()
    public internal(set) var exited = false
    /// The last message sent (this session, or before it: `historyRestored`): Up in an
    /// empty input edits it.
    public internal(set) var lastSent: String?
    /// Whether the input holds the last sent message being edited: Send replaces it.
    public internal(set) var isEditingLastSent = false
    /// Settles run so far.
    public private(set) var settleCount = 0
    /// Whether the people, channels and emoji are still loading (`init(awaitingData:)`):
    /// until `dataArrived`, an Enter that would complete a word waits for them.
    public private(set) var awaitingData: Bool
    /// An Enter that waits for the data, with the text and selection it was pressed on
    /// (`holdEnterForData`).
    var heldEnter: (editSequence: Int, selection: TextSelection)?
    /// The GTK input-method module in use, once the window has told it.
    private var inputMethodModule: InputMethodModule?
    /// Whether the trace was asked for mid-session (`requestTracing`).
    private var tracingRequested = false
    /// The last controls and status handed on: the same again is not news.
    private var shownControls: Effect?
    private var shownStatus: LimitStatus?

    /// - Parameters:
    ///   - tokens: the names the highlighter knows (people, channels, shortcodes).
    ///   - traces: whether anyone reads the trace: without, no `.trace` effect is made (and
    ///     no "text" event, which copies the whole text), so typing costs less.
    ///   - awaitingData: the completion sources are still loading and arrive as
    ///     `dataArrived` (the app loads them after the first frame).
    ///   - keepsRecentEvents: without `traces`, `.trace` effects are still made for the
    ///     input method's and the user's events (the window keeps the last few thousand).
    public init(text: String = "", caret: Int? = nil, limit: LengthLimit = LengthLimit(),
                completion: CompletionList = CompletionList(sources: []),
                tokens: TokenNames = TokenNames(), traces: Bool = true, tracesFrames: Bool = false,
                awaitingData: Bool = false, keepsRecentEvents: Bool = false) {
        model = ComposerModel(text: text, caret: caret)
        self.limit = limit
        self.completion = completion
        self.traces = traces
        self.keepsRecentEvents = keepsRecentEvents
        frames = FramePaintTracing(enabled: tracesFrames)
        self.awaitingData = awaitingData
        textReporter = traces ? TextChangeReporter() : nil
        limitCutter = LimitCutter(limit: limit)
        overflow = OverflowColoring(limit: limit)
        highlighter = Self.makeHighlighter(tokens)
        pipeline = SettlePipeline(steps: [])
        pipeline = makePipeline()
    }

    /// Whether the window should route this key (filter it through the input method
    /// itself and report `keyFiltered`): the keys that send, break the line or work the
    /// completion list. Every other key is the text view's.
    public func routes(keyName: String, shift: Bool) -> Bool {
        keyCommand(keyName, shift: shift) != nil
    }

    /// What `keyName` means now, if the composer routes it.
    private func keyCommand(_ keyName: String, shift: Bool) -> KeyCommand? {
        KeyCommand(keyName: keyName, shift: shift, completionOpen: completion.isOpen,
                   canEditLastSent: lastSent != nil && model.document.isEmpty && !isEditingLastSent,
                   editingLastSent: isEditingLastSent)
    }

    /// Handles one input event and returns what the window must do, in order. Never called
    /// from inside itself: the window applies the effects after it returns.
    public func handle(_ event: InputEvent) -> [Effect] {
        precondition(!handling, "Composer.handle re-entered: the window must apply effects after it returns")
        handling = true
        defer { handling = false }
        // One buffer for every event: the window has let go of the last result by now, so
        // emptying it keeps its storage (typing makes no array per event).
        effects.removeAll(keepingCapacity: true)
        dispatch(event)
        return effects
    }

    /// Traces painted frames from now on, or stops (the inspector times each key's frame
    /// while it is shown; `--trace-frames` for the whole session).
    public func tracesFrames(_ on: Bool) {
        frames = FramePaintTracing(enabled: on)
    }

    /// Asks for the trace mid-session (the inspector opened without `--trace`). It starts
    /// after the next settle with no composition, when nothing typed is waiting for a
    /// decision: a transcript from there replays like one from the start. The window gets
    /// `.tracingStarted`, then the lines the transcript begins with (`startTracing`).
    public func requestTracing() -> [Effect] {
        guard !traces, !tracingRequested else { return [] }
        tracingRequested = true
        return [.requestSettle]
    }

    /// Starts the trace if it was asked for and input is quiet (the end of a settle).
    private func startTracingIfRequested() {
        guard tracingRequested, model.preedit == nil else { return }
        tracingRequested = false
        effects.append(.tracingStarted)
        for event in startTracing() { trace(event) }
    }

    /// Turns the trace on and returns the lines a transcript starting now begins with: the
    /// data completion has, then what a first settle reports — the overflow, the list (as a
    /// new one opens on this text, then closed or moved as this one is), the text.
    func startTracing() -> [TraceEvent] {
        guard !traces else { return [] }
        traces = true
        let reporter = TextChangeReporter()
        textReporter = reporter
        pipeline = makePipeline()
        let sources = completion.orderedSources
        var events: [TraceEvent] = [
            .data(TracedData(sources: sources.map { ($0.name, $0.count) }, recents: completion.recents.lists)),
        ]
        events.append(.settle)
        if let overflowEvent = overflow.lastReported { events.append(overflowEvent) }
        let list = completion.replayPrefix(on: model)
        events += list.settle
        events.append(reporter.prime(model))
        return events + list.after
    }

    /// New people, channels and emoji (loaded after the window opened): the next settle
    /// completes and highlights what is already typed with them — a word typed before they
    /// came opens its list then — and decides an Enter that waited for them.
    private func dataArrived(_ data: CompletionData) {
        awaitingData = false
        for source in data.sources { completion.add(source) }
        if let tokens = data.tokens {
            // A new highlighter knows nothing tagged: start it from an untagged buffer.
            let all = 0..<model.document.scalarCount
            for kind in HighlightKind.allCases { effects.append(.tag(.highlight(kind: kind, add: [], remove: [all]))) }
            highlighter = Self.makeHighlighter(tokens)
            if let shownText { _ = highlighter.show(shownText.range, asOf: shownText.sequence) }
            pipeline = makePipeline()
        }
        trace(.data(TracedData(sources: data.sources.map { ($0.name, $0.count) },
                               recents: completion.recents.lists)))
        effects.append(.requestSettle)
    }

    // MARK: Events

    private func dispatch(_ event: InputEvent) {
        switch event {
        case .preeditStarted:
            routing.inputMethodDidAct()
            model.preeditStarted()
            trace(.preeditStart)
            // Send and the caret toolbar follow composing at once, also when a nested loop
            // holds the settle back.
            showControls()
            effects.append(.requestSettle)
        case .preeditChanged(let preedit):
            routing.inputMethodDidAct()
            let wasComposing = model.preedit != nil
            model.preeditChanged(preedit)
            trace(.preedit(preedit))
            if let shown = model.preedit, !shown.text.isEmpty { abandoned.drawn(shown.text) }
            // An emptied preedit can end the composition without a preedit-end.
            if wasComposing, model.preedit == nil {
                routing.compositionEnded()
                abandoned.ended()
                showControls()
            }
            effects.append(.requestSettle)
        case .preeditEnded:
            routing.inputMethodDidAct()
            if model.preedit != nil {
                routing.compositionEnded()
                abandoned.ended()
            }
            model.preeditEnded()
            trace(.preeditEnd)
            showControls()
            effects.append(.requestSettle)
        case .commitStarted(let text):
            routing.inputMethodDidAct()
            abandoned.committed(text)
            trace(.commit(text))
            origins.begin(.imCommit)
            effects.append(.requestSettle)
        case .commitEnded:
            origins.end(.imCommit)
            effects.append(.requestSettle)
        case .surroundingRetrieved:
            trace(.surroundingRetrieve)
            effects.append(.requestSettle)
        case let .surroundingDeleted(offset, count):
            routing.inputMethodDidAct()
            trace(.surroundingDelete(offset: offset, count: count))
            origins.holdUntilSettle(.deleteSurrounding)
            effects.append(.requestSettle)
        case let .keyPressed(name, shift, forwarded):
            keyPressed(name: name, shift: shift, forwarded: forwarded)
        case let .keyFiltered(name, shift, consumed):
            keyFiltered(name: name, shift: shift, consumed: consumed)
        case let .inserted(offset, text):
            traceEdit { model.applyInsert(at: offset, text: text, origin: origins.current) }
            effects.append(.requestSettle)
        case .deleted(let range):
            traceEdit { model.applyDelete(range: range, origin: origins.current) }
            effects.append(.requestSettle)
        case .userActionEnded:
            if let tag = overflow.tagInsertedOverflow(model)?.tag { effects.append(.tag(tag)) }
        case .historyStarted(let origin):
            origins.begin(origin)
        case .historyEnded(let origin):
            origins.end(origin)
        case .pasteStarted:
            origins.pasteInFlight = true
        case .pasteEnded:
            origins.pasteInFlight = false
        case let .pointerPressedAt(x, y, resetFirst):
            trace(.press(x: x, y: y, imResetFirst: resetFirst))
            pointerPressed(inputMethodResetFirst: resetFirst)
        case .pointerPressed:
            pointerPressed(inputMethodResetFirst: false)
        case .dropped:
            origins.holdUntilSettle(.drop)
        case let .selectionChanged(anchor, caret):
            guard TextSelection(anchor: anchor, caret: caret) != model.selection else { return }
            model.setSelection(anchor: anchor, caret: caret)
            trace(.selection(anchor: anchor, caret: caret))
            effects.append(.requestSettle)
        case .bufferDiverged(let text):
            trace(.diverged(text: text))
            model.applyDelete(range: 0..<model.document.scalarCount, origin: .program)
            model.applyInsert(at: 0, text: text, origin: .program)
            effects.append(.requestSettle)
        case .inputMethodLost(let name):
            trace(.inputMethodLost(name: name))
            // What the input method showed was never committed, and nothing the user did
            // ended it: it is what they typed, so it becomes text where it was drawn.
            // Either the module still draws it (fcitx5's keeps it forever) or it ended it
            // itself as its connection closed (IBus's: before or after the name left the
            // bus, whichever the main loop saw first).
            let drawn = model.preedit.map(\.text) ?? abandoned.unexplainedEnd
            abandoned.explained()
            if model.preedit != nil {
                model.preeditEnded()
                showControls()
            }
            guard let drawn, !drawn.isEmpty else { return }
            effects.append(.keepAbandonedComposition(drawn: drawn))
            effects.append(.requestSettle)
        case .inputMethodModuleChanged(let module):
            inputMethodModule = module
        case .focusChanged(let focused):
            trace(.focus(in: focused))
            abandoned.explained()
            if var simulated = simulatedKeyboard {
                simulated.focusChanged(focused)
                updateSimulatedKeyboard(simulated)
            }
            if !focused { settle() }
        case .keyboardObserved(let observation):
            if let change = keyboard.apply(observation) { trace(.keyboard(change)) }
            effects.append(.keyboardChanged(keyboard.current))
        case let .simulatedKeyboardOffered(inset, focused):
            simulatedKeyboard = nil
            updateSimulatedKeyboard(SimulatedKeyboard(inset: inset, inputFocused: focused))
        case .simulatedKeyboardRequested(let up):
            guard var simulated = simulatedKeyboard else { return }
            simulated.requested(up: up)
            updateSimulatedKeyboard(simulated)
        case .laidOut(let layout):
            trace(.layout(layout))
        case .shownTextChanged(let range):
            shownText = (range, model.log.lastSequence)
            if highlighter.show(range, asOf: model.log.lastSequence) { effects.append(.requestSettle) }
        case .framePainted:
            frames.painted()
            trace(.paint)
        case .placementObserved(let placement):
            guard placement != lastPlacement else { return }
            lastPlacement = placement
            trace(.placement(placement))
        case .historyRestored(let message):
            lastSent = message
            trace(.history(lastSent: message))
        case .ready:
            trace(.ready)
        case .dataArrived(let data):
            dataArrived(data)
        case .settle:
            trace(.settle)
            settle()
            if heldEnter != nil { decideHeldEnter() }
        case .send:
            traceCommand(.send)
            send()
        case .trim:
            traceCommand(.trim)
            trimToLimit()
        case .acceptCompletion(let index):
            traceCommand(.accept(index: index))
            acceptCompletion(index)
        case .moveCompletion(let delta):
            guard !exited else { return }
            traceCommand(.completionMove(by: delta))
            completionChanged(completion.moveSelection(by: delta))
        case .closeCompletion:
            guard !exited else { return }
            traceCommand(.completionClose)
            completionChanged(completion.close())
        case .exit(let reason):
            exit(reason)
        }
    }

    /// Tells the keyboard state about the simulated keyboard when it goes up or down.
    private func updateSimulatedKeyboard(_ new: SimulatedKeyboard) {
        let old = simulatedKeyboard
        simulatedKeyboard = new
        guard old?.isUp != new.isUp else { return }
        if let change = keyboard.apply(new.observation) { trace(.keyboard(change)) }
        effects.append(.keyboardChanged(keyboard.current))
    }

    /// A click mid-composition: GTK 4 resets the input method when the text view takes the
    /// press, and under GTK 4 that loses the composition with many engines (ibus-hangul and
    /// fcitx5-anthy drop it; ibus-unikey and ibus-m17n leave it drawn but dead) — GTK 3's
    /// IBus module committed it on the press (gtk#1534). Finish it first, as focus loss
    /// does: what was drawn is committed where it was drawn, then the caret moves.
    ///
    /// GNOME Shell resets the input method on the press itself, before the window hears of
    /// it (mutter 43, `meta_wayland_text_input_update`): an engine that drops a composition
    /// on reset (ibus-anthy, ibus-libpinyin) has ended it a few milliseconds before the
    /// press arrives, with no commit. The press's own time, earlier than that end
    /// (`inputMethodResetFirst`), says the press ended it: what was drawn is typed where
    /// it was drawn. Without that proof an end with nothing to explain it is left alone:
    /// the keys IBus takes never reach the window there, so an Escape that cancelled a
    /// composition looks the same, and a later click must not bring it back.
    private func pointerPressed(inputMethodResetFirst: Bool) {
        let dropped = inputMethodResetFirst ? abandoned.unexplainedEnd : nil
        abandoned.explained()
        if let drawn = model.preedit, !drawn.text.isEmpty {
            finishComposition(drawn: drawn.text)
        } else if let dropped, !dropped.isEmpty, model.preedit == nil {
            let caret = model.selection.caret
            edit(caret..<caret, with: dropped, origin: .program)
            effects.append(.requestSettle)
        }
    }

    private func keyPressed(name: String, shift: Bool, forwarded: Bool) {
        guard !exited else { return }
        origins.keyPressed()
        abandoned.keyPressed(name)
        let composingWhenPressed = routing.keyPressed(composing: model.isComposing, forwarded: forwarded)
        guard let command = keyCommand(name, shift: shift) else {
            trace(.key(keyval: name, consumed: nil, shift: shift, forwarded: forwarded))
            return
        }
        routing.route(.init(command: command, wasComposing: composingWhenPressed, forwarded: forwarded))
    }

    private func keyFiltered(name: String, shift: Bool, consumed: Bool) {
        let verdict = routing.filtered()
        let pressed = verdict.pressed
            ?? keyCommand(name, shift: shift).map { .init(command: $0, wasComposing: model.isComposing, forwarded: false) }
        trace(.key(keyval: name, consumed: consumed, shift: shift, forwarded: pressed?.forwarded ?? false))
        for event in verdict.heldTrace { trace(event) }
        // The input method may have run a nested loop in which the composer was told to exit.
        guard !exited, let pressed else { return }
        switch pressed.command.outcome(inputMethodConsumed: consumed, wasComposing: pressed.wasComposing) {
        case .inputMethodTookIt: break
        case .confirmedComposition:
            // Every engine that composes takes Enter while it does (to commit), or commits
            // before passing it on. Passed on without a word, the composition on screen
            // has no engine behind it any more: IBus's GTK module keeps drawing a preedit
            // the engine dropped on GTK's reset (a click in the text, with ibus-unikey or
            // ibus-m17n), and nothing would ever end it — Send insensitive, Enter only
            // confirming, until focus left. Finish it the way focus loss does: what the
            // user sees is committed where it is drawn.
            if !consumed, !verdict.inputMethodActed, let drawn = model.preedit, !drawn.text.isEmpty {
                abandoned.explained()
                finishComposition(drawn: drawn.text)
            }
        case .perform(.send): if !holdEnterForData() { send() }
        case .perform(.newline): insertNewline()
        case .perform(.completionPrevious): completionChanged(completion.moveSelection(by: -1))
        case .perform(.completionNext): completionChanged(completion.moveSelection(by: 1))
        case .perform(.completionClose): completionChanged(completion.close())
        case .perform(.completionAccept): acceptCompletion(nil)
        case .perform(.editLastSent): editLastSent()
        case .perform(.cancelEdit): cancelEditingLastSent()
        }
    }

    // MARK: Settle

    /// Phase 1 edits the text (the hard limit's cuts, made in the model at once and handed
    /// on as effects); phase 2 decorates the text the edits left (overflow, completion,
    /// highlighting) and reports it. Never re-entered: nothing it does reaches the buffer
    /// before it returns.
    func settle() {
        guard !settling else { return }
        settling = true
        defer { settling = false }
        settleCount += 1
        // The cuts are made in the model as the pipeline hands them over (phase 1), and
        // traced at once; the settle steps' own reports and decorations follow (phase 2).
        let decided = pipeline.settle(model) { cut in perform(cut) }
        for event in decided.events { trace(event) }
        for effect in decided.effects { perform(effect) }
        origins.settled()
        showControls()
        startTracingIfRequested()
    }

    func showControls() {
        let controls = Effect.controls(canSend: model.canSend(limit: limit), canTrim: model.canTrim(limit: limit),
                                       canMoveCaret: !model.isComposing, completionOpen: completion.isOpen)
        if controls != shownControls {
            shownControls = controls
            effects.append(controls)
        }
        if overflow.status != shownStatus {
            shownStatus = overflow.status
            effects.append(.showStatus(overflow.status))
        }
    }

    /// A settle step's decision. Cuts are edits of the composer's own, made in the
    /// model now; tags go to the window as they are.
    private func perform(_ effect: SettleEffect) {
        switch effect {
        case let .trim(range, caret):
            edit(range, with: "", origin: .program)
            select(caret)
        case .overflowTag, .highlight, .controlTag:
            if let tag = effect.tag { effects.append(.tag(tag)) }
        }
    }

    // MARK: Helpers

    /// Ends the composition on screen as focus loss would; what the user saw is kept if the
    /// module in use may drop it (`InputMethodModule`).
    private func finishComposition(drawn: String) {
        let mayDrop = inputMethodModule?.mayDropFinishedComposition ?? false
        effects.append(.finishComposition(keep: mayDrop ? drawn : nil))
    }

    /// An edit of the composer's own: made in the model now (the buffer follows).
    func edit(_ range: Range<Int>, with text: String, origin: EditOrigin) {
        traceEdit { model.applyDelete(range: range, origin: origin) }
        traceEdit { model.applyInsert(at: range.lowerBound, text: text, origin: origin) }
        effects.append(.edit(range: range, text: text))
    }

    func select(_ caret: Int) {
        model.setSelection(anchor: caret, caret: caret)
        effects.append(.select(anchor: caret, caret: caret))
    }

    /// A command from a button, a shortcut or the list: recorded for replay (nothing after
    /// the exit is).
    private func traceCommand(_ command: TracedCommand) {
        if !exited { trace(.command(command)) }
    }

    func trace(_ event: @autoclosure () -> TraceEvent) {
        guard traces || keepsRecentEvents else { return }
        let event = event()
        // Untraced, only what the input method and the user did is kept (keys, the
        // composition, commits, surrounding text, focus, sends): typing pays for no more.
        guard traces || event.isKeptBeforeTheTrace else { return }
        guard !routing.hold(event) else { return }
        effects.append(.trace(event))
        // Painted frames are timed for a trace only, never for the recent events.
        if traces, frames.asksFrame(after: event) { effects.append(.awaitFrame) }
    }

    /// Makes an edit in the model and traces it, if it recorded one (an empty insertion or
    /// deletion records nothing).
    func traceEdit(_ body: () -> Void) {
        let before = model.log.lastEditSequence
        body()
        guard traces, model.log.lastEditSequence != before, case .edit(let edit)? = model.log.entries.last else { return }
        trace(.edit(edit))
    }

    /// The fixed settle order: limit (edits) → overflow → completion → highlighting →
    /// invisible controls → trace (decorations). The controls come after the highlighter:
    /// the few scalars they re-read lie inside what it has just read.
    private func makePipeline() -> SettlePipeline {
        SettlePipeline(steps: [limitCutter, overflow, completion, highlighter, controlMarking]
                       + (textReporter.map { [$0] } ?? []))
    }

    private static func makeHighlighter(_ tokens: TokenNames) -> TokenHighlighter {
        TokenHighlighter(people: tokens.people, channels: tokens.channels, shortcodes: tokens.shortcodes)
    }
}

/// The names the highlighter knows: people's handles, channel names, emoji shortcodes.
public struct TokenNames: Equatable, Sendable {
    public var people: [String]
    public var channels: [String]
    public var shortcodes: [String]

    public init(people: [String] = [], channels: [String] = [], shortcodes: [String] = []) {
        self.people = people
        self.channels = channels
        self.shortcodes = shortcodes
    }
}
