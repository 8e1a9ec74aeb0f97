import CGtk
import ComposerCore
import GtkBinding

/// What the Checklist view needs from the inspector: what to type, Copy report, Save report….
struct ChecklistActions {
    let words: () -> ChecklistWords
    let copy: () -> Void
    let save: () -> Void
}

/// The IME inspector (F12): a live log of every input event and decision, one row each,
/// coloured by kind and flagged when an anomaly rule matches; a detail view of the selected
/// row; the environment; pause, clear, filters, search, "Save transcript…" and "Copy as bug
/// report". Made when first opened: closed, it costs nothing.
///
/// A GtkListView over a GtkStringList of row numbers (the rows themselves stay in the
/// `InspectorLog`), filtered by a GtkCustomFilter: a session of 10,000 rows stays fluid.
@MainActor
final class InspectorPane {
    let container: UnsafeMutablePointer<GtkWidget>
    private let log: InspectorLog
    private let items: OpaquePointer
    private let selection: OpaquePointer
    private let scroller: UnsafeMutablePointer<GtkWidget>
    private let detail: UnsafeMutablePointer<GtkWidget>
    private let header: UnsafeMutablePointer<GtkWidget>
    private var listView: UnsafeMutablePointer<GtkWidget>!
    /// The Timing view (in the detail's place while its toggle is on).
    let timingButton: UnsafeMutablePointer<GtkWidget>
    private let timingLabel: UnsafeMutablePointer<GtkWidget>
    private var detailScroller: UnsafeMutablePointer<GtkWidget>!
    private var timingScroller: UnsafeMutablePointer<GtkWidget>!
    private(set) var timingShown = false
    /// A refresh of the Timing view is waiting (one per burst of rows).
    private var timingRefreshPending = false
    let pauseButton: UnsafeMutablePointer<GtkWidget>
    let searchEntry: UnsafeMutablePointer<GtkWidget>
    private(set) var kindButtons: [InspectorKind: UnsafeMutablePointer<GtkWidget>] = [:]
    private var factory: InspectorRowFactory!
    private(set) var kinds = Set(InspectorKind.allCases)
    private(set) var search = ""
    /// Whether the list follows the newest row (until the user scrolls up).
    private var followsNewest = true

    /// Draws the caret's placement over the input.
    let placementButton: UnsafeMutablePointer<GtkWidget>
    var placementOverlayShown: Bool { gtk_toggle_button_get_active(cast(placementButton)) != 0 }

    func showPlacementOverlay(_ shown: Bool) {
        gtk_toggle_button_set_active(cast(placementButton), shown ? 1 : 0)
    }

    /// The Checklist view (in the detail's place while its toggle is on).
    let checklistButton: UnsafeMutablePointer<GtkWidget>
    private let checklistLabel: UnsafeMutablePointer<GtkWidget>
    private var checklistView: UnsafeMutablePointer<GtkWidget>!
    private let checklistActions: ChecklistActions
    private(set) var checklistShown = false
    private var checklistRefreshPending = false

    init(log: InspectorLog, save: @escaping () -> Void, copyReport: @escaping () -> Void,
         placementOverlay: @escaping (Bool) -> Void, checklist: ChecklistActions) {
        checklistActions = checklist
        self.log = log
        container = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        gtk_widget_add_css_class(container, "inspector")
        gtk_widget_set_size_request(container, 460, -1)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] {
            margin(container, 6)
        }
        header = gtk_label_new(nil)
        gtk_label_set_xalign(opaque(header), 0)
        gtk_label_set_wrap(opaque(header), 1)
        gtk_label_set_selectable(opaque(header), 1)
        gtk_widget_add_css_class(header, "inspector-environment")

        let tools = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        pauseButton = Accessibility.toggleButton(label: "Pause")
        let clearButton = gtk_button_new_with_label("Clear")!
        searchEntry = gtk_search_entry_new()
        cgtk_accessible_set_label(searchEntry, tr("Search events"))
        gtk_widget_set_hexpand(searchEntry, 1)
        let saveButton = gtk_button_new_with_label("Save transcript…")!
        let copyButton = gtk_button_new_with_label("Copy as bug report")!
        timingButton = Accessibility.toggleButton(label: "Timing")
        cgtk_accessible_set_label(timingButton, tr("Show the timing of the input method's answers"))
        // Three rows, so the pane stays narrow enough to sit beside the composer on a
        // 1024 px screen: pause, clear and search; the kind filters; the views and reports.
        for widget in [pauseButton, clearButton, searchEntry] {
            gtk_box_append(cast(tools), widget)
        }
        let placementButton = Accessibility.toggleButton(label: "Placement")
        self.placementButton = placementButton
        gtk_widget_set_tooltip_text(placementButton, tr("Draw over the input where the caret is told to the input method (blue), what its module sent (orange) and its candidate window (red)"))
        cgtk_accessible_set_label(placementButton, tr("Show the candidate window's placement over the input"))
        onSignal(placementButton, "toggled") { [placementButton] in
            placementOverlay(gtk_toggle_button_get_active(cast(placementButton)) != 0)
        }
        timingLabel = gtk_label_new(nil)
        checklistLabel = gtk_label_new(nil)
        let kindBar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2)!
        gtk_widget_add_css_class(kindBar, "linked")
        for kind in InspectorKind.allCases {
            let button = Accessibility.toggleButton(label: kind.rawValue)
            // TRANSLATORS: a filter of the inspector; %@ is a kind of event (key, preedit, commit…).
            cgtk_accessible_set_label(button, String(format: tr("Show %@ events"), kind.rawValue))
            gtk_toggle_button_set_active(cast(button), 1)
            gtk_widget_add_css_class(button, "inspector-\(kind.rawValue)")
            gtk_box_append(cast(kindBar), button)
            kindButtons[kind] = button
        }

        checklistButton = Accessibility.toggleButton(label: "Checklist")
        gtk_widget_set_tooltip_text(checklistButton, tr("What to try by hand, judged as you type (F11)"))
        cgtk_accessible_set_label(checklistButton, tr("Show the checklist"))
        let viewRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        let spacer = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_widget_set_hexpand(spacer, 1)
        for widget in [timingButton, checklistButton, placementButton, spacer, saveButton, copyButton] {
            gtk_box_append(cast(viewRow), widget)
        }

        items = gtk_string_list_new(nil)
        selection = gtk_single_selection_new(nil)
        scroller = gtk_scrolled_window_new()
        detail = gtk_text_view_new()

        let rowFilter = makeCustomFilter { [weak self] item in
            guard let self, let row = row(for: item) else { return false }
            return InspectorLog.matches(row, kinds: kinds, search: search)
        }
        filterObject = rowFilter
        let filtered = gtk_filter_list_model_new(OpaquePointer(items.rawPointer), rowFilter)!
        g_object_ref(items.rawPointer)  // the filter model took the first reference
        gtk_single_selection_set_model(selection, OpaquePointer(filtered.rawPointer))
        g_object_unref(filtered.rawPointer)
        gtk_single_selection_set_autoselect(selection, 0)
        gtk_single_selection_set_can_unselect(selection, 1)
        factory = InspectorRowFactory { [weak self] item in self?.row(for: item) }
        listView = gtk_list_view_new(OpaquePointer(selection.rawPointer), factory.factory)!
        g_object_ref(listView.rawPointer)  // ours too: a scroll waiting in an idle may outlive the window
        g_object_ref(selection.rawPointer)  // the list view took the first reference
        gtk_widget_add_css_class(listView, "inspector-list")
        cgtk_accessible_set_label(listView, tr("Events"))
        gtk_scrolled_window_set_child(opaque(scroller), listView)
        // A scroll bar that stays: GTK's overlay indicator fades in and out over about 50
        // frames of the whole window each time the list follows a new row.
        gtk_scrolled_window_set_overlay_scrolling(opaque(scroller), 0)
        gtk_widget_set_vexpand(scroller, 1)
        Accessibility.nameScrollBars(of: scroller, tr("Events"))

        gtk_text_view_set_editable(cast(detail), 0)
        gtk_text_view_set_monospace(cast(detail), 1)
        gtk_text_view_set_wrap_mode(cast(detail), GTK_WRAP_WORD_CHAR)
        cgtk_accessible_set_label(detail, tr("Event detail"))
        let detailScroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(opaque(detailScroller), detail)
        gtk_widget_set_size_request(detailScroller, -1, 110)
        gtk_widget_add_css_class(detailScroller, "inspector-detail")
        gtk_widget_set_vexpand(detailScroller, 0)
        Accessibility.nameScrollBars(of: detailScroller, tr("Event detail"))
        self.detailScroller = detailScroller

        gtk_label_set_xalign(opaque(timingLabel), 0)
        gtk_label_set_yalign(opaque(timingLabel), 0)
        gtk_label_set_wrap(opaque(timingLabel), 1)
        gtk_widget_add_css_class(timingLabel, "monospace")
        cgtk_accessible_set_label(timingLabel, tr("Timing"))
        let timingScroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(opaque(timingScroller), timingLabel)
        gtk_widget_set_size_request(timingScroller, -1, 160)
        gtk_widget_set_visible(timingScroller, 0)
        Accessibility.nameScrollBars(of: timingScroller, tr("Timing"))
        self.timingScroller = timingScroller

        gtk_label_set_xalign(opaque(checklistLabel), 0)
        gtk_label_set_yalign(opaque(checklistLabel), 0)
        gtk_label_set_wrap(opaque(checklistLabel), 1)
        gtk_label_set_selectable(opaque(checklistLabel), 1)
        cgtk_accessible_set_label(checklistLabel, tr("Checklist"))
        let checklistScroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(opaque(checklistScroller), checklistLabel)
        gtk_widget_set_size_request(checklistScroller, -1, 200)
        gtk_widget_set_vexpand(checklistScroller, 1)
        Accessibility.nameScrollBars(of: checklistScroller, tr("Checklist"))
        let copyChecklist = gtk_button_new_with_label(tr("Copy report"))!
        let saveChecklist = gtk_button_new_with_label(tr("Save report…"))!
        let checklistTools = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        for widget in [copyChecklist, saveChecklist] { gtk_box_append(cast(checklistTools), widget) }
        let checklistView = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        for widget in [checklistScroller, checklistTools] { gtk_box_append(cast(checklistView), widget) }
        gtk_widget_set_visible(checklistView, 0)
        self.checklistView = checklistView
        onSignal(copyChecklist, "clicked", checklist.copy)
        onSignal(saveChecklist, "clicked", checklist.save)

        for widget in [header, tools, kindBar, viewRow, scroller, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!, detailScroller,
                       timingScroller, checklistView] {
            gtk_box_append(cast(container), widget)
        }
        onSignal(timingButton, "toggled") { [weak self] in
            guard let self else { return }
            timingShown = gtk_toggle_button_get_active(cast(timingButton)) != 0
            if timingShown { gtk_toggle_button_set_active(cast(checklistButton), 0) }
            gtk_widget_set_visible(timingScroller, timingShown ? 1 : 0)
            gtk_widget_set_visible(detailScroller, timingShown || checklistShown ? 0 : 1)
            if timingShown { showTiming() }
        }
        onSignal(checklistButton, "toggled") { [weak self] in
            guard let self else { return }
            checklistShown = gtk_toggle_button_get_active(cast(checklistButton)) != 0
            if checklistShown { gtk_toggle_button_set_active(cast(timingButton), 0) }
            gtk_widget_set_visible(checklistView, checklistShown ? 1 : 0)
            gtk_widget_set_visible(detailScroller, timingShown || checklistShown ? 0 : 1)
            if checklistShown { refreshChecklist() }
        }
        // An outlier's link ("row:N") selects its row and shows its detail.
        onStringBoolSignal(timingLabel, "activate-link") { [weak self] uri in
            guard let self, uri.hasPrefix("row:"), let number = Int(uri.dropFirst(4)) else { return false }
            selectRow(number: number)
            return true
        }

        onSignal(pauseButton, "toggled") { [weak self] in
            guard let self else { return }
            log.isPaused = gtk_toggle_button_get_active(cast(pauseButton)) != 0
        }
        onSignal(clearButton, "clicked") { [weak self] in self?.clear() }
        onSignal(saveButton, "clicked", save)
        onSignal(copyButton, "clicked", copyReport)
        onSignal(searchEntry, "search-changed") { [weak self] in
            guard let self else { return }
            search = string(fromBorrowed: gtk_editable_get_text(OpaquePointer(searchEntry.rawPointer)))
            refilter()
        }
        for (kind, button) in kindButtons {
            onSignal(button, "toggled") { [weak self] in
                guard let self else { return }
                if gtk_toggle_button_get_active(cast(button)) != 0 { kinds.insert(kind) } else { kinds.remove(kind) }
                refilter()
            }
        }
        onNotify(selection, property: "selected-item") { [weak self] in self?.showDetail() }
        let adjustment = gtk_scrolled_window_get_vadjustment(opaque(scroller))!
        onSignal(adjustment, "value-changed") { [weak self] in
            self?.followsNewest = gtk_adjustment_get_value(adjustment) + gtk_adjustment_get_page_size(adjustment)
                >= gtk_adjustment_get_upper(adjustment) - 2
        }
        reload()
    }

    /// The row filter (kinds and search); set once `self` exists.
    private var filterObject: UnsafeMutablePointer<GtkFilter>?

    isolated deinit {
        g_object_unref(listView.rawPointer)
        g_object_unref(UnsafeMutableRawPointer(items))
        g_object_unref(UnsafeMutableRawPointer(selection))
    }

    /// The row an item of the list stands for: its string is the row's number.
    private func row(for item: UnsafeMutableRawPointer?) -> InspectorRow? {
        guard let item, log.count > 0,
              let number = Int(string(fromBorrowed: gtk_string_object_get_string(OpaquePointer(item)))) else { return nil }
        let index = number - log[0].number
        return (0..<log.count).contains(index) ? log[index] : nil
    }

    /// A new row of the log: shown with the rows that come within `batchMilliseconds` of
    /// it, in one change of the list (`showPendingRows`).
    ///
    /// A key's rows come in three bursts: the key, its answer and the settle at once, the
    /// painted frame about 10 ms later, the candidate window's placement about 100 ms
    /// later. Each burst shown at once was a frame of the whole window (four a key, with
    /// the list's scroll), and on a software renderer each frame costs about as much as
    /// the window's pixels: open, the inspector cost each key twelve times a closed one's
    /// CPU. Batched, a key's rows are one frame.
    func appended(_ row: InspectorRow) {
        pendingRows.append(row.number)
        pendingPainted.append(contentsOf: log.lastPainted)
        if gtk_widget_get_mapped(container) == 0 {
            // Hidden, no frame to spare: at once, without a timer waking the process.
            showPendingRows()
        } else if !rowsWaiting {
            rowsWaiting = true
            g_timeout_add_once(Self.batchMilliseconds, { data in
                MainActor.assumeIsolated {
                    let pane = Unmanaged<InspectorPane>.fromOpaque(data!).takeRetainedValue()
                    // Not after the window is gone (the list view is ours).
                    pane.rowsWaiting = false
                    if gtk_widget_get_root(pane.listView) != nil { pane.showPendingRows() }
                }
            }, Unmanaged.passRetained(self).toOpaque())
        }
        if checklistShown, !checklistRefreshPending {
            checklistRefreshPending = true
            g_idle_add_once({ data in
                MainActor.assumeIsolated {
                    let pane = Unmanaged<InspectorPane>.fromOpaque(data!).takeRetainedValue()
                    pane.checklistRefreshPending = false
                    if pane.checklistShown, gtk_widget_get_root(pane.listView) != nil { pane.refreshChecklist() }
                }
            }, Unmanaged.passRetained(self).toOpaque())
        }
        if timingShown, !timingRefreshPending {
            // Once per burst of rows: the report sorts every key's times.
            timingRefreshPending = true
            g_timeout_add_once(250, { data in
                MainActor.assumeIsolated {
                    let pane = Unmanaged<InspectorPane>.fromOpaque(data!).takeRetainedValue()
                    pane.timingRefreshPending = false
                    // Not after the window is gone (the list view is ours; the label is not).
                    if pane.timingShown, gtk_widget_get_root(pane.listView) != nil { pane.showTiming() }
                }
            }, Unmanaged.passRetained(self).toOpaque())
        }
    }

    /// How long a row waits for the rows after it before the list shows them.
    static let batchMilliseconds: guint = 150
    /// Rows appended to the log, not yet in the list, and key rows painted since.
    private var pendingRows: [Int] = []
    private var pendingPainted: [Int] = []
    /// A batch timer is running: rows wait for it.
    private(set) var rowsWaiting = false

    /// The rows waiting, in one change of the list; the rows the log dropped leave it; the
    /// key rows painted say when; the list follows the newest row unless the user scrolled
    /// up (GTK 4.8 has no gtk_list_view_scroll_to: its "list.scroll-to-item" action does
    /// the same).
    func showPendingRows() {
        let numbers = pendingRows, painted = pendingPainted
        pendingRows = []
        pendingPainted = []
        guard log.count > 0 else { return }
        let first = log[0].number
        let kept = numbers.filter { $0 >= first }
        if !kept.isEmpty { replaceItems(from: g_list_model_get_n_items(OpaquePointer(items.rawPointer)), count: 0, with: kept) }
        let surplus = Int(g_list_model_get_n_items(OpaquePointer(items.rawPointer))) - log.count
        if surplus > 0 { gtk_string_list_splice(items, 0, guint(surplus), nil) }
        // Keys whose frame was painted: their rows on screen say when (in place: replacing
        // their items would change the model, and GTK would measure the list).
        let paintedRows = painted.compactMap { number in (0..<log.count).contains(number - first) ? log[number - first] : nil }
        factory.refresh(paintedRows, under: listView)
        if !paintedRows.isEmpty {
            // The summary a search reads has changed ("→ painted after"), and so has the
            // detail if one of them is selected.
            if !search.isEmpty { refilter() }
            if let selected = row(for: gtk_single_selection_get_selected_item(selection)),
               paintedRows.contains(where: { $0.number == selected.number }) { showDetail() }
        }
        if followsNewest, !kept.isEmpty { scrollToNewest() }
    }

    private func scrollToNewest() {
        let count = g_list_model_get_n_items(OpaquePointer(selection.rawPointer))
        guard count > 0, gtk_widget_get_root(listView) != nil else { return }  // not after the window is gone
        gtk_widget_activate_action_variant(listView, "list.scroll-to-item", g_variant_new_uint32(count - 1))
    }

    /// "Clear": the log and the list empty (the rules keep following the session).
    func clear() {
        log.clear()
        reload()
        if checklistShown { refreshChecklist() }
    }

    /// The list again from the log (after Clear; the rows waiting are in the log).
    func reload() {
        pendingRows = []
        pendingPainted = []
        replaceItems(from: 0, count: g_list_model_get_n_items(OpaquePointer(items.rawPointer)), with: log.rows.map(\.number))
        showDetail()
    }

    /// The list's items `position..<position + count` replaced, in one change, by the rows
    /// numbered `numbers` (each item's string is its row's number).
    private func replaceItems(from position: guint, count: guint, with numbers: [Int]) {
        let names = numbers.map { strdup("\($0)") } + [nil]
        defer { names.forEach { free($0) } }
        names.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_string_list_splice(items, position, count, $0)
            }
        }
    }

    /// The Timing view from the log's timing: each measure's summary and histogram, its
    /// slowest and slow keys linked to their rows.
    func showTiming() {
        func escaped(_ text: String) -> String { string(takingOwnership: g_markup_escape_text(text, -1)) }
        let lines = TimingReport(log.timing).parts.map { parts in
            parts.map { part -> String in
                switch part {
                case .text(let text): escaped(text)
                case .heading(let text): "<b>\(escaped(text))</b>"
                case let .row(row, text): "<a href=\"row:\(row)\">\(escaped(text))</a>"
                }
            }.joined()
        }
        gtk_label_set_markup(opaque(timingLabel), lines.joined(separator: "\n"))
    }

    var timingLabelForTests: UnsafeMutablePointer<GtkWidget> { timingLabel }
    /// The Checklist view on or off (its toggle).
    func showChecklist(_ shown: Bool) {
        gtk_toggle_button_set_active(cast(checklistButton), shown ? 1 : 0)
    }

    /// Each item: its mark, its name, and its reason or what to do.
    func refreshChecklist() {
        let words = checklistActions.words()
        let limit = log.checklist.sessionLimit
        func escaped(_ text: String) -> String { string(takingOwnership: g_markup_escape_text(text, -1)) }
        var lines = ["<small>" + escaped("What to type: \(words.source). Ctrl+Shift+C copies this report.") + "</small>"]
        for item in ChecklistItem.allCases {
            let verdict = log.checklist.result(item).verdict
            let colour: String
            switch verdict {
            case .passed: colour = "#26a269"
            case .failed: colour = "#c01c28"
            case .notTried: colour = "#77767b"
            }
            lines.append("<span foreground=\"\(colour)\">\(verdict.symbol)</span> <b>\(escaped(item.title))</b>: "
                + escaped(ChecklistReport.line(item, verdict, words, limit)))
        }
        gtk_label_set_markup(opaque(checklistLabel), lines.joined(separator: "\n"))
    }

    /// The Checklist view's text (tests).
    var checklistText: String { string(fromBorrowed: gtk_label_get_text(opaque(checklistLabel))) }

    /// The Timing view's text (tests).
    var timingText: String { string(fromBorrowed: gtk_label_get_text(opaque(timingLabel))) }

    /// Selects row `number` in the list (showing every kind and clearing the search if it
    /// was filtered out) and shows its detail in place of the Timing view.
    func selectRow(number: Int) {
        if rowsWaiting { showPendingRows() }
        if !shownRows.contains(where: { $0.number == number }) {
            for button in kindButtons.values { gtk_toggle_button_set_active(cast(button), 1) }
            gtk_editable_set_text(OpaquePointer(searchEntry.rawPointer), "")
            search = ""
            refilter()
        }
        guard let index = shownRows.firstIndex(where: { $0.number == number }) else { return }
        gtk_toggle_button_set_active(cast(timingButton), 0)
        gtk_single_selection_set_selected(selection, guint(index))
        gtk_widget_activate_action_variant(listView, "list.scroll-to-item", g_variant_new_uint32(guint(index)))
    }

    func setEnvironment(_ lines: [String]) {
        gtk_label_set_text(opaque(header), lines.joined(separator: " · "))
    }

    /// Rows shown now (after the filter), for tests.
    var shownRows: [InspectorRow] {
        let model = gtk_single_selection_get_model(selection)
        return (0..<g_list_model_get_n_items(model)).compactMap { index in
            guard let item = g_list_model_get_item(model, index) else { return nil }
            defer { g_object_unref(item) }
            return row(for: item)
        }
    }

    /// Selects the shown row at `index` (tests; a click does the same).
    func select(shownIndex index: Int) {
        gtk_single_selection_set_selected(selection, guint(index))
    }

    /// The summaries of the rows on screen (the list view makes widgets only for them).
    var visibleSummaries: [(text: String, attributes: String)] {
        var found: [(String, String)] = []
        walkWidgets(from: scroller) { widget in
            guard gtk_widget_has_css_class(widget, "inspector-row") != 0,
                  let time = gtk_widget_get_first_child(widget), let kind = gtk_widget_get_next_sibling(time),
                  let summary = gtk_widget_get_next_sibling(kind) else { return true }
            let attributes = gtk_inscription_get_attributes(opaque(summary))
            found.append((string(fromBorrowed: gtk_inscription_get_text(opaque(summary))),
                          attributes.map { string(takingOwnership: pango_attr_list_to_string($0)) } ?? ""))
            return false
        }
        return found
    }

    /// The summaries on screen, laid out (a row bound since the last frame is not yet),
    /// and whether each is drawn past its own height, where an inscription cuts it off:
    /// laid out as the inscription does, its ink (underlines included) placed as the
    /// inscription places it.
    var summaryFits: [(text: String, cutOff: Bool)] {
        var found: [(String, Bool)] = []
        walkWidgets(from: scroller) { widget in
            guard gtk_widget_has_css_class(widget, "inspector-summary") != 0 else { return true }
            let text = string(fromBorrowed: gtk_inscription_get_text(opaque(widget)))
            let height = gtk_widget_get_height(widget)
            guard height > 0, !text.isEmpty, let layout = gtk_widget_create_pango_layout(widget, text) else { return false }
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            pango_layout_set_attributes(layout, gtk_inscription_get_attributes(opaque(widget)))
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_pixel_extents(layout, &ink, &logical)
            let top = max(0, (height - logical.height) / 2)
            found.append((text, top + ink.y < 0 || top + ink.y + ink.height > height))
            return false
        }
        return found
    }

    /// Each row on screen: its natural width and height as GTK measures them, and its
    /// summary.
    var rowSizes: [(width: Int32, height: Int32, summary: String)] {
        var found: [(Int32, Int32, String)] = []
        walkWidgets(from: scroller) { widget in
            guard gtk_widget_has_css_class(widget, "inspector-row") != 0 else { return true }
            var width: Int32 = 0, height: Int32 = 0
            gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, nil, &width, nil, nil)
            gtk_widget_measure(widget, GTK_ORIENTATION_VERTICAL, -1, nil, &height, nil, nil)
            let summary = gtk_widget_get_next_sibling(gtk_widget_get_next_sibling(gtk_widget_get_first_child(widget)))
            found.append((width, height, string(fromBorrowed: gtk_inscription_get_text(opaque(summary!)))))
            return false
        }
        return found
    }

    var fadesItsScrollIndicator: Bool { gtk_scrolled_window_get_overlay_scrolling(opaque(scroller)) != 0 }

    /// The list view's model (the filtered rows, as the selection gives them).
    var listModel: OpaquePointer { selection }

    var detailText: String {
        let buffer = gtk_text_view_get_buffer(cast(detail))!
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        return string(takingOwnership: gtk_text_buffer_get_text(buffer, &start, &end, 0))
    }

    private func refilter() {
        guard let filterObject else { return }
        gtk_filter_changed(filterObject, GTK_FILTER_CHANGE_DIFFERENT)
    }

    private func showDetail() {
        let buffer = gtk_text_view_get_buffer(cast(detail))!
        let item = gtk_single_selection_get_selected_item(selection)
        let text = row(for: item).map { InspectorDetail.lines(for: $0).joined(separator: "\n") } ?? ""
        gtk_text_buffer_set_text(buffer, text, -1)
    }
}
