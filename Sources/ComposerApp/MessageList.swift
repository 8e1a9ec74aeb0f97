import CGtk
import ComposerCore
import GtkBinding

/// The sent messages, newest at the bottom, pinned there while the user is at the bottom.
///
/// Messages are shown with `gtk_label_set_text`, never markup: `<b>` stays `<b>`. Their
/// invisible controls (`InvisibleControls`) are marked as in the input, with Pango
/// attributes: a message cannot hide a `U+202E` once it is sent either.
final class MessageList {
    let scrolledWindow: UnsafeMutablePointer<GtkWidget>
    private let listBox: UnsafeMutablePointer<GtkWidget>
    private let adjustment: UnsafeMutablePointer<GtkAdjustment>
    /// Whether the view follows new messages: true until the user scrolls up.
    private(set) var isPinnedToBottom = true
    private(set) var messages: [String] = []

    init() {
        listBox = gtk_list_box_new()
        gtk_list_box_set_selection_mode(opaque(listBox), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(listBox, "messages")
        cgtk_accessible_set_label(listBox, tr("Messages"))
        scrolledWindow = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(opaque(scrolledWindow), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(opaque(scrolledWindow), listBox)
        gtk_widget_set_vexpand(scrolledWindow, 1)
        Accessibility.nameScrollBars(of: scrolledWindow, tr("Messages"))
        adjustment = gtk_scrolled_window_get_vadjustment(opaque(scrolledWindow))
        observeScrolling()
    }

    /// A message from someone else: on the left, in a quieter bubble.
    func appendPeer(_ text: String, from name: String) {
        append(text)
        guard let row = gtk_widget_get_last_child(listBox),
              let label = gtk_list_box_row_get_child(cast(row)) else { return }
        gtk_widget_set_halign(label, GTK_ALIGN_START)
        gtk_widget_add_css_class(label, "peer")
        gtk_widget_set_tooltip_text(label, name)
        // TRANSLATORS: a colleague's message as a screen reader says it: their name, the message.
        cgtk_accessible_set_label(row, String(format: tr("%1$@: %2$@"), name, text))
    }

    func append(_ text: String) {
        messages.append(text)
        let label = gtk_label_new(nil)!
        Self.show(text, in: label)
        gtk_label_set_use_markup(opaque(label), 0)
        gtk_label_set_wrap(opaque(label), 1)
        gtk_label_set_wrap_mode(opaque(label), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(opaque(label), 0)
        gtk_label_set_selectable(opaque(label), 1)
        // Our own messages: bubbles that hug their text, on the right, as in chat apps.
        gtk_label_set_max_width_chars(opaque(label), 40)
        gtk_widget_set_halign(label, GTK_ALIGN_END)
        gtk_widget_add_css_class(label, "message")
        gtk_list_box_append(opaque(listBox), label)
        // The row (a list item) is named after the message, not "GtkListBoxRow".
        if let row = gtk_widget_get_parent(label) { cgtk_accessible_set_label(row, text) }
    }

    /// The newest message of ours gets a new text (it was edited), marked as edited.
    func replaceLast(with text: String) {
        var row = gtk_widget_get_last_child(listBox)
        while let current = row {
            if let label = gtk_list_box_row_get_child(cast(current)),
               gtk_widget_has_css_class(label, "message") != 0, gtk_widget_has_css_class(label, "peer") == 0 {
                Self.show(text, in: label)
                gtk_widget_add_css_class(label, "edited")
                gtk_widget_set_tooltip_text(label, tr("Edited"))
                // TRANSLATORS: a sent message as a screen reader says it, after it was edited.
                cgtk_accessible_set_label(current, String(format: tr("%@ (edited)"), text))
                if let index = messages.lastIndex(where: { _ in true }) { messages[index] = text }
                return
            }
            row = gtk_widget_get_prev_sibling(current)
        }
        append(text)  // nothing of ours shown (the list was emptied): show it as new
    }

    /// Sets a message label's text (plain: this also turns use-markup off) and marks its
    /// invisible controls; a label without any gets no attribute list.
    private static func show(_ text: String, in label: UnsafeMutablePointer<GtkWidget>) {
        gtk_label_set_text(opaque(label), text)
        let controls = InvisibleControls.markedUTF8Ranges(in: text)
        guard !controls.isEmpty, let attributes = pango_attr_list_new() else {
            gtk_label_set_attributes(opaque(label), nil)
            return
        }
        for range in controls {
            cgtk_attr_list_mark_control(attributes, guint(range.lowerBound), guint(range.upperBound))
        }
        gtk_label_set_attributes(opaque(label), attributes)
        pango_attr_list_unref(attributes)
    }

    /// Each label's Pango attributes as `pango_attr_list_to_string` writes them, "" for
    /// none (for tests: the marks are on the controls' bytes).
    var shownAttributes: [String] {
        labels.map { label in
            gtk_label_get_attributes(opaque(label)).map { string(takingOwnership: pango_attr_list_to_string($0)) } ?? ""
        }
    }

    /// The message labels, oldest first.
    private var labels: [UnsafeMutablePointer<GtkWidget>] {
        var labels: [UnsafeMutablePointer<GtkWidget>] = []
        var row = gtk_widget_get_first_child(listBox)
        while let current = row {
            if let label = gtk_list_box_row_get_child(cast(current)) { labels.append(label) }
            row = gtk_widget_get_next_sibling(current)
        }
        return labels
    }

    /// The label texts as the user sees them (for tests: proves nothing was interpreted).
    var shownTexts: [String] {
        labels.map { string(fromBorrowed: gtk_label_get_text(opaque($0))) }
    }

    /// The scroll position (for tests: scrolling up by hand).
    var scrollValue: Double {
        get { gtk_adjustment_get_value(adjustment) }
        set { gtk_adjustment_set_value(adjustment, newValue) }
    }

    /// Whether the newest message is in view (the scroll position is at the bottom).
    var isScrolledToBottom: Bool {
        gtk_adjustment_get_value(adjustment) >= bottomValue - 1
    }

    private var bottomValue: Double {
        gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
    }

    private func observeScrolling() {
        let adjustment = self.adjustment
        // The user scrolling decides whether we follow; our own scrolling keeps it true.
        onSignal(adjustment, "value-changed") { [weak self] in
            guard let self else { return }
            isPinnedToBottom = gtk_adjustment_get_value(adjustment) >= bottomValue - 1
        }
        // New content (or a smaller page when the input grows) moves the bottom.
        let follow: () -> Void = { [weak self] in
            guard let self, isPinnedToBottom else { return }
            gtk_adjustment_set_value(adjustment, bottomValue)
        }
        onNotify(adjustment, property: "upper", follow)
        onNotify(adjustment, property: "page-size", follow)
    }
}
