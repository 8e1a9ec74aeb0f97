import CGtk
import ComposerCore
import Foundation
import GtkBinding

/// The IME inspector, a feature that owns its state: its log follows the composer's trace;
/// its pane is made the first time it opens (closed, it costs nothing: without `--trace` no
/// trace is even made until then), and its environment header is asked while it is shown.
final class IMEInspector {
    /// The session's rows (from the start with `--trace`; else the recent events before it
    /// first opened, then everything).
    private(set) var log: InspectorLog?
    /// Until the inspector first opens without `--trace`: the session's last events.
    private var recent: RecentEvents?
    /// Whether the saved transcript has begun (its `start` line): with `--trace` at once,
    /// else at the quiet settle after the first opening (`.tracingStarted`).
    private var transcriptStarted: Bool
    /// The pane, once opened.
    private(set) var pane: InspectorPane?
    private var environment: InspectorEnvironment?
    private let ui: ComposerView
    private let sources: SourceGroup
    private let elapsedMilliseconds: () -> Int
    private let requestTracing: () -> Void
    /// Asks the composer to trace painted frames (or stop).
    private let tracesFrames: (Bool) -> Void
    /// Draws the caret's placement over the input (or stops).
    private let placementOverlay: (Bool) -> Void
    /// The lab's engine files (`data/lab/engines`): what the checklist says to type.
    private let labDirectory: String?
    private var wordsCache: [String: ChecklistWords] = [:]

    /// - Parameters:
    ///   - start: the trace's first line, when the session is traced from its start.
    ///   - requestTracing: asks the composer for the trace (opened without `--trace`).
    init(ui: ComposerView, sources: SourceGroup, start: TraceEvent?, elapsedMilliseconds: @escaping () -> Int,
         requestTracing: @escaping () -> Void, tracesFrames: @escaping (Bool) -> Void,
         placementOverlay: @escaping (Bool) -> Void, labDirectory: String? = nil) {
        self.labDirectory = labDirectory
        self.tracesFrames = tracesFrames
        self.placementOverlay = placementOverlay
        self.ui = ui
        self.sources = sources
        self.elapsedMilliseconds = elapsedMilliseconds
        self.requestTracing = requestTracing
        transcriptStarted = start != nil
        if let start {
            let log = InspectorLog()
            log.append(start, t: 0)
            self.log = log
        } else {
            recent = RecentEvents()
        }
    }

    /// A trace event for the log, and the pane when open; before the inspector first
    /// opens without `--trace`, for the recent events.
    func record(_ event: TraceEvent) {
        guard let log else {
            recent?.append(event, t: elapsedMilliseconds())
            return
        }
        guard let row = log.append(event, t: elapsedMilliseconds(), inTranscript: transcriptStarted) else { return }
        pane?.appended(row)
    }

    /// The trace asked for at the first opening started (its `start` line): the saved
    /// transcript begins here.
    func tracingStarted(_ start: TraceEvent) {
        transcriptStarted = true
        record(start)
    }

    /// Whether the pane is shown.
    var isShown: Bool { gtk_widget_get_visible(ui.inspectorSlot) != 0 && pane != nil }

    func show(_ shown: Bool) {
        if shown, pane == nil {
            let log = log ?? InspectorLog()
            if self.log == nil {
                // What led here first: the composition in progress from its first key.
                for (t, event) in recent?.events ?? [] { log.append(event, t: t, inTranscript: false) }
                recent = nil
                self.log = log
                // No trace yet: it starts at the next quiet settle, with the lines a replay
                // of it needs (`.tracingStarted`).
                requestTracing()
            }
            let pane = InspectorPane(log: log, save: { [weak self] in self?.saveTranscript() },
                                     copyReport: { [weak self] in self?.copyBugReport() },
                                     placementOverlay: placementOverlay,
                                     checklist: ChecklistActions(
                                        words: { [weak self] in self?.checklistWords ?? .generic },
                                        copy: { [weak self] in self?.copyChecklistReport() },
                                        save: { [weak self] in self?.saveChecklistReport() }))
            gtk_box_append(cast(ui.inspectorSlot), pane.container)
            self.pane = pane
            environment = InspectorEnvironment(textView: ui.textView, sources: sources) { [weak self] lines in
                guard let self else { return }
                self.pane?.setEnvironment(lines)
                self.log?.engine = environment?.engineName
                // What to type follows the engine in use.
                if self.pane?.checklistShown == true { self.pane?.refreshChecklist() }
            }
        }
        let composerWidth = gtk_widget_get_width(ui.panel)
        gtk_widget_set_visible(ui.inspectorSlot, shown ? 1 : 0)
        ui.resizeForInspector(shown: shown, composerWidth: composerWidth)
        environment?.watching = shown
        // Each key's painted frame, while the inspector shows it (the Timing view), and the
        // caret's placement.
        tracesFrames(shown)
        if !shown, let pane, pane.placementOverlayShown { pane.showPlacementOverlay(false) }
    }

    /// "Save transcript…": the session's trace as a replayable file (created 0600).
    func saveTranscript() {
        guard let log else { return }
        askForSavePath(title: tr("Save Transcript"), suggestedName: "ime-session.jsonl",
                       failure: tr("The transcript was not saved: %@")) { path in
            try ComposerController.writeTranscript(log.transcript, to: path)
        }
    }

    /// Asks where to save with the system's file chooser (a portal's in a sandbox), then
    /// calls `write` with the path chosen; an error it throws is shown under the input as
    /// `failure` (a format with one `%@`), the draft untouched.
    private func askForSavePath(title: String, suggestedName: String, failure: String,
                                write: @escaping (String) throws -> Void) {
        let chooser = gtk_file_chooser_native_new(title, cast(ui.window), GTK_FILE_CHOOSER_ACTION_SAVE, tr("_Save"), tr("_Cancel"))!
        gtk_file_chooser_set_current_name(opaque(chooser), suggestedName)
        onIntSignal(chooser, "response") { [weak self] response in
            defer { g_object_unref(chooser.rawPointer) }
            guard let self, response == Int(GTK_RESPONSE_ACCEPT.rawValue),
                  let file = gtk_file_chooser_get_file(opaque(chooser)) else { return }
            let path = string(takingOwnership: g_file_get_path(file))
            g_object_unref(UnsafeMutableRawPointer(file))
            do {
                try write(path)
            } catch {
                ui.limitIndicators.showLimitHint(String(format: failure, error.localizedDescription))
            }
        }
        gtk_native_dialog_show(cast(chooser))
    }

    /// What the checklist says to type: the lab's data for the engine in use, else generic words.
    var checklistWords: ChecklistWords {
        guard let environment, environment.hasAnswered else { return .engineNotYetKnown }
        guard let slug = ChecklistWords.slug(forEngine: environment.engineName), let labDirectory else { return .generic }
        if let cached = wordsCache[slug] { return cached }
        let file = labDirectory + "/" + slug + ".json"
        let words = (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { ChecklistWords(engineFile: $0, slug: slug) } ?? .generic
        wordsCache[slug] = words
        return words
    }

    /// The checklist's Markdown (`transcripts`: each failed item's transcript file name).
    func checklistReport(transcripts: [ChecklistItem: String] = [:]) -> String? {
        guard let log else { return nil }
        return ChecklistReport.markdown(environment: environment?.facts ?? [], words: checklistWords,
                                        limit: log.checklist.sessionLimit, judge: log.checklist, rows: log.rows,
                                        transcripts: transcripts)
    }

    /// "Copy report": the checklist's Markdown on the clipboard.
    func copyChecklistReport() {
        guard let report = checklistReport() else { return }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(ui.window), report)
    }

    /// "Save report…": the checklist's Markdown, and beside it a replayable transcript for
    /// each failed item (the session up to its failed attempt), readable by the owner only.
    func saveChecklistReport() {
        askForSavePath(title: tr("Save Report"), suggestedName: "ime-checklist.md",
                       failure: tr("The report was not saved: %@")) { [weak self] path in
            try self?.writeChecklistReport(to: path)
        }
    }

    /// Writes the report to `path` and each failed item's transcript beside it
    /// (`NAME-ITEM.jsonl`); returns the transcripts' paths.
    @discardableResult
    func writeChecklistReport(to path: String) throws -> [String] {
        guard let log else { return [] }
        let base = path.hasSuffix(".md") ? String(path.dropLast(3)) : path
        var transcripts: [ChecklistItem: String] = [:]
        var written: [String] = []
        for item in ChecklistItem.allCases {
            let result = log.checklist.result(item)
            guard case .failed = result.verdict, let rows = result.rows else { continue }
            let file = "\(base)-\(item.rawValue).jsonl"
            try ComposerController.writeTranscript(log.transcript(throughRow: rows.upperBound), to: file)
            transcripts[item] = URL(fileURLWithPath: file).lastPathComponent
            written.append(file)
        }
        let report = checklistReport(transcripts: transcripts) ?? ""
        guard FileManager.default.createFile(atPath: path, contents: Data(report.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        return written
    }

    /// Opens the inspector on its Checklist view, or closes the view (F11).
    func toggleChecklist() -> Bool {
        guard let pane, isShown else { return false }
        pane.showChecklist(!pane.checklistShown)
        return true
    }

    /// "Copy as bug report": Markdown on the clipboard; the checklist's report while the
    /// Checklist view is shown.
    func copyBugReport() {
        if pane?.checklistShown == true {
            copyChecklistReport()
            return
        }
        guard let report = bugReport else { return }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(ui.window), report)
    }

    /// The bug report's Markdown, once the session is traced.
    var bugReport: String? {
        guard let log else { return nil }
        return BugReport.markdown(environment: environment?.facts ?? [], settings: log.settings, rows: log.rows)
    }
}

/// The controller's side: the trace's first line, and the inspector shown or hidden.
extension ComposerController {
    /// The trace's first line: the session's settings.
    static func startEvent(_ options: ComposerOptions) -> TraceEvent {
        .start(backend: DisplayEnvironment.backend, imModule: DisplayEnvironment.requestedInputMethodModule,
               settings: TranscriptSettings(limit: options.limit, dataDirectory: options.dataDirectory,
                                            simulatedKeyboardInset: options.simulatedKeyboardInset,
                                            inputMethodFacing: options.inputMethodFacing))
    }

    func showInspector(_ shown: Bool) {
        guard !destroyed else { return }
        inspector.show(shown)
    }

    /// F11: the Checklist view on (the inspector opens) or off.
    func toggleChecklist() {
        guard !destroyed else { return }
        if !inspector.isShown { toggleRequested(.inspector, true) }
        _ = inspector.toggleChecklist()
    }

    /// The inspector's "Placement" toggle: the overlay over the input, redrawn at each reading.
    func showPlacementOverlay(_ shown: Bool) {
        guard !destroyed else { return }
        if shown {
            let overlay = placementOverlay ?? PlacementOverlay(textView: ui.textView)
            placementOverlay = overlay
            if let last = placement?.last { overlay.show(last) }
            placement?.onReading = { [weak overlay] reading in overlay?.show(reading) }
        } else {
            placementOverlay?.hide()
            placement?.onReading = nil
        }
    }

    /// Whether the inspector is shown (tests).
    public var inspectorShown: Bool { inspector.isShown }

    /// Writes `events` as trace v1 to `path`, readable by its owner only (it is a keystroke log).
    public static func writeTranscript(_ events: [(t: Int, event: TraceEvent)], to path: String) throws {
        let text = events.map { $0.event.json(t: $0.t).serialized() + "\n" }.joined()
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    func copyBugReport() { inspector.copyBugReport() }
}

// MARK: The inspector through its own widgets (tests drive it the way a click would)

extension ComposerController {
    /// Turns the Checklist view on or off (its toggle).
    public func inspectorShowChecklist(_ shown: Bool) { inspector.pane?.showChecklist(shown) }
    /// The Checklist view's text, one line per item.
    public var inspectorChecklistText: String { inspector.pane?.checklistText ?? "" }
    /// Whether the Checklist view is shown.
    public var inspectorChecklistShown: Bool { inspector.pane?.checklistShown ?? false }
    /// The clipboard's text (tests).
    public var clipboardTextForTests: String? { clipboardText() }
    /// The checklist's verdicts.
    public var checklistJudge: ChecklistJudge? { inspector.log?.checklist }
    /// "Copy report" now; returns what the clipboard holds.
    public func inspectorCopyChecklistReport() -> String? {
        inspector.copyChecklistReport()
        return clipboardText()
    }
    /// What "Save report…" writes, to `path` without the dialog; the transcripts' paths.
    @discardableResult
    public func inspectorSaveChecklistReport(to path: String) throws -> [String] { try inspector.writeChecklistReport(to: path) }

    /// Turns the placement overlay on or off (its toggle).
    public func inspectorShowPlacement(_ shown: Bool) { inspector.pane?.showPlacementOverlay(shown) }
    /// What the placement overlay draws now ("given", "sent", "popup"), in its coordinates.
    public var placementOverlayShapes: [(label: String, rect: PixelRect)] { placementOverlay?.drawn ?? [] }

    /// Every session row the inspector's log holds.
    public var inspectorLogRows: [InspectorRow] { inspector.log.map { Array($0.rows) } ?? [] }
    /// The session as a transcript ("Save transcript…" writes these lines).
    public var inspectorTranscript: [(t: Int, event: TraceEvent)] { inspector.log?.transcript ?? [] }
    /// The rows the list shows now (after the kind filters and the search).
    public var inspectorShownRows: [InspectorRow] { inspector.pane?.shownRows ?? [] }
    /// Turns the Timing view on or off (its toggle).
    public func inspectorShowTiming(_ shown: Bool) {
        guard let button = inspector.pane?.timingButton else { return }
        gtk_toggle_button_set_active(cast(button), shown ? 1 : 0)
    }
    /// The Timing view's text, and its markup (with the rows' links).
    public var inspectorTimingText: String { inspector.pane?.timingText ?? "" }
    public var inspectorTimingMarkup: String {
        inspector.pane.map { string(fromBorrowed: gtk_label_get_label(opaque($0.timingLabelForTests))) } ?? ""
    }
    /// What following the link "row:N" does.
    public func inspectorFollowTimingLink(row number: Int) { inspector.pane?.selectRow(number: number) }
    /// What "Copy as bug report" puts on the clipboard ("" before the session is traced).
    public var bugReportMarkdown: String { inspector.bugReport ?? "" }
    /// The detail view's text.
    public var inspectorDetailText: String { inspector.pane?.detailText ?? "" }

    public func inspectorSelect(shownIndex index: Int) { inspector.pane?.select(shownIndex: index) }

    /// Toggles a kind's filter button.
    public func inspectorShowKind(_ kind: InspectorKind, _ shown: Bool) {
        guard let button = inspector.pane?.kindButtons[kind] else { return }
        gtk_toggle_button_set_active(cast(button), shown ? 1 : 0)
    }

    /// Types into the search entry (its "search-changed" comes after GTK's short delay).
    public func inspectorSearch(_ text: String) {
        guard let entry = inspector.pane?.searchEntry else { return }
        gtk_editable_set_text(opaque(entry), text)
    }

    public func inspectorPause(_ paused: Bool) {
        guard let button = inspector.pane?.pauseButton else { return }
        gtk_toggle_button_set_active(cast(button), paused ? 1 : 0)
    }

    public func inspectorClear() { inspector.pane?.clear() }

    /// The summaries of the rows on screen: their text and Pango attributes (as
    /// `pango_attr_list_to_string` writes them).
    public var inspectorVisibleSummaries: [(text: String, attributes: String)] {
        inspector.pane?.visibleSummaries ?? []
    }

    /// The summaries on screen, laid out, and whether each is drawn past its own height,
    /// where it is cut off.
    @_spi(Testing) public var inspectorSummaryFits: [(text: String, cutOff: Bool)] { inspector.pane?.summaryFits ?? [] }

    /// The natural size GTK measures for each row on screen, with the row's summary.
    @_spi(Testing) public var inspectorRowSizes: [(width: Int32, height: Int32, summary: String)] {
        inspector.pane?.rowSizes ?? []
    }

    /// Whether rows of the log wait to be shown in the list (`InspectorPane.batchMilliseconds`).
    @_spi(Testing) public var inspectorRowsWaiting: Bool { inspector.pane?.rowsWaiting ?? false }

    /// Whether the inspector's list shows GTK's overlay scroll indicator, which fades in
    /// and out over about 50 frames each time the list follows a new row.
    @_spi(Testing) public var inspectorListFadesItsScrollIndicator: Bool {
        inspector.pane?.fadesItsScrollIndicator ?? false
    }

    /// The list model the inspector's list view shows (a GListModel), while open.
    @_spi(Testing) public var inspectorListModel: OpaquePointer? { inspector.pane?.listModel }

    /// "Copy as bug report" now; returns what the clipboard holds.
    public func inspectorCopyBugReport() -> String? {
        copyBugReport()
        return clipboardText()
    }

    /// The clipboard's text, read back through GTK.
    func clipboardText() -> String? {
        guard let provider = gdk_clipboard_get_content(gtk_widget_get_clipboard(ui.window)) else { return nil }
        var value = GValue()
        g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING
        defer { g_value_unset(&value) }
        guard gdk_content_provider_get_value(provider, &value, nil) != 0 else { return nil }
        return string(fromBorrowed: g_value_get_string(&value))
    }
}

extension ComposerController {
    /// The colour GTK draws a kind's filter button's label in ("rgb(28,113,216)"), or nil
    /// while the inspector was never opened (tests).
    @_spi(Testing) public func inspectorKindColor(_ name: String) -> String? {
        guard let kind = InspectorKind(rawValue: name), let button = inspector.pane?.kindButtons[kind],
              let label = gtk_button_get_child(cast(button)) else { return nil }
        return Self.color(of: label)
    }

    /// Whether the input's text is light, as on a dark style (tests).
    @_spi(Testing) public var textIsLight: Bool {
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(ui.textView), &color)
        return 0.2126 * color.red + 0.7152 * color.green + 0.0722 * color.blue > 0.5
    }

    static func color(of widget: UnsafeMutablePointer<GtkWidget>) -> String {
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(widget), &color)
        let text = gdk_rgba_to_string(&color)!
        defer { g_free(text) }
        return String(cString: text)
    }
}
