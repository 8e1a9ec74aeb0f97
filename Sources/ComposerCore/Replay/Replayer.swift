/// Runs a transcript's recorded input events through a new `Composer`, without a display
/// or an input method, and collects the trace it writes (`ime-composer replay`).
///
/// What is fed: the input method's events (preedit, commit, surrounding), keys, the
/// buffer's edits that came from outside the composer, selection moves, settles, commands,
/// data arrivals, focus, layouts, ready and exit. What is not: the composer's own decisions
/// (`program` edits and the line break Shift+Enter inserts, limit cuts, completion and
/// accept events, send, the `text` lines) — the replay makes its own, which is the point.
///
/// An older recording (2026-11-23's build: its start line has no settings) has no `settle`,
/// `selection`, `command` or `data` lines. Its settles are inferred: before the first of the
/// lines a settle writes (`limit`, `overflow`, `completion`, `text`, the composer's own edits)
/// that follows input. Its data is taken as arrived when the window was ready. What only those
/// lines would say (a click, an arrow key's caret move, a button) is not replayed.
///
/// With other settings than the recording's the text can differ from the recorded one;
/// the recorded edits are then moved onto the replay's text (`EditPlacement`): what an input
/// method commits or deletes lands at the replay's caret, as GTK would put it; other edits
/// keep their place relative to the text around them.
public final class Replayer {
    public struct Output: Sendable {
        /// The trace the replay wrote, each event with the `t` of the line that caused it.
        public var events: [(t: Int, event: TraceEvent)] = []
        /// Differences worth knowing that do not stop the replay (other data than recorded).
        public var warnings: [String] = []
        /// What the replay inferred that the recording does not say (an older recording's
        /// settles and data), one `FILE: sentence` each.
        public var notes: [String] = []

        /// JSON Lines, as the app writes a trace.
        public var jsonLines: String {
            events.map { $0.event.json(t: $0.t).serialized() + "\n" }.joined()
        }
    }

    private let transcript: Transcript
    private let settings: TranscriptSettings
    private let data: ReplayData
    private let composer: Composer
    /// The recording's own text and selection, line by line: where its edits were made.
    private let recorded: ComposerModel
    private var output = Output()
    private var currentT = 0
    /// An edit scope the recorded edits are inside (a commit, a paste, an undo or redo).
    private var openScope: EditOrigin?
    /// The replay's own edits that the window would not report back (the line break of
    /// Shift+Enter): the recording has them as edit lines, which are skipped.
    private var ownEdits: [Edit] = []
    private var installedData = false
    /// While a recorded edit is reported: its trace line is not one of the replay's own.
    private var reportingRecordedEdit = false
    /// An older recording without `settle` lines: settles are inferred from the lines they write.
    private let infersSettles: Bool
    /// An older recording without `data` lines: the data arrives when the window is ready.
    private let infersData: Bool
    /// The line before the one being replayed.
    private var previousEvent: TraceEvent?

    public init(transcript: Transcript, settings: TranscriptSettings, data: ReplayData) {
        self.transcript = transcript
        self.settings = settings
        self.data = data
        // Only a recording from before these lines existed (its start line says so): in a
        // newer one, a trace without them had nothing to say there.
        let older = !transcript.unrecordedSettings.isEmpty
        infersSettles = older && !transcript.lines.contains { $0.event == .settle }
        infersData = older && !transcript.lines.contains { if case .data = $0.event { true } else { false } }
        let initial = transcript.initialText
        let recents = RecentItems()
        for (source, ids) in transcript.initialRecents.sorted(by: { $0.key < $1.key }) {
            for id in ids.reversed() { recents.record(id, source: source) }
        }
        // A recording whose data arrived after it started was made while it loaded (an Enter
        // then waits for it, `Composer.holdEnterForData`); without a `data` line it had none.
        let dataArrives = transcript.lines.contains { if case .data = $0.event { true } else { false } }
        composer = Composer(text: initial.text, caret: initial.caret, limit: settings.limit,
                            completion: CompletionList(sources: [], recents: recents), traces: true,
                            awaitingData: dataArrives)
        recorded = ComposerModel(text: initial.text, caret: initial.caret)
        // A trace started mid-session can begin with a selection, not just a caret.
        for model in [composer.model, recorded] { model.setSelection(anchor: initial.selection.anchor, caret: initial.caret) }
    }

    /// Replays every line.
    /// - Throws: `TranscriptError` when a recorded edit does not fit the recorded text (the
    ///   transcript is not a whole session, or was changed by hand).
    public func run() throws(TranscriptError) -> Output {
        output.events.append((transcript.lines[0].t, .start(backend: transcript.backend, imModule: transcript.imModule, settings: settings)))
        if infersSettles {
            output.notes.append("\(transcript.name): no line says when input settled (an older recording): the replay settles "
                                + "before the lines a settle writes (limit, overflow, completion, text, the composer's own edits); "
                                + "clicks, caret moves and buttons were not recorded then and are not replayed")
        }
        if infersData, transcript.lines.contains(where: { $0.event == .ready }) {
            output.notes.append("\(transcript.name): no line says when people, channels and emoji arrived (an older "
                                + "recording): the replay takes them as arrived when the window was ready")
        }
        for line in transcript.lines {
            currentT = line.t
            if infersSettles, Self.isWrittenBySettle(line.event), !(previousEvent.map(Self.isDecision) ?? false) {
                closeScope()  // as replaying the line would first: the settle comes after a commit's scope
                feed(.settle)
            }
            previousEvent = line.event
            do {
                try replay(line.event)
            } catch {
                throw TranscriptError(file: transcript.name, line: line.number, reason: error.reason)
            }
            if composer.exited { break }
        }
        closeScope()
        return output
    }

    /// A line a settle writes (the first of them, after input, is where the settle was).
    private static func isWrittenBySettle(_ event: TraceEvent) -> Bool {
        switch event {
        case .limit, .overflow, .completion, .text, .textLength: return true
        case .edit(let edit): return edit.origin == .program
        default: return false
        }
    }

    /// A line the composer writes for a decision of its own (a settle's or a command's): the
    /// lines after it that a settle would write belong to the same decision.
    private static func isDecision(_ event: TraceEvent) -> Bool {
        isWrittenBySettle(event) || { if case .send = event { true } else if case .accept = event { true } else { false } }()
    }

    // MARK: Lines

    private func replay(_ event: TraceEvent) throws(TranscriptProblem) {
        if case .edit(let edit) = event, edit.origin == openScope {
            // Still inside the open scope.
        } else {
            closeScope()
        }
        switch event {
        case .start: break
        case .text(let snapshot):
            // An output; it also says where the recording's caret was.
            recorded.setSelection(anchor: snapshot.selection.anchor, caret: snapshot.caret)
        case let .textLength(_, caret, selection):
            recorded.setSelection(anchor: selection.anchor, caret: caret)
        case .limit, .overflow, .completion, .accept, .send:
            break  // the composer's decisions: the replay makes its own
        case .keyboard:
            // The window's conclusion about the keyboard, copied: its observations are not
            // recorded, and nothing the composer decides depends on it.
            output.events.append((currentT, event))
        case .ready:
            if infersData { installAllData() }
            feed(.ready)
        case .focus(let isIn): feed(.focusChanged(focused: isIn))
        case let .key(name, consumed, shift, forwarded):
            ownEdits.removeAll()
            if composer.routes(keyName: name, shift: shift) {
                feed(.keyPressed(name: name, shift: shift, forwarded: forwarded))
                feed(.keyFiltered(name: name, shift: shift, consumedByInputMethod: consumed ?? false))
            } else {
                feed(.keyPressed(name: name, shift: shift, forwarded: forwarded))
            }
        case .preeditStart: feed(.preeditStarted)
        case .preedit(let preedit): feed(.preeditChanged(preedit))
        case .preeditEnd: feed(.preeditEnded)
        case .commit(let text):
            feed(.commitStarted(text))
            openScope = .imCommit
        case .surroundingRetrieve: feed(.surroundingRetrieved)
        case let .surroundingDelete(offset, count): feed(.surroundingDeleted(offset: offset, count: count))
        case .edit(let edit): try replayEdit(edit)
        case .layout(let layout): feed(.laidOut(layout))
        case .exit(_, _, _, let reason): feed(.exit(reason))
        case .settle: feed(.settle)
        case let .selection(anchor, caret):
            try checkInRecordedText(anchor, caret)
            let placement = EditPlacement(recorded: recorded, replayed: composer.model)
            recorded.setSelection(anchor: anchor, caret: caret)
            feed(.selectionChanged(anchor: placement.place(anchor), caret: placement.place(caret)))
        case .command(let command): feed(command.inputEvent)
        case .data(let arrived): installData(arrived)
        case .inputMethodLost(let name): feed(.inputMethodLost(name: name))
        case .history(let lastSent): feed(.historyRestored(lastSent: lastSent))
        // When the window painted is no input to the composer's decisions.
        case .paint: break
        // Nor where the caret was told to the input method and its window went.
        case .placement: break
        case let .press(x, y, imResetFirst): feed(.pointerPressedAt(x: x, y: y, inputMethodResetFirst: imResetFirst))
        case .diverged(let text):
            recorded.applyDelete(range: 0..<recorded.document.scalarCount, origin: .program)
            recorded.applyInsert(at: 0, text: text, origin: .program)
            feed(.bufferDiverged(text: text))
        }
    }

    /// A recorded buffer edit: the composer's own are the replay's to make; the others are
    /// reported to it as the window would, inside the scope that gives them their origin.
    private func replayEdit(_ edit: Edit) throws(TranscriptProblem) {
        let removedCount = edit.removed.unicodeScalars.count
        guard edit.range.lowerBound + removedCount <= recorded.document.scalarCount,
              isScalarIdentical(recorded.document.substring(scalars: edit.range), edit.removed) else {
            throw TranscriptProblem("the edit removes \"\(edit.removed)\" at \(edit.range.lowerBound), but the recorded text "
                                    + "there is \"\(recorded.document.substring(scalars: edit.range.clamped(to: 0..<recorded.document.scalarCount)))\"")
        }
        defer { applyToRecorded(edit) }
        if edit.origin == .program { return }
        if let own = ownEdits.first, own.origin == edit.origin, isScalarIdentical(own.inserted, edit.inserted),
           isScalarIdentical(own.removed, edit.removed) {
            ownEdits.removeFirst()
            return
        }
        if openScope != edit.origin {
            switch edit.origin {
            case .paste: feed(.pasteStarted); openScope = .paste
            case .undo, .redo: feed(.historyStarted(edit.origin)); openScope = edit.origin
            case .drop: feed(.dropped)
            case .imCommit, .key, .deleteSurrounding, .program: break
            }
        }
        let placement = EditPlacement(recorded: recorded, replayed: composer.model)
        let atCaret = edit.origin == .imCommit || edit.origin == .deleteSurrounding
        let start = atCaret ? placement.placeNearCaret(edit.range.lowerBound) : placement.place(edit.range.lowerBound)
        let end = min(start + removedCount, composer.model.document.scalarCount)
        reportingRecordedEdit = true
        defer { reportingRecordedEdit = false }
        if end > start { feed(.deleted(start..<end)) }
        if !edit.inserted.isEmpty { feed(.inserted(offset: start, text: edit.inserted)) }
    }

    private func applyToRecorded(_ edit: Edit) {
        if !edit.removed.isEmpty { recorded.applyDelete(range: edit.range, origin: edit.origin) }
        if !edit.inserted.isEmpty { recorded.applyInsert(at: edit.range.lowerBound, text: edit.inserted, origin: edit.origin) }
    }

    private func checkInRecordedText(_ offsets: Int...) throws(TranscriptProblem) {
        let count = recorded.document.scalarCount
        if let outside = offsets.first(where: { $0 > count }) {
            throw TranscriptProblem("offset \(outside) is past the end of the recorded text (\(count) scalars)")
        }
    }

    /// Ends the scope the recorded edits were in, as the window reports it.
    private func closeScope() {
        guard let scope = openScope else { return }
        openScope = nil
        switch scope {
        case .imCommit: feed(.commitEnded); feed(.userActionEnded)
        case .paste: feed(.pasteEnded); feed(.userActionEnded)
        case .undo, .redo: feed(.historyEnded(scope))
        default: break
        }
    }

    /// The first `data` line brings the highlighter's names with its sources; a later one
    /// (traces before issue #31 built the emoji index on the first emoji word) only a source.
    private func installData(_ arrived: TracedData) {
        var sources: [CompletionSource] = []
        for (name, recordedCount) in arrived.sources {
            guard let source = data.source(named: name) else {
                output.warnings.append("line with \"data\": the recording had a source \"\(name)\" this replay does not know")
                continue
            }
            if source.count != recordedCount {
                output.warnings.append("the data differs from the recording's: \(source.count) \(name), recorded \(recordedCount)")
            }
            sources.append(source)
        }
        feed(.dataArrived(CompletionData(tokens: installedData ? nil : data.tokens, sources: sources)))
        installedData = true
    }

    /// An older recording's data, all of it at once: people and channels, and the emoji.
    private func installAllData() {
        let names = [CompletionSource.peopleName, CompletionSource.channelsName, CompletionSource.emojiName]
        let sources = names.compactMap { name in data.source(named: name).map { (name: name, count: $0.count) } }
        installData(TracedData(sources: sources, recents: [:]))
    }

    private func feed(_ event: InputEvent) {
        guard !composer.exited || { if case .exit = event { return true } else { return false } }() else { return }
        take(composer.handle(event))
    }

    /// Keeps the trace; the rest is the window's business (there is none).
    private func take(_ effects: [Effect]) {
        for effect in effects {
            guard case .trace(let event) = effect else { continue }
            output.events.append((currentT, event))
            if !reportingRecordedEdit, case .edit(let edit) = event, edit.origin != .program { ownEdits.append(edit) }
        }
    }
}
