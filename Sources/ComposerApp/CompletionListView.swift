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
///
/// `show` runs on every settle (issue #11: a keystroke must cost about what a plain text
/// view costs), so the row widgets are made once and then kept: a changed list updates
/// their labels and selection in place, spare rows are hidden rather than destroyed, and a
/// list that did not change costs a comparison. Rebuilding the rows instead cost ~2.8M
/// instructions per keystroke while the list was open.
final class CompletionListView {
    let container: UnsafeMutablePointer<GtkWidget>
    private let listBox: UnsafeMutablePointer<GtkWidget>
    /// The list itself (the text view names it as the list it controls).
    var list: UnsafeMutablePointer<GtkWidget> { listBox }
    /// Every row made so far, in list order; the first `shownCount` are shown.
    private var rows: [Row] = []
    private var shownCount = 0
    /// Called with the selected row and what a screen reader should say of it ("Suggestion
    /// 2 of 5: …") when the selection moves, with nils when the list closes: the input keeps
    /// the focus, so it is the input that tells (`ComposerView.showSuggestion`).
    var onSelectionShown: ((UnsafeMutablePointer<GtkWidget>?, String?) -> Void)?
    /// The row last passed to `onSelectionShown`.
    private var selectionShown: UnsafeMutableRawPointer?
    /// Called with the index (in the controller's items) of a clicked row.
    var onActivate: ((Int) -> Void)?
    private var firstShownIndex = 0

    /// One row's widgets, and what its labels show now (so an unchanged row is not touched:
    /// setting a label's text or attributes re-lays it out even when they are equal).
    private struct Row {
        let row: UnsafeMutablePointer<GtkWidget>
        /// The avatar initial and the emoji glyph: two labels, one shown. A label that
        /// changed its CSS class keeps its old font until GTK restyles it at the next
        /// frame, so a row measured in between would be measured wrong; these never change.
        let avatar: UnsafeMutablePointer<GtkWidget>
        let emoji: UnsafeMutablePointer<GtkWidget>
        let title: UnsafeMutablePointer<GtkWidget>
        let detail: UnsafeMutablePointer<GtkWidget>
        var content: RowContent?

        /// The glyph label shown for `content`.
        var glyph: UnsafeMutablePointer<GtkWidget> { content?.isEmoji == true ? emoji : avatar }
    }

    /// What a row shows of an item.
    private struct RowContent: Equatable {
        var glyph: String
        var isEmoji: Bool
        var title: String
        var titleHighlights: [Range<Int>]
        var detail: String
        var detailHighlights: [Range<Int>]

        /// The row's accessible name: the person, channel or emoji, then its handle.
        var spokenName: String { detail.isEmpty ? title : "\(title), \(detail)" }

        init(_ item: CompletionItem) {
            glyph = item.glyph.isEmpty ? String(item.title.prefix(1)) : item.glyph
            isEmoji = item.kind == .emoji
            title = item.title
            titleHighlights = item.titleHighlights
            detail = item.detail
            detailHighlights = item.detailHighlights
        }

    }

    init() {
        listBox = gtk_list_box_new()
        gtk_list_box_set_selection_mode(opaque(listBox), GTK_SELECTION_SINGLE)
        gtk_list_box_set_activate_on_single_click(opaque(listBox), 1)
        gtk_widget_set_focusable(listBox, 0)
        gtk_widget_add_css_class(listBox, "completion")
        // A list and list items for AT-SPI; each row is named after what it offers, and the
        // selected row is "selected" (GtkListBox sets that state when Up/Down move it).
        // TRANSLATORS: the completion list (people, channels, emoji) as a screen reader names it.
        cgtk_accessible_set_label(listBox, tr("Suggestions"))
        container = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_add_css_class(container, "completion-slot")
        gtk_box_append(cast(container), listBox)
        gtk_widget_set_visible(container, 0)
        // Connected once for the list box, not per row or per show: rows come and go
        // (hidden) without handlers of their own.
        onPointerSignal(listBox, "row-activated") { [weak self] row in
            guard let self, let row else { return }
            let index = Int(gtk_list_box_row_get_index(cast(row)))
            guard index < shownCount else { return }
            onActivate?(firstShownIndex + index)
        }
        // A theme change alters the rows' padding without changing their fonts (which
        // `RowStyle` notices by itself): measure again. The settings outlive this view, so
        // the handler goes with the list box.
        if let settings = gtk_settings_get_default() {
            let handler = onNotify(settings, property: "gtk-theme-name") { [weak self] in
                self?.measuredHeights.removeAll()
                self?.measuredStyle = nil
            }
            onSignal(listBox, "destroy") {
                g_signal_handler_disconnect(settings.rawPointer, handler)
            }
        }
    }

    /// Shows the controller's visible rows and selection, or hides the list.
    func show(_ completion: CompletionList, maximumRows: Int = CompletionList.visibleRowCount) {
        guard completion.isOpen, maximumRows > 0 else {
            gtk_widget_set_visible(container, 0)
            if selectionShown != nil {
                selectionShown = nil
                onSelectionShown?(nil, nil)
            }
            return
        }
        defer { gtk_widget_set_visible(container, 1) }
        let visible = completion.visibleItems.prefix(maximumRows)
        firstShownIndex = completion.visibleRange.lowerBound
        for (offset, item) in visible.enumerated() {
            if offset == rows.count { appendRow() }
            let content = RowContent(item)
            if rows[offset].content != content { update(&rows[offset], to: content) }
        }
        // Spare rows are hidden, not destroyed: the next longer list shows them again.
        if visible.count != shownCount {
            for index in rows.indices {
                gtk_widget_set_visible(rows[index].row, index < visible.count ? 1 : 0)
            }
            shownCount = visible.count
        }
        updateRowHeight()
        // Compared with what the list box has selected (a click selects too), so the
        // selection is set only when it moved.
        var wanted: UnsafeMutablePointer<GtkWidget>?
        if let selected = completion.selectedIndex, completion.visibleRange.contains(selected),
           selected - firstShownIndex < shownCount {
            wanted = rows[selected - firstShownIndex].row
        }
        let current = gtk_list_box_get_selected_row(opaque(listBox)).map { UnsafeMutableRawPointer($0) }
        if current != wanted.map({ UnsafeMutableRawPointer($0) }) {
            if let wanted {
                gtk_list_box_select_row(opaque(listBox), cast(wanted))
            } else {
                gtk_list_box_unselect_all(opaque(listBox))
            }
        }
        let shown = wanted.map { UnsafeMutableRawPointer($0) }
        if shown != selectionShown {
            selectionShown = shown
            var spoken: String?
            if let selected = completion.selectedIndex, let wanted,
               let content = rows.first(where: { $0.row == wanted })?.content {
                // TRANSLATORS: the selected completion as a screen reader says it: its place in
                // the list, how many there are, the person, channel or emoji.
                spoken = String(format: tr("Suggestion %1$d of %2$d: %3$@"), Int32(clamping: selected + 1),
                                Int32(clamping: completion.items.count), content.spokenName)
            }
            onSelectionShown?(wanted, spoken)
        }
    }

    var isShown: Bool { gtk_widget_get_visible(container) != 0 }

    /// The natural height of one row: measured on a real row once one is shown (themes
    /// and fonts decide it) and kept per `RowStyle`, a typical value before that. The
    /// layout reads it on every settle; it is never measured there.
    var rowHeight: Int { measuredRowHeight ?? 34 }
    private var measuredRowHeight: Int?

    /// What a row's height depends on besides the theme: the glyph's CSS class (an
    /// avatar has a minimum height, an emoji a larger font), the glyph label's font (which
    /// follows the theme's and the user's font settings), the resolution and the scale.
    /// Comparing it costs a few hundred instructions, measuring a row with new text much
    /// more: so a row is measured only when this changes.
    private struct RowStyle: Equatable {
        var isEmoji: Bool
        var font: FontDescription
        var resolution: Double
        var scale: Int32
    }

    /// An owned copy of a Pango font description, compared with `pango_font_description_equal`.
    private nonisolated final class FontDescription: Equatable {
        let pointer: OpaquePointer
        init(copying description: OpaquePointer) { pointer = pango_font_description_copy(description) }
        deinit { pango_font_description_free(pointer) }
        static func == (lhs: FontDescription, rhs: FontDescription) -> Bool {
            lhs === rhs || pango_font_description_equal(lhs.pointer, rhs.pointer) != 0
        }
    }

    /// Heights measured per style (avatar rows and emoji rows differ).
    private var measuredHeights: [(style: RowStyle, height: Int)] = []
    /// The style `measuredRowHeight` is for.
    private var measuredStyle: RowStyle?

    /// Keeps `measuredRowHeight` that of the first shown row's style. The style is read
    /// on every show (not only when the text changed) so a font or scale change is noticed
    /// at the next settle even if the list stayed the same.
    private func updateRowHeight() {
        guard let first = rows.first, let content = first.content, shownCount > 0,
              let context = gtk_widget_get_pango_context(first.glyph),
              let font = pango_context_get_font_description(context) else { return }
        let resolution = pango_cairo_context_get_resolution(context)
        let scale = gtk_widget_get_scale_factor(first.row)
        if let measuredStyle, measuredStyle.isEmoji == content.isEmoji, measuredStyle.resolution == resolution,
           measuredStyle.scale == scale, pango_font_description_equal(measuredStyle.font.pointer, font) != 0 {
            return
        }
        let style = RowStyle(isEmoji: content.isEmoji, font: FontDescription(copying: font),
                             resolution: resolution, scale: scale)
        if let known = measuredHeights.first(where: { $0.style == style }) {
            measuredRowHeight = known.height
            measuredStyle = style
            return
        }
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(first.row, GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, nil, nil)
        guard natural > 0 else { return }
        measuredRowHeight = Int(natural)
        measuredStyle = style
        measuredHeights.append((style, Int(natural)))
    }

    /// The centre of shown row `index` in `window`'s coordinates.
    func rowCenter(_ index: Int, in window: UnsafeMutablePointer<GtkWidget>) -> (x: Double, y: Double)? {
        guard index >= 0, index < shownCount else { return nil }
        let row = rows[index].row
        var x = 0.0, y = 0.0
        let width = Double(gtk_widget_get_width(row)), height = Double(gtk_widget_get_height(row))
        guard gtk_widget_translate_coordinates(row, window, width / 2, height / 2, &x, &y) != 0 else { return nil }
        return (x, y)
    }

    /// The shown row widgets (for tests: they are kept across shows, not rebuilt).
    var shownRows: [UnsafeMutablePointer<GtkWidget>] { rows.prefix(shownCount).map(\.row) }

    /// The titles of the shown rows, as their labels hold them (for tests).
    var shownTitles: [String] {
        rows.prefix(shownCount).map { string(fromBorrowed: gtk_label_get_text(opaque($0.title))) }
    }

    /// The details of the shown rows (`@handle`, a channel's name), as their labels hold
    /// them (for tests).
    var shownDetails: [String] {
        rows.prefix(shownCount).map { string(fromBorrowed: gtk_label_get_text(opaque($0.detail))) }
    }

    /// The bold runs of the shown rows' titles, as scalar ranges read back from the
    /// labels' Pango attributes (for tests).
    var shownTitleHighlights: [[Range<Int>]] {
        rows.prefix(shownCount).map { row in
            let text = string(fromBorrowed: gtk_label_get_text(opaque(row.title)))
            guard let attributes = gtk_label_get_attributes(opaque(row.title)) else { return [] }
            var ranges: [Range<Int>] = []
            var node = pango_attr_list_get_attributes(attributes)
            defer { g_slist_free_full(node, { pango_attribute_destroy($0?.assumingMemoryBound(to: PangoAttribute.self)) }) }
            while let current = node {
                if let attribute = current.pointee.data?.assumingMemoryBound(to: PangoAttribute.self),
                   cgtk_attr_type(attribute) == PANGO_ATTR_WEIGHT,
                   cgtk_attr_int_value(attribute) == Int32(PANGO_WEIGHT_BOLD.rawValue) {
                    let scalars = { (byte: UInt32) in
                        String(decoding: text.utf8.prefix(Int(byte)), as: UTF8.self).unicodeScalars.count
                    }
                    ranges.append(scalars(attribute.pointee.start_index)..<scalars(attribute.pointee.end_index))
                }
                node = current.pointee.next
            }
            return ranges
        }
    }

    /// Adds an empty row at the end. Its widgets live as long as the list box.
    private func appendRow() {
        let avatar = Self.glyphLabel(cssClass: "avatar")
        let emoji = Self.glyphLabel(cssClass: "emoji-glyph")
        gtk_widget_set_visible(emoji, 0)
        let title = Self.label(cssClass: "completion-title")
        let detail = Self.label(cssClass: "completion-detail")
        gtk_widget_add_css_class(detail, "ime-dimmed")  // by its colour, not `dim-label`'s opacity
        let texts = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_box_append(cast(texts), title)
        gtk_box_append(cast(texts), detail)

        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
        gtk_box_append(cast(box), avatar)
        gtk_box_append(cast(box), emoji)
        gtk_box_append(cast(box), texts)
        let row = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(cast(row), box)
        gtk_widget_set_focusable(row, 0)
        gtk_list_box_append(opaque(listBox), row)
        rows.append(Row(row: row, avatar: avatar, emoji: emoji, title: title, detail: detail, content: nil))
    }

    /// Sets what changed of `row`'s labels to `content`.
    private func update(_ row: inout Row, to content: RowContent) {
        let old = row.content
        if old?.isEmoji != content.isEmoji {
            gtk_widget_set_visible(row.avatar, content.isEmoji ? 0 : 1)
            gtk_widget_set_visible(row.emoji, content.isEmoji ? 1 : 0)
        }
        if old?.isEmoji != content.isEmoji || old?.glyph != content.glyph {
            gtk_label_set_text(opaque(content.isEmoji ? row.emoji : row.avatar), content.glyph)
        }
        if old?.title != content.title || old?.titleHighlights != content.titleHighlights {
            Self.set(row.title, content.title, highlights: content.titleHighlights)
        }
        if old?.detail != content.detail || old?.detailHighlights != content.detailHighlights {
            Self.set(row.detail, content.detail, highlights: content.detailHighlights)
        }
        if old?.title != content.title || old?.detail != content.detail {
            cgtk_accessible_set_label(row.row, content.spokenName)
        }
        row.content = content
    }

    /// An empty glyph label of one CSS class for good.
    private static func glyphLabel(cssClass: String) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(nil)!
        gtk_widget_set_valign(label, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(label, cssClass)
        return label
    }

    /// An empty plain-text label that ellipsizes.
    private static func label(cssClass: String) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(nil)!
        gtk_label_set_use_markup(opaque(label), 0)
        gtk_label_set_ellipsize(opaque(label), PANGO_ELLIPSIZE_END)
        gtk_label_set_xalign(opaque(label), 0)
        gtk_widget_add_css_class(label, cssClass)
        return label
    }

    /// Literal `text` with bold runs over the highlighted scalar ranges (and none left
    /// over from what the label showed before).
    private static func set(_ label: UnsafeMutablePointer<GtkWidget>, _ text: String, highlights: [Range<Int>]) {
        gtk_label_set_text(opaque(label), text)  // plain text: also turns use-markup off
        guard !highlights.isEmpty, let attributes = pango_attr_list_new() else {
            gtk_label_set_attributes(opaque(label), nil)
            return
        }
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
}
