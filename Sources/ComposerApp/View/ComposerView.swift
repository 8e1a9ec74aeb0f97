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
    let sendButton: UnsafeMutablePointer<GtkWidget>
    /// Toasts over the window's content: what the profile's store must tell the user (a
    /// damaged file moved aside, saving off).
    let toastOverlay: UnsafeMutablePointer<GtkWidget>
    /// The store's notice on screen (ours, to dismiss it when the news ends), and its text.
    private var noticeToast: OpaquePointer?
    private(set) var noticeShown: String?
    /// Set when the text view is destroyed (the window closed): a toast dismissed as the
    /// window goes must not touch it.
    private var inputGone = false
    /// The vertical stack of regions the layout solver sizes (`PanelLayout`).
    let panel: UnsafeMutablePointer<GtkWidget>
    /// The limit's row (`LimitIndicators.row`) over the input bar: the input's region of the
    /// panel, kept whole by the layout.
    let inputArea: UnsafeMutablePointer<GtkWidget>
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
    /// The counter, Trim and the limit hint (`LimitIndicators`).
    let limitIndicators: LimitIndicators
    /// What the input's accessible description says (`InputAnnouncements`).
    let announcements: InputAnnouncements
    /// The overflow, highlight and invisible-control tags (`TextTags`).
    let tags: TextTags

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
        tags = TextTags(buffer: buffer)

        inputScroller = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(opaque(inputScroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        // Not propagate-natural-height: the input's height is InputSizer's (min and max content
        // height, exact). Propagated, the text view's natural height is the height of all of
        // its text GTK has laid out so far, and until its validation ends each frame lays out
        // the whole draft again (a 1 MB draft: four frames of 3.5 s each at start, docs/benchmarks.md).
        gtk_scrolled_window_set_child(opaque(inputScroller), textView)
        gtk_widget_set_hexpand(inputScroller, 1)
        // Room for a dozen characters whatever else the input bar shows (counter, Trim, the
        // toggles): the panel's minimum width, and so the window's, follows from it.
        gtk_widget_set_size_request(inputScroller, Self.inputMinimumWidth, -1)
        gtk_widget_set_valign(inputScroller, GTK_ALIGN_END)
        // Like an entry: libadwaita's entry background and corners around the text view.
        gtk_widget_add_css_class(inputScroller, "composer-input-frame")
        Accessibility.nameScrollBars(of: inputScroller, tr("Message"))
        inputSizer = InputSizer(textView: textView, inputScroller: inputScroller, buffer: buffer)

        announcements = InputAnnouncements(textView: textView)
        limitIndicators = LimitIndicators(textView: textView, announcements: announcements)

        sendButton = gtk_button_new_with_label(tr("Send"))
        gtk_widget_add_css_class(sendButton, "suggested-action")
        gtk_widget_set_valign(sendButton, GTK_ALIGN_END)
        Self.keepFocusOffButton(sendButton)

        typingIndicator = cgtk_widget_new_with_role(gtk_label_get_type(), GTK_ACCESSIBLE_ROLE_STATUS)
        gtk_widget_add_css_class(typingIndicator, "typing-indicator")
        gtk_widget_add_css_class(typingIndicator, "ime-dimmed")
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
        inspectorToggle = Accessibility.toggleButton()
        gtk_button_set_icon_name(cast(inspectorToggle), "view-dual-symbolic")
        gtk_widget_set_tooltip_text(inspectorToggle, tr("The IME inspector: every input event and decision (F12)"))
        cgtk_accessible_set_label(inspectorToggle, tr("IME inspector"))
        toolbarToggle = Accessibility.toggleButton()
        gtk_button_set_icon_name(cast(toolbarToggle), "view-more-horizontal-symbolic")
        gtk_widget_set_tooltip_text(toolbarToggle, tr("Caret toolbar"))
        cgtk_accessible_set_label(toolbarToggle, tr("Caret toolbar"))
        keyboardToggle = Accessibility.toggleButton()
        gtk_button_set_icon_name(cast(keyboardToggle), "input-keyboard-symbolic")
        gtk_widget_set_tooltip_text(keyboardToggle, tr("Simulated on-screen keyboard"))
        cgtk_accessible_set_label(keyboardToggle, tr("Simulated on-screen keyboard"))
        gtk_widget_set_visible(keyboardToggle, 0)
        // Flat icon buttons, as in a header bar; aligned with the input's last line.
        for toggle in [inspectorToggle, toolbarToggle, keyboardToggle] {
            Self.keepFocusOffButton(toggle)
            gtk_widget_add_css_class(toggle, "flat")
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
        gtk_box_append(cast(inputBar), inspectorToggle)
        gtk_box_append(cast(inputBar), toolbarToggle)
        gtk_box_append(cast(inputBar), keyboardToggle)
        gtk_box_append(cast(inputBar), sendButton)
        self.inputBar = inputBar
        // The limit's row lines up with the input: its hint with the input's text (the bar's
        // margin and the text view's), its counter and Trim with the bar's end.
        let row = limitIndicators.row
        gtk_widget_set_margin_start(row, 6 + 8)
        gtk_widget_set_margin_end(row, 6)
        gtk_widget_set_margin_top(row, 6)
        inputArea = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_box_append(cast(inputArea), row)
        gtk_box_append(cast(inputArea), inputBar)

        panel = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        separator = gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)
        // The input says which list it completes from (AT-SPI's "controller for").
        cgtk_accessible_set_controls(textView, completionList.list)
        gtk_box_append(cast(panel), messageList.scrolledWindow)
        gtk_box_append(cast(panel), separator)
        gtk_box_append(cast(panel), completionList.container)
        gtk_box_append(cast(panel), typingIndicator)
        gtk_box_append(cast(panel), caretToolbar)
        gtk_box_append(cast(panel), inputArea)
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
        toastOverlay = adw_toast_overlay_new()
        adw_toast_overlay_set_child(opaque(toastOverlay), columns)
        gtk_window_set_child(cast(window), toastOverlay)
        // Destroyed with the window, in an order GTK decides: the text view first or the
        // toasts first.
        onSignal(textView, "destroy") { [weak self] in self?.inputGone = true }
        onSignal(toastOverlay, "destroy") { [weak self] in
            guard let self, let toast = noticeToast else { return }
            noticeToast = nil
            g_object_unref(toast.rawPointer)
        }

        completionList.onSelectionShown = { [weak self] row, spoken in self?.showSuggestion(row, spoken) }
        // Coloured before any text is laid out; again when the system's style changes.
        tags.style()
    }

    /// Every button of the composer leaves focus in the text view: a click must not end the
    /// input method's composition, hide the on-screen keyboard or lose the caret.
    static func keepFocusOffButton(_ button: UnsafeMutablePointer<GtkWidget>) {
        gtk_widget_set_focus_on_click(button, 0)
        gtk_widget_set_focusable(button, 0)
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

    /// The selected suggestion (nil: none, the list closed): the input's active descendant
    /// and part of its description.
    private func showSuggestion(_ row: UnsafeMutablePointer<GtkWidget>?, _ spoken: String?) {
        cgtk_accessible_set_active_descendant(textView, row)
        announcements.suggestion = spoken
    }

    /// While the last sent message is edited, Send says it saves the edit.
    func showEditingLastSent(_ editing: Bool) {
        gtk_button_set_label(cast(sendButton), editing ? tr("Save") : tr("Send"))
        gtk_widget_set_tooltip_text(sendButton, editing ? tr("Save the edited message (Escape cancels)") : nil)
        Style.setClass("editing", on: inputBar, editing)
    }

    /// Shows the store's notice as a toast that stays until the news ends or the person
    /// closes it (nil: dismisses it). The input's accessible description says it too:
    /// libadwaita 1.2 does not announce toasts.
    func showStoreNotice(_ text: String?) {
        if let toast = noticeToast {
            noticeToast = nil
            adw_toast_dismiss(toast)
            g_object_unref(toast.rawPointer)
        }
        noticeShown = nil
        announcements.notice = nil
        guard let text else { return }
        // A toast's title is Pango markup in libadwaita 1.2: a path is never markup.
        let escaped = g_markup_escape_text(text, -1)!
        let toast = adw_toast_new(escaped)!
        g_free(escaped)
        adw_toast_set_timeout(toast, 0)
        adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_HIGH)
        g_object_ref(toast.rawPointer)  // ours: the overlay takes the one it is given
        onSignal(toast, "dismissed") { [weak self] in
            guard let self, !inputGone, noticeToast == toast else { return }  // closed by the person
            noticeShown = nil
            announcements.notice = nil
        }
        adw_toast_overlay_add_toast(opaque(toastOverlay), toast)
        noticeToast = toast
        noticeShown = text
        announcements.notice = text
    }

    /// The texts of the labels shown over the window's content (the toasts').
    var toastTexts: [String] {
        var texts: [String] = []
        walkWidgets(from: toastOverlay) { widget in
            guard widget != columns, gtk_widget_get_visible(widget) != 0 else { return false }
            if isInstance(widget, of: gtk_label_get_type()) {
                texts.append(string(fromBorrowed: gtk_label_get_text(opaque(widget))))
            }
            return true
        }
        return texts
    }

    var inputHeight: Int { Int(gtk_widget_get_height(inputScroller)) }
}
