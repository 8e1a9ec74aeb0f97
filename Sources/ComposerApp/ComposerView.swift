import CGtk
import ComposerCore
import GtkBinding

/// The widgets of the composer and nothing else: message list on top, the input bar
/// (growing text view, counter, Send) at the bottom. Wiring lives in `ComposerController`.
final class ComposerView {
    static let title = "IME Composer"
    /// The input's narrowest width, in pixels: about a dozen CJK characters.
    static let inputMinimumWidth: Int32 = 160

    let window: UnsafeMutablePointer<GtkWidget>
    let messageList = MessageList()
    let textView: UnsafeMutablePointer<GtkWidget>
    let buffer: TextBuffer
    let inputScroller: UnsafeMutablePointer<GtkWidget>
    /// Sizes the input to its text (`InputSizer`).
    let inputSizer: InputSizer
    /// What is left of the limit. A GtkInscription, not a GtkLabel: its size is fixed by
    /// character counts, so new text only redraws it. A label's new text resized and
    /// re-allocated the whole window on every keystroke.
    let counterLabel: UnsafeMutablePointer<GtkWidget>
    /// The counter for screen readers: a status named with the count in words.
    let counterStatus: UnsafeMutablePointer<GtkWidget>
    let sendButton: UnsafeMutablePointer<GtkWidget>
    /// "Trim to limit": shown only while the text is over the limit.
    let trimButton: UnsafeMutablePointer<GtkWidget>
    /// Why Send did nothing (over the limit); shown after a refused Enter.
    let limitHint: UnsafeMutablePointer<GtkWidget>
    /// What the profile's store must tell the user (a damaged file moved aside, saving
    /// off); above the messages, hidden while there is nothing to say.
    let storeNotice: UnsafeMutablePointer<GtkWidget>
    /// The vertical stack of regions the layout solver sizes (`PanelLayout`).
    let panel: UnsafeMutablePointer<GtkWidget>
    let inputBar: UnsafeMutablePointer<GtkWidget>
    let separator: UnsafeMutablePointer<GtkWidget>
    /// "Hanako is typing…", above the input bar.
    let typingIndicator: UnsafeMutablePointer<GtkWidget>
    /// ← ↑ ↓ → above the input bar while a keyboard is up (it has no arrow keys).
    let caretToolbar: UnsafeMutablePointer<GtkWidget>
    let caretButtons: [(CaretDirection, UnsafeMutablePointer<GtkWidget>)]
    /// Shows or hides the caret toolbar by hand.
    let toolbarToggle: UnsafeMutablePointer<GtkWidget>
    /// The simulated keyboard (`--osk-inset`): a reserved area at the bottom, and its toggle.
    let keyboardArea: UnsafeMutablePointer<GtkWidget>
    let keyboardToggle: UnsafeMutablePointer<GtkWidget>
    /// The input bar's "IME" toggle for the inspector (F12 flips it too) and where it goes,
    /// beside the panel; empty until it is first opened.
    let inspectorToggle: UnsafeMutablePointer<GtkWidget>
    let inspectorSlot: UnsafeMutablePointer<GtkWidget>
    /// The composer and the inspector side by side (a GtkPaned).
    let columns: UnsafeMutablePointer<GtkWidget>

    /// The completion slot, above the input bar.
    let completionList = CompletionListView()
    /// Marks the committed text past the limit.
    let overflowTag: UnsafeMutablePointer<GtkTextTag>
    /// Marks @mentions, #channels and :shortcodes: in the text.
    let highlightTags: [HighlightKind: UnsafeMutablePointer<GtkTextTag>]
    /// Shows invisible and bidirectional controls (`InvisibleControls`) as boxes.
    let controlTag: UnsafeMutablePointer<GtkTextTag>

    init() {
        Style.install()
        window = gtk_window_new()
        gtk_window_set_title(cast(window), Self.title)
        gtk_window_set_icon_name(cast(window), ComposerApplication.applicationID)
        gtk_window_set_default_size(cast(window), 480, 600)

        textView = gtk_text_view_new()
        gtk_text_view_set_wrap_mode(cast(textView), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(cast(textView), 0)
        gtk_text_view_set_top_margin(cast(textView), 6)
        gtk_text_view_set_bottom_margin(cast(textView), 6)
        gtk_text_view_set_left_margin(cast(textView), 8)
        gtk_text_view_set_right_margin(cast(textView), 8)
        gtk_widget_add_css_class(textView, "composer-input")
        // Accessible names (what a screen reader says) are set where each widget is made,
        // next to its tooltip: user-facing strings, one place per widget.
        // TRANSLATORS: the input where the message is typed, as a screen reader names it.
        cgtk_accessible_set_label(textView, tr("Message"))
        buffer = TextBuffer(gtk_text_view_get_buffer(cast(textView)))
        gtk_text_buffer_set_enable_undo(buffer.pointer, 1)
        overflowTag = buffer.createTag(named: "overflow")
        var tags: [HighlightKind: UnsafeMutablePointer<GtkTextTag>] = [:]
        for kind in HighlightKind.allCases { tags[kind] = buffer.createTag(named: kind.rawValue) }
        highlightTags = tags
        controlTag = buffer.createTag(named: "invisible-control")
        cgtk_style_control_tag(controlTag)
        // The overflow colour wins over a mention's: it is the more urgent news.
        gtk_text_tag_set_priority(overflowTag, gtk_text_tag_table_get_size(gtk_text_buffer_get_tag_table(buffer.pointer)) - 1)

        inputScroller = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(opaque(inputScroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(opaque(inputScroller), 1)
        gtk_scrolled_window_set_child(opaque(inputScroller), textView)
        gtk_widget_set_hexpand(inputScroller, 1)
        // Room for a dozen characters whatever else the input bar shows (counter, Trim, the
        // toggles): the panel's minimum width, and so the window's, follows from it.
        gtk_widget_set_size_request(inputScroller, Self.inputMinimumWidth, -1)
        gtk_widget_set_valign(inputScroller, GTK_ALIGN_END)
        Accessibility.nameScrollBars(of: inputScroller, tr("Message"))
        inputSizer = InputSizer(textView: textView, inputScroller: inputScroller, buffer: buffer)

        counterLabel = gtk_inscription_new("0")
        // Room for "−1048576" (a 1 MB draft over the limit) and right-aligned like a label
        // of its own width.
        gtk_inscription_set_min_chars(opaque(counterLabel), 4)
        gtk_inscription_set_nat_chars(opaque(counterLabel), 8)
        gtk_inscription_set_xalign(opaque(counterLabel), 1)
        gtk_widget_add_css_class(counterLabel, "counter")
        gtk_widget_add_css_class(counterLabel, "dim-label")
        gtk_widget_set_valign(counterLabel, GTK_ALIGN_END)
        gtk_widget_set_margin_bottom(counterLabel, 8)
        // For screen readers the counter is a status (a polite live region) around it, whose
        // accessible name says the count in words and changes with it (`show`): AT-SPI
        // reports a name change. The inscription itself is left out: it names itself with
        // its bare number on every change, a second name change a keystroke.
        cgtk_accessible_set_hidden(counterLabel, 1)
        counterStatus = cgtk_widget_new_with_role(gtk_box_get_type(), GTK_ACCESSIBLE_ROLE_STATUS)
        gtk_box_append(cast(counterStatus), counterLabel)

        sendButton = gtk_button_new_with_label(tr("Send"))
        gtk_widget_add_css_class(sendButton, "suggested-action")
        gtk_widget_set_valign(sendButton, GTK_ALIGN_END)
        Self.keepFocusOffButton(sendButton)

        trimButton = gtk_button_new_from_icon_name("edit-cut-symbolic")
        gtk_widget_set_tooltip_text(trimButton, tr("Trim to limit (Ctrl+Shift+T)"))
        cgtk_accessible_set_label(trimButton, tr("Trim to limit"))
        gtk_widget_set_valign(trimButton, GTK_ALIGN_END)
        Self.keepFocusOffButton(trimButton)
        gtk_widget_set_visible(trimButton, 0)

        // Role alert (an assertive live region): AT-SPI calls it a notification. GTK 4.8 does
        // not tell AT-SPI when a hidden widget appears, so the input says it too (`showLimitHint`).
        limitHint = cgtk_widget_new_with_role(gtk_label_get_type(), GTK_ACCESSIBLE_ROLE_ALERT)
        gtk_widget_add_css_class(limitHint, "limit-hint")
        gtk_widget_add_css_class(limitHint, "error")
        gtk_label_set_wrap(opaque(limitHint), 1)
        gtk_label_set_xalign(opaque(limitHint), 0)
        gtk_widget_set_margin_start(limitHint, 10)
        gtk_widget_set_margin_end(limitHint, 10)
        gtk_widget_set_margin_top(limitHint, 4)
        gtk_widget_set_visible(limitHint, 0)

        storeNotice = cgtk_widget_new_with_role(gtk_label_get_type(), GTK_ACCESSIBLE_ROLE_ALERT)
        gtk_widget_add_css_class(storeNotice, "store-notice")
        gtk_widget_add_css_class(storeNotice, "warning")
        gtk_label_set_wrap(opaque(storeNotice), 1)
        gtk_label_set_wrap_mode(opaque(storeNotice), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(opaque(storeNotice), 0)
        gtk_label_set_selectable(opaque(storeNotice), 1)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top,
                       gtk_widget_set_margin_bottom] {
            margin(storeNotice, 6)
        }
        gtk_widget_set_visible(storeNotice, 0)

        typingIndicator = cgtk_widget_new_with_role(gtk_label_get_type(), GTK_ACCESSIBLE_ROLE_STATUS)
        gtk_widget_add_css_class(typingIndicator, "typing-indicator")
        gtk_widget_add_css_class(typingIndicator, "dim-label")
        gtk_label_set_xalign(opaque(typingIndicator), 0)
        gtk_label_set_ellipsize(opaque(typingIndicator), PANGO_ELLIPSIZE_END)
        gtk_widget_set_margin_start(typingIndicator, 12)
        gtk_widget_set_visible(typingIndicator, 0)

        caretToolbar = cgtk_widget_new_with_role(gtk_box_get_type(), GTK_ACCESSIBLE_ROLE_TOOLBAR)
        gtk_orientable_set_orientation(opaque(caretToolbar), GTK_ORIENTATION_HORIZONTAL)
        gtk_box_set_spacing(cast(caretToolbar), 4)
        gtk_widget_add_css_class(caretToolbar, "caret-toolbar")
        // TRANSLATORS: the toolbar of caret arrows, as a screen reader names it.
        cgtk_accessible_set_label(caretToolbar, tr("Caret"))
        gtk_widget_set_halign(caretToolbar, GTK_ALIGN_CENTER)
        var buttons: [(CaretDirection, UnsafeMutablePointer<GtkWidget>)] = []
        // The tooltip is the accessible name too: an icon-only button has no other.
        for (direction, icon, tip) in [(CaretDirection.left, "go-previous-symbolic", tr("Caret left")),
                                       (.up, "go-up-symbolic", tr("Caret up a line")),
                                       (.down, "go-down-symbolic", tr("Caret down a line")),
                                       (.right, "go-next-symbolic", tr("Caret right"))] {
            let button = gtk_button_new_from_icon_name(icon)!
            gtk_widget_set_tooltip_text(button, tip)
            cgtk_accessible_set_label(button, tip)
            Self.keepFocusOffButton(button)
            gtk_box_append(cast(caretToolbar), button)
            buttons.append((direction, button))
        }
        caretButtons = buttons
        gtk_widget_set_visible(caretToolbar, 0)

        // Not in a header bar: a GtkHeaderBar makes GTK draw client-side decorations, and on
        // X11 without a compositor that made every keystroke's frame several times as slow to
        // paint (`make bench`, keystroke to first paint). The input bar's toggles cost what a
        // button costs.
        inspectorToggle = Accessibility.toggleButton(label: "IME")
        gtk_widget_set_tooltip_text(inspectorToggle, tr("The IME inspector: every input event and decision (F12)"))
        cgtk_accessible_set_label(inspectorToggle, tr("IME inspector"))
        toolbarToggle = Accessibility.toggleButton()
        gtk_button_set_icon_name(cast(toolbarToggle), "format-justify-fill-symbolic")
        gtk_widget_set_tooltip_text(toolbarToggle, tr("Caret toolbar"))
        cgtk_accessible_set_label(toolbarToggle, tr("Caret toolbar"))
        keyboardToggle = Accessibility.toggleButton()
        gtk_button_set_icon_name(cast(keyboardToggle), "input-keyboard-symbolic")
        gtk_widget_set_tooltip_text(keyboardToggle, tr("Simulated on-screen keyboard"))
        cgtk_accessible_set_label(keyboardToggle, tr("Simulated on-screen keyboard"))
        gtk_widget_set_visible(keyboardToggle, 0)
        for toggle in [inspectorToggle, toolbarToggle, keyboardToggle] {
            Self.keepFocusOffButton(toggle)
            gtk_widget_set_valign(toggle, GTK_ALIGN_END)
        }

        keyboardArea = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_add_css_class(keyboardArea, "simulated-keyboard")
        gtk_widget_set_visible(keyboardArea, 0)

        let inputBar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_add_css_class(inputBar, "input-bar")
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end,
                       gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] {
            margin(inputBar, 6)
        }
        gtk_box_append(cast(inputBar), inputScroller)
        gtk_box_append(cast(inputBar), counterStatus)
        gtk_box_append(cast(inputBar), trimButton)
        gtk_box_append(cast(inputBar), inspectorToggle)
        gtk_box_append(cast(inputBar), toolbarToggle)
        gtk_box_append(cast(inputBar), keyboardToggle)
        gtk_box_append(cast(inputBar), sendButton)
        self.inputBar = inputBar

        panel = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        separator = gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)
        // The input says which list it completes from (AT-SPI's "controller for").
        cgtk_accessible_set_controls(textView, completionList.list)
        gtk_box_append(cast(panel), storeNotice)
        gtk_box_append(cast(panel), messageList.scrolledWindow)
        gtk_box_append(cast(panel), separator)
        gtk_box_append(cast(panel), completionList.container)
        gtk_box_append(cast(panel), typingIndicator)
        gtk_box_append(cast(panel), limitHint)
        gtk_box_append(cast(panel), caretToolbar)
        gtk_box_append(cast(panel), inputBar)
        gtk_box_append(cast(panel), keyboardArea)
        gtk_widget_set_hexpand(panel, 1)
        inspectorSlot = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_set_visible(inspectorSlot, 0)
        // The inspector beside the composer, its divider draggable. Neither shrinks below its
        // minimum; a wider window widens the composer, as a sidebar does.
        columns = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL)!
        gtk_paned_set_start_child(opaque(columns), panel)
        gtk_paned_set_end_child(opaque(columns), inspectorSlot)
        gtk_paned_set_shrink_start_child(opaque(columns), 0)
        gtk_paned_set_shrink_end_child(opaque(columns), 0)
        gtk_paned_set_resize_end_child(opaque(columns), 0)
        // GTK 4.8 names the paned and its handle after their types for screen readers: the
        // paned gets a name, the handle (a pointer-only divider) is left out.
        cgtk_accessible_set_label(columns, tr("Composer and IME inspector"))
        var child = gtk_widget_get_first_child(columns)
        while let widget = child {
            if widget != panel, widget != inspectorSlot { cgtk_accessible_set_hidden(widget, 1) }
            child = gtk_widget_get_next_sibling(widget)
        }
        gtk_window_set_child(cast(window), columns)

        completionList.onSelectionShown = { [weak self] row, spoken in self?.showSuggestion(row, spoken) }
        // Coloured before any text is laid out; again at realize only if the theme differs.
        styleTags()
    }

    /// Every button of the composer leaves focus in the text view: a click must not end the
    /// input method's composition, hide the on-screen keyboard or lose the caret.
    private static func keepFocusOffButton(_ button: UnsafeMutablePointer<GtkWidget>) {
        gtk_widget_set_focus_on_click(button, 0)
        gtk_widget_set_focusable(button, 0)
    }

    /// Whether the text view's text is light (a dark theme): tag colours must read on it.
    private var hasDarkTheme: Bool {
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(textView), &color)
        return 0.2126 * color.red + 0.7152 * color.green + 0.0722 * color.blue > 0.5
    }

    /// Whether the tags were last coloured for a dark theme; nil before the first time.
    private(set) var tagsStyledDark: Bool?

    /// The theme changed (a dark-style switch, another theme): the text view's colours are
    /// the new ones only once GTK has restyled it, in the next frame's layout phase, so the
    /// tags are coloured again after that frame is painted.
    func styleTagsAfterNextFrame() {
        afterNextFrame { [weak self] in self?.styleTags() }
        gtk_widget_queue_draw(window)
    }

    /// Runs `body` once, after the window's next painted frame; before the window is
    /// realized (it has no frame clock yet), after its first frame.
    func afterNextFrame(_ body: @escaping () -> Void) {
        let window = window
        guard gtk_widget_get_realized(window) != 0 else {
            var realized: gulong = 0
            realized = onSignal(window, "realize", after: true) { [weak self] in
                g_signal_handler_disconnect(window.rawPointer, realized)
                self?.afterNextFrame(body)
            }
            return
        }
        guard let clock = gtk_widget_get_frame_clock(window) else { return }
        var painted: gulong = 0
        painted = onSignal(clock, "after-paint") {
            g_signal_handler_disconnect(clock.rawPointer, painted)
            body()
        }
    }

    /// Colours the overflow and highlight tags for the current theme: colours that read on
    /// the text view's background, chosen from how light its text colour is. Only when the
    /// choice changes: restyling a tag makes GTK lay out again every line that carries it
    /// (a 1 MB draft over the limit: all of it).
    func styleTags() {
        let dark = hasDarkTheme
        guard dark != tagsStyledDark else { return }
        tagsStyledDark = dark
        if dark {
            cgtk_style_overflow_tag(overflowTag, "#ff7b63", "rgba(255,123,99,0.18)")
        } else {
            cgtk_style_overflow_tag(overflowTag, "#c01c28", "rgba(224,27,36,0.12)")
        }
        let colors: [HighlightKind: String] = dark
            ? [.mention: "#99c1f1", .channel: "#8ff0a4", .emoji: "#f9f06b"]
            : [.mention: "#1a5fb4", .channel: "#26a269", .emoji: "#a51d2d"]
        for (kind, tag) in highlightTags { cgtk_style_highlight_tag(tag, colors[kind]!) }
    }

    /// What `show(_:)` last showed: an unchanged state touches no widget (a
    /// tooltip alone costs more than the rest of a keystroke's bookkeeping).
    private var shownLimit: LimitStatus?

    /// Shows the limit's state: what is left, an error style when over, a provisional
    /// style while a composition is counted in; the trim action only when over.
    func show(_ status: LimitStatus) {
        let previous = shownLimit
        if let previous, previous == status { return }
        shownLimit = status
        gtk_inscription_set_text(opaque(counterLabel), status.counterText)
        if previous?.isOver != status.isOver { cgtk_accessible_set_invalid(textView, status.isOver ? 1 : 0) }
        // Transparent rather than hidden: its room stays, so nothing moves when it appears
        // (and a GTK widget at opacity 0 is not drawn at all).
        if previous?.counterIsShown != status.counterIsShown {
            gtk_widget_set_opacity(counterLabel, status.counterIsShown ? 1 : 0)
        }
        if previous?.counterIsOver != status.counterIsOver {
            setClass("error", on: counterLabel, status.counterIsOver)
            setClass("dim-label", on: counterLabel, !status.counterIsOver)
        }
        if previous?.isProvisional != status.isProvisional {
            setClass("provisional", on: counterLabel, status.isProvisional)
        }
        // A new tooltip makes GTK ask the X server where the pointer is (a round trip):
        // set it only when it changes, not on every keystroke.
        if previous?.isProvisional != status.isProvisional || previous == nil {
            gtk_widget_set_tooltip_text(counterLabel, Self.counterTooltip(provisional: status.isProvisional))
        }
        // Its sensitivity is the trim action's (`ComposerActions`).
        gtk_widget_set_visible(trimButton, status.isOver ? 1 : 0)
        if !status.isOver {
            gtk_widget_set_visible(limitHint, 0)
            inputAnnouncements.hint = nil
        }
    }

    /// The counter's accessible name last set.
    private(set) var shownCounterSpoken: String?

    /// Gives the counter its words for screen readers (`CounterSpeech`
    /// calls it once typing pauses). Far from the limit the counter is not shown, and not
    /// spoken either.
    func speakCounter(_ status: LimitStatus) {
        cgtk_accessible_set_hidden(counterStatus, status.counterIsShown ? 0 : 1)
        guard status.counterIsShown else { return }
        let spoken = Self.counterSpoken(status)
        if spoken != shownCounterSpoken {
            shownCounterSpoken = spoken
            cgtk_accessible_set_label(counterStatus, spoken)
        }
    }

    /// The counter in words, for screen readers (its status's accessible name): "42
    /// characters left", "7 characters over the limit", and what a composition adds.
    static func counterSpoken(_ status: LimitStatus) -> String {
        let value = status.limit - (status.provisionalCount ?? status.count)
        // TRANSLATORS: the length counter as a screen reader says it.
        let amount = value < 0 ? trn("%d character over the limit", "%d characters over the limit", -value)
                               : trn("%d character left", "%d characters left", value)
        // TRANSLATORS: %@ is the counter as a screen reader says it ("3 characters left");
        // "composed": the text an input method shows underlined before it is committed.
        return status.isProvisional ? String(format: tr("%@, counting the text being composed"), amount) : amount
    }

    /// What the counter's number means.
    static func counterTooltip(provisional: Bool) -> String {
        // TRANSLATORS: the counter's tooltip; "composed": the text an input method shows
        // underlined before it is committed (preedit).
        provisional ? tr("Provisional: includes the text being composed") : tr("Characters left")
    }

    func showLimitHint(_ hint: LimitHint) { showLimitHint(Self.text(for: hint)) }

    /// "2 characters over the limit of 200: …", in the person's language.
    static func text(for hint: LimitHint) -> String {
        let over: String
        switch hint.unit {
        case .graphemes:
            // TRANSLATORS: the message is this many characters (as people count them) over
            // the length limit, the second number; Send refuses it.
            over = trn("%d character over the limit of %d", "%d characters over the limit of %d", hint.over, hint.limit)
        case .scalars:
            over = trn("%d Unicode scalar over the limit of %d", "%d Unicode scalars over the limit of %d", hint.over, hint.limit)
        case .utf16:
            over = trn("%d UTF-16 unit over the limit of %d", "%d UTF-16 units over the limit of %d", hint.over, hint.limit)
        }
        // TRANSLATORS: %@ is the sentence above ("2 characters over the limit of 200").
        return String(format: tr("%@: shorten the message or trim it (Ctrl+Shift+T)."), over)
    }

    func showLimitHint(_ text: String) {
        gtk_label_set_text(opaque(limitHint), text)
        gtk_widget_set_visible(limitHint, 1)
        // Every refused Enter is told, also when the hint already says the same.
        if inputAnnouncements.hint == text { inputAnnouncements.hint = nil }
        inputAnnouncements.hint = text
    }

    /// What the input's accessible description says: the hint and the selected suggestion.
    ///
    /// The focus stays in the input while the hint shows and while Up/Down move through the
    /// suggestions, and GTK 4.8 tells AT-SPI nothing of a widget that was hidden when a
    /// screen reader read the window (the hint, the list). So the input, which a screen
    /// reader follows, says them: a change of the focused object's description reaches the
    /// bus as `object:property-change:accessible-description` (GTK 4.8 has no announcement
    /// API; `gtk_accessible_announce` is 4.14).
    private struct InputAnnouncements: Equatable {
        var hint: String?
        var suggestion: String?
        var description: String? {
            let parts = [hint, suggestion].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        }
    }

    /// The input's accessible description: the hint and the selected suggestion, or nil.
    var inputDescription: String? { inputAnnouncements.description }

    private var inputAnnouncements = InputAnnouncements() {
        didSet {
            guard inputAnnouncements.description != oldValue.description else { return }
            cgtk_accessible_set_description(textView, inputAnnouncements.description)
        }
    }

    /// The selected suggestion (nil: none, the list closed): the input's active descendant
    /// and part of its description.
    private func showSuggestion(_ row: UnsafeMutablePointer<GtkWidget>?, _ spoken: String?) {
        cgtk_accessible_set_active_descendant(textView, row)
        inputAnnouncements.suggestion = spoken
    }

    /// While the last sent message is edited, Send says it saves the edit.
    func showEditingLastSent(_ editing: Bool) {
        gtk_button_set_label(cast(sendButton), editing ? tr("Save") : tr("Send"))
        gtk_widget_set_tooltip_text(sendButton, editing ? tr("Save the edited message (Escape cancels)") : nil)
        setClass("editing", on: inputBar, editing)
    }

    /// Shows the store's notice (nil hides it). Plain text: a path is never markup.
    func showStoreNotice(_ text: String?) {
        gtk_label_set_text(opaque(storeNotice), text ?? "")
        gtk_widget_set_visible(storeNotice, text == nil ? 0 : 1)
    }

    private func setClass(_ name: String, on widget: UnsafeMutablePointer<GtkWidget>, _ on: Bool) {
        if on { gtk_widget_add_css_class(widget, name) } else { gtk_widget_remove_css_class(widget, name) }
    }

    var inputHeight: Int { Int(gtk_widget_get_height(inputScroller)) }
}
