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
    /// The palette the tags were last coloured with; nil before the first time.
    private(set) var styled: Palette?

    init(buffer: TextBuffer) {
        overflow = buffer.createTag(named: "overflow")
        var tags: [HighlightKind: UnsafeMutablePointer<GtkTextTag>] = [:]
        for kind in HighlightKind.allCases { tags[kind] = buffer.createTag(named: kind.rawValue) }
        highlights = tags
        control = buffer.createTag(named: "invisible-control")
        cgtk_style_control_tag(control)
        // The overflow colour wins over a mention's: it is the more urgent news.
        gtk_text_tag_set_priority(overflow, gtk_text_tag_table_get_size(gtk_text_buffer_get_tag_table(buffer.pointer)) - 1)
    }

    /// Colours the overflow and highlight tags for the system's style (`SystemStyle`):
    /// colours that read on the text view's background. Only when the palette changes:
    /// restyling a tag makes GTK lay out again every line that carries it (a 1 MB draft over
    /// the limit: all of it).
    func style() {
        let palette = Palette(SystemStyle.current)
        guard palette != styled else { return }
        styled = palette
        cgtk_style_overflow_tag(overflow, palette.overflow.foreground, palette.overflow.background)
        for (kind, tag) in highlights { cgtk_style_highlight_tag(tag, palette.highlight(kind)) }
    }
}
