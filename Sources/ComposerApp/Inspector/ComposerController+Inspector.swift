import CGtk
import ComposerCore
import Foundation
import GtkBinding

/// The IME inspector's wiring: its log follows the composer's trace; its pane is made the
/// first time it opens (closed, it costs nothing: without `--trace` no trace is even made
/// until then).
extension ComposerController {
    /// The trace's first line: the session's settings.
    static func startEvent(_ options: ComposerOptions) -> TraceEvent {
        .start(backend: DisplayEnvironment.backend, imModule: DisplayEnvironment.requestedInputMethodModule,
               settings: TranscriptSettings(limit: options.limit, dataDirectory: options.dataDirectory,
                                            simulatedKeyboardInset: options.simulatedKeyboardInset))
    }

    /// A trace event for the inspector's log, and its pane when open.
    func record(_ event: TraceEvent) {
        guard let inspectorLog, let row = inspectorLog.append(event, t: trace.elapsedMilliseconds) else { return }
        inspectorPane?.appended(row)
    }

    func showInspector(_ shown: Bool) {
        guard !destroyed else { return }
        if shown, inspectorPane == nil {
            let log = inspectorLog ?? InspectorLog()
            if inspectorLog == nil {
                inspectorLog = log
                // No trace yet: it starts at the next quiet settle, with the lines a replay
                // of it needs (`.tracingStarted`).
                apply(composer.requestTracing())
            }
            let pane = InspectorPane(log: log, save: { [weak self] in self?.saveTranscript() },
                                     copyReport: { [weak self] in self?.copyBugReport() })
            gtk_box_append(cast(ui.inspectorSlot), pane.container)
            inspectorPane = pane
            let environment = InspectorEnvironment(textView: ui.textView, sources: sources) { [weak self] lines in
                self?.inspectorPane?.setEnvironment(lines)
            }
            inspectorEnvironment = environment
        }
        let composerWidth = gtk_widget_get_width(ui.panel)
        gtk_widget_set_visible(ui.inspectorSlot, shown ? 1 : 0)
        ui.resizeForInspector(shown: shown, composerWidth: composerWidth)
        inspectorEnvironment?.watching = shown
    }

    /// Whether the inspector is shown (tests).
    public var inspectorShown: Bool { gtk_widget_get_visible(ui.inspectorSlot) != 0 && inspectorPane != nil }

    /// "Save transcript…": the session's trace as a replayable file (created 0600).
    func saveTranscript() {
        guard let inspectorLog else { return }
        let chooser = gtk_file_chooser_native_new("Save transcript", cast(ui.window), GTK_FILE_CHOOSER_ACTION_SAVE, "Save", "Cancel")!
        gtk_file_chooser_set_current_name(opaque(chooser), "ime-session.jsonl")
        onIntSignal(chooser, "response") { [weak self] response in
            defer { g_object_unref(chooser.rawPointer) }
            guard let self, response == Int(GTK_RESPONSE_ACCEPT.rawValue),
                  let file = gtk_file_chooser_get_file(opaque(chooser)) else { return }
            let path = string(takingOwnership: g_file_get_path(file))
            g_object_unref(UnsafeMutableRawPointer(file))
            do {
                try Self.writeTranscript(inspectorLog.transcript, to: path)
            } catch {
                ui.showLimitHint(String(format: tr("The transcript was not saved: %@"), error.localizedDescription))
            }
        }
        gtk_native_dialog_show(cast(chooser))
    }

    /// Writes `events` as trace v1 to `path`, readable by its owner only (it is a keystroke log).
    public static func writeTranscript(_ events: [(t: Int, event: TraceEvent)], to path: String) throws {
        let text = events.map { $0.event.json(t: $0.t).serialized() + "\n" }.joined()
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// "Copy as bug report": Markdown on the clipboard.
    func copyBugReport() {
        guard let inspectorLog else { return }
        let report = BugReport.markdown(environment: inspectorEnvironment?.facts ?? [], settings: inspectorLog.settings,
                                        rows: inspectorLog.rows)
        gdk_clipboard_set_text(gtk_widget_get_clipboard(ui.window), report)
    }

    /// The inspector's pane (tests).
    var inspector: InspectorPane? { inspectorPane }
}

// MARK: The inspector through its own widgets (tests drive it the way a click would)

extension ComposerController {
    /// Every session row the inspector's log holds.
    public var inspectorLogRows: [InspectorRow] { inspectorLog.map { Array($0.rows) } ?? [] }
    /// The session as a transcript ("Save transcript…" writes these lines).
    public var inspectorTranscript: [(t: Int, event: TraceEvent)] { inspectorLog?.transcript ?? [] }
    /// The rows the list shows now (after the kind filters and the search).
    public var inspectorShownRows: [InspectorRow] { inspectorPane?.shownRows ?? [] }
    /// The detail view's text.
    public var inspectorDetailText: String { inspectorPane?.detailText ?? "" }

    public func inspectorSelect(shownIndex index: Int) { inspectorPane?.select(shownIndex: index) }

    /// Toggles a kind's filter button.
    public func inspectorShowKind(_ kind: InspectorKind, _ shown: Bool) {
        guard let button = inspectorPane?.kindButtons[kind] else { return }
        gtk_toggle_button_set_active(cast(button), shown ? 1 : 0)
    }

    /// Types into the search entry (its "search-changed" comes after GTK's short delay).
    public func inspectorSearch(_ text: String) {
        guard let entry = inspectorPane?.searchEntry else { return }
        gtk_editable_set_text(opaque(entry), text)
    }

    public func inspectorPause(_ paused: Bool) {
        guard let button = inspectorPane?.pauseButton else { return }
        gtk_toggle_button_set_active(cast(button), paused ? 1 : 0)
    }

    public func inspectorClear() { inspectorPane?.clear() }

    /// The summary labels of the rows on screen: their text and Pango attributes (as
    /// `pango_attr_list_to_string` writes them).
    public var inspectorVisibleSummaries: [(text: String, attributes: String)] {
        inspectorPane?.visibleSummaries ?? []
    }

    /// "Copy as bug report" now; returns what the clipboard holds.
    public func inspectorCopyBugReport() -> String? {
        copyBugReport()
        guard let provider = gdk_clipboard_get_content(gtk_widget_get_clipboard(ui.window)) else { return nil }
        var value = GValue()
        g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING
        defer { g_value_unset(&value) }
        guard gdk_content_provider_get_value(provider, &value, nil) != 0 else { return nil }
        return string(fromBorrowed: g_value_get_string(&value))
    }
}
