import CGtk
import ComposerCore
import GtkBinding

/// The input buffer's tags — the overflow past the limit, @mentions, #channels and
/// :shortcodes:, invisible controls — and their colours for the theme in use.
final class TextTags {
    /// Marks the committed text past the limit.
    let overflow: UnsafeMutablePointer<GtkTextTag>
    /// Marks @mentions, #channels and :shortcodes: in the text.
    let highlights: [HighlightKind: UnsafeMutablePointer<GtkTextTag>]
    /// Shows invisible and bidirectional controls (`InvisibleControls`) as boxes.
    let control: UnsafeMutablePointer<GtkTextTag>
    private let textView: UnsafeMutablePointer<GtkWidget>
    /// Whether the tags were last coloured for a dark theme; nil before the first time.
    private(set) var styledDark: Bool?

    init(buffer: TextBuffer, textView: UnsafeMutablePointer<GtkWidget>) {
        self.textView = textView
        overflow = buffer.createTag(named: "overflow")
        var tags: [HighlightKind: UnsafeMutablePointer<GtkTextTag>] = [:]
        for kind in HighlightKind.allCases { tags[kind] = buffer.createTag(named: kind.rawValue) }
        highlights = tags
        control = buffer.createTag(named: "invisible-control")
        cgtk_style_control_tag(control)
        // The overflow colour wins over a mention's: it is the more urgent news.
        gtk_text_tag_set_priority(overflow, gtk_text_tag_table_get_size(gtk_text_buffer_get_tag_table(buffer.pointer)) - 1)
    }

    /// Whether the text view's text is light (a dark theme): tag colours must read on it.
    private var hasDarkTheme: Bool {
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(textView), &color)
        return 0.2126 * color.red + 0.7152 * color.green + 0.0722 * color.blue > 0.5
    }

    /// Colours the overflow and highlight tags for the current theme: colours that read on
    /// the text view's background, chosen from how light its text colour is. Only when the
    /// choice changes: restyling a tag makes GTK lay out again every line that carries it
    /// (a 1 MB draft over the limit: all of it).
    func style() {
        let dark = hasDarkTheme
        guard dark != styledDark else { return }
        styledDark = dark
        if dark {
            cgtk_style_overflow_tag(overflow, "#ff7b63", "rgba(255,123,99,0.18)")
        } else {
            cgtk_style_overflow_tag(overflow, "#c01c28", "rgba(224,27,36,0.12)")
        }
        let colors: [HighlightKind: String] = dark
            ? [.mention: "#99c1f1", .channel: "#8ff0a4", .emoji: "#f9f06b"]
            : [.mention: "#1a5fb4", .channel: "#26a269", .emoji: "#a51d2d"]
        for (kind, tag) in highlights { cgtk_style_highlight_tag(tag, colors[kind]!) }
    }
}
