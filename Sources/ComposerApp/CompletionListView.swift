import CGtk
import ComposerCore
import GtkBinding

/// The completion list: full width above the input bar, up to five rows, each with an
/// emoji glyph or an avatar initial, the title with the matched characters in bold, and a
/// dimmed detail. Everything shown is literal text: highlights are Pango attributes over
/// byte ranges, never markup built from user data.
///
/// Rows never take focus: the text view (and its input method) keeps it while the user
/// moves through the list with the keys or clicks a row.
final class CompletionListView {
    let container: UnsafeMutablePointer<GtkWidget>
    private let listBox: UnsafeMutablePointer<GtkWidget>
    private var rows: [UnsafeMutablePointer<GtkWidget>] = []
    /// Called with the index (in the controller's items) of a clicked row.
    var onActivate: ((Int) -> Void)?
    private var firstShownIndex = 0
    /// What the rows show now: rebuilt only when this changes (a click must find the row
    /// it pressed still there when the button is released).
    private var shownIDs: [String] = []

    init() {
        listBox = gtk_list_box_new()
        gtk_list_box_set_selection_mode(opaque(listBox), GTK_SELECTION_SINGLE)
        gtk_list_box_set_activate_on_single_click(opaque(listBox), 1)
        gtk_widget_set_focusable(listBox, 0)
        gtk_widget_add_css_class(listBox, "completion")
        container = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_add_css_class(container, "completion-slot")
        gtk_box_append(cast(container), listBox)
        gtk_widget_set_visible(container, 0)
        onPointerSignal(listBox, "row-activated") { [weak self] row in
            guard let self, let row else { return }
            let index = Int(gtk_list_box_row_get_index(cast(row)))
            onActivate?(firstShownIndex + index)
        }
    }

    /// Shows the controller's visible rows and selection, or hides the list.
    func show(_ completion: CompletionController, maximumRows: Int = CompletionController.visibleRowCount) {
        guard completion.isOpen, maximumRows > 0 else {
            gtk_widget_set_visible(container, 0)
            return
        }
        defer { gtk_widget_set_visible(container, 1) }
        let visible = Array(completion.visibleItems.prefix(maximumRows))
        firstShownIndex = completion.visibleRange.lowerBound
        let ids = visible.map { "\($0.id)\u{0}\($0.titleHighlights)\($0.detailHighlights)" }
        if ids != shownIDs {
            shownIDs = ids
            for row in rows { gtk_list_box_remove(opaque(listBox), row) }
            rows = visible.map(Self.makeRow)
            for row in rows { gtk_list_box_append(opaque(listBox), row) }
            if let first = rows.first {
                var minimum: Int32 = 0, natural: Int32 = 0
                gtk_widget_measure(first, GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, nil, nil)
                if natural > 0 { measuredRowHeight = Int(natural) }
            }
        }
        if let selected = completion.selectedIndex, completion.visibleRange.contains(selected) {
            let row = gtk_list_box_get_row_at_index(opaque(listBox), Int32(selected - firstShownIndex))
            gtk_list_box_select_row(opaque(listBox), row)
        }
    }

    var isShown: Bool { gtk_widget_get_visible(container) != 0 }

    /// The natural height of one row: measured on a real row once one is shown (themes
    /// and fonts decide it), a typical value before that.
    var rowHeight: Int { measuredRowHeight ?? 34 }
    private var measuredRowHeight: Int?

    /// The centre of shown row `index` in `window`'s coordinates.
    func rowCenter(_ index: Int, in window: UnsafeMutablePointer<GtkWidget>) -> (x: Double, y: Double)? {
        guard rows.indices.contains(index) else { return nil }
        let row = rows[index]
        var x = 0.0, y = 0.0
        let width = Double(gtk_widget_get_width(row)), height = Double(gtk_widget_get_height(row))
        guard gtk_widget_translate_coordinates(row, window, width / 2, height / 2, &x, &y) != 0 else { return nil }
        return (x, y)
    }

    /// The titles of the shown rows (for tests).
    var shownTitles: [String] {
        rows.compactMap { row in
            guard let title = gtk_widget_get_last_child(gtk_widget_get_first_child(row)) else { return nil }
            return string(fromBorrowed: gtk_label_get_text(opaque(gtk_widget_get_first_child(title))))
        }
    }

    private static func makeRow(_ item: CompletionItem) -> UnsafeMutablePointer<GtkWidget> {
        let glyph = gtk_label_new(nil)!
        gtk_label_set_text(opaque(glyph), item.glyph.isEmpty ? String(item.title.prefix(1)) : item.glyph)
        gtk_widget_add_css_class(glyph, item.kind == .emoji ? "emoji-glyph" : "avatar")
        gtk_widget_set_valign(glyph, GTK_ALIGN_CENTER)

        let title = label(item.title, highlights: item.titleHighlights, cssClass: "completion-title")
        let detail = label(item.detail, highlights: item.detailHighlights, cssClass: "completion-detail")
        gtk_widget_add_css_class(detail, "dim-label")
        let texts = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_box_append(cast(texts), title)
        gtk_box_append(cast(texts), detail)

        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
        gtk_box_append(cast(box), glyph)
        gtk_box_append(cast(box), texts)
        let row = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(cast(row), box)
        gtk_widget_set_focusable(row, 0)
        return row
    }

    /// A plain-text label with bold runs over the highlighted scalar ranges.
    private static func label(_ text: String, highlights: [Range<Int>], cssClass: String) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(nil)!
        gtk_label_set_text(opaque(label), text)
        gtk_label_set_use_markup(opaque(label), 0)
        gtk_label_set_ellipsize(opaque(label), PANGO_ELLIPSIZE_END)
        gtk_label_set_xalign(opaque(label), 0)
        gtk_widget_add_css_class(label, cssClass)
        if !highlights.isEmpty, let attributes = pango_attr_list_new() {
            let document = TextDocument(text)
            for range in highlights {
                let bold = pango_attr_weight_new(PANGO_WEIGHT_BOLD)!
                bold.pointee.start_index = UInt32(document.utf8Offset(ofScalar: range.lowerBound))
                bold.pointee.end_index = UInt32(document.utf8Offset(ofScalar: range.upperBound))
                pango_attr_list_insert(attributes, bold)
            }
            gtk_label_set_attributes(opaque(label), attributes)
            pango_attr_list_unref(attributes)
        }
        return label
    }
}
