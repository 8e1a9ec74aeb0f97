import CGtk
import ComposerCore
import GtkBinding

/// The widgets of the composer and nothing else: message list on top, the input bar
/// (growing text view, counter, Send) at the bottom. Wiring lives in `ComposerController`.
final class ComposerWindow {
    static let title = "IME Composer"

    let window: UnsafeMutablePointer<GtkWidget>
    let messageList = MessageList()
    let textView: UnsafeMutablePointer<GtkWidget>
    let buffer: TextBuffer
    let inputScroller: UnsafeMutablePointer<GtkWidget>
    let counterLabel: UnsafeMutablePointer<GtkWidget>
    let sendButton: UnsafeMutablePointer<GtkWidget>

    init() {
        window = gtk_window_new()
        gtk_window_set_title(cast(window), Self.title)
        gtk_window_set_default_size(cast(window), 480, 600)

        textView = gtk_text_view_new()
        gtk_text_view_set_wrap_mode(cast(textView), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(cast(textView), 0)
        gtk_text_view_set_top_margin(cast(textView), 6)
        gtk_text_view_set_bottom_margin(cast(textView), 6)
        gtk_text_view_set_left_margin(cast(textView), 8)
        gtk_text_view_set_right_margin(cast(textView), 8)
        gtk_widget_add_css_class(textView, "composer-input")
        buffer = TextBuffer(gtk_text_view_get_buffer(cast(textView)))
        gtk_text_buffer_set_enable_undo(buffer.pointer, 1)

        inputScroller = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(opaque(inputScroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(opaque(inputScroller), 1)
        gtk_scrolled_window_set_child(opaque(inputScroller), textView)
        gtk_widget_set_hexpand(inputScroller, 1)
        gtk_widget_set_valign(inputScroller, GTK_ALIGN_END)

        counterLabel = gtk_label_new("0")
        gtk_widget_add_css_class(counterLabel, "counter")
        gtk_widget_add_css_class(counterLabel, "dim-label")
        gtk_widget_set_valign(counterLabel, GTK_ALIGN_END)
        gtk_widget_set_margin_bottom(counterLabel, 8)

        sendButton = gtk_button_new_with_label("Send")
        gtk_widget_add_css_class(sendButton, "suggested-action")
        gtk_widget_set_valign(sendButton, GTK_ALIGN_END)
        // The button must never steal focus from the text view (and its input method).
        gtk_widget_set_focus_on_click(sendButton, 0)
        gtk_widget_set_focusable(sendButton, 0)

        let inputBar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_add_css_class(inputBar, "input-bar")
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end,
                       gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] {
            margin(inputBar, 6)
        }
        gtk_box_append(cast(inputBar), inputScroller)
        gtk_box_append(cast(inputBar), counterLabel)
        gtk_box_append(cast(inputBar), sendButton)

        let panel = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(cast(panel), messageList.scrolledWindow)
        gtk_box_append(cast(panel), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        gtk_box_append(cast(panel), inputBar)
        gtk_window_set_child(cast(window), panel)
    }

    /// Sizes the input to 1…6 lines of the text view's font (then it scrolls).
    func applyInputSizing() {
        let sizing = InputBarSizing(lineHeight: lineHeight, verticalPadding: 12)
        gtk_scrolled_window_set_min_content_height(opaque(inputScroller), Int32(sizing.minHeight))
        gtk_scrolled_window_set_max_content_height(opaque(inputScroller), Int32(sizing.maxHeight))
    }

    /// One line of the input's font, taking the tallest of Latin and CJK glyphs so a line
    /// of Japanese fits as well as a line of English.
    var lineHeight: Int {
        let layout = gtk_widget_create_pango_layout(textView, "Ag漢字한")!
        defer { g_object_unref(layout.rawPointer) }
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return max(Int(height), 1)
    }

    var inputHeight: Int { Int(gtk_widget_get_height(inputScroller)) }
}
