import CGtk
import ComposerCore
import GtkBinding

/// The list items of the inspector: time, a coloured kind, the summary (a preedit drawn
/// with its segments' styles and its cursor), and a ⚠ with the anomaly in its tooltip.
/// Everything is plain text with Pango attributes, never markup: it is whatever an input
/// method sent.
final class InspectorRowFactory {
    let factory: OpaquePointer
    /// The row an item stands for (nil when it was dropped from the log).
    private let row: (UnsafeMutableRawPointer?) -> InspectorRow?

    init(row: @escaping (UnsafeMutableRawPointer?) -> InspectorRow?) {
        self.row = row
        factory = gtk_signal_list_item_factory_new()
        // "setup" / "bind": void (*)(GtkSignalListItemFactory *, GObject *list_item, gpointer).
        onPointerSignal(factory, "setup") { item in Self.setUp(OpaquePointer(item)) }
        onPointerSignal(factory, "bind") { [weak self] item in self?.bind(OpaquePointer(item)) }
    }

    private static func setUp(_ item: OpaquePointer?) {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_add_css_class(box, "inspector-row")
        let time = label(chars: 7, xalign: 1)
        gtk_widget_add_css_class(time, "ime-dimmed")
        let kind = label(chars: 8, xalign: 0)
        let summary = label(chars: -1, xalign: 0)
        gtk_label_set_ellipsize(opaque(summary), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(summary, 1)
        let flag = label(chars: -1, xalign: 0)
        gtk_label_set_text(opaque(flag), "⚠")
        gtk_widget_add_css_class(flag, "inspector-anomaly")
        for child in [time, kind, summary, flag] { gtk_box_append(cast(box), child) }
        gtk_list_item_set_child(item, box)
    }

    private static func label(chars: Int32, xalign: Float) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(nil)!
        if chars > 0 { gtk_label_set_width_chars(opaque(label), chars) }
        gtk_label_set_xalign(opaque(label), xalign)
        gtk_label_set_single_line_mode(opaque(label), 1)
        return label
    }

    private func bind(_ item: OpaquePointer?) {
        guard let box = gtk_list_item_get_child(item), let row = row(gtk_list_item_get_item(item)) else { return }
        let time = gtk_widget_get_first_child(box)!, kind = gtk_widget_get_next_sibling(time)!
        let summary = gtk_widget_get_next_sibling(kind)!, flag = gtk_widget_get_next_sibling(summary)!
        gtk_label_set_text(opaque(time), "\(row.t)")
        gtk_label_set_text(opaque(kind), row.kind.rawValue)
        setClasses(kind, ["inspector-kind", "inspector-\(row.kind.rawValue)"])
        if case .preedit(let preedit) = row.event, !preedit.text.isEmpty {
            let drawing = PreeditDrawing(preedit)
            gtk_label_set_text(opaque(summary), drawing.text)
            let attributes = Self.attributes(drawing)
            gtk_label_set_attributes(opaque(summary), attributes)
            pango_attr_list_unref(attributes)
        } else {
            gtk_label_set_text(opaque(summary), row.summary)
            gtk_label_set_attributes(opaque(summary), nil)
        }
        gtk_widget_set_visible(flag, row.anomalies.isEmpty ? 0 : 1)
        gtk_widget_set_tooltip_text(flag, row.anomalies.map(\.line).joined(separator: "\n"))
        // The row's accessible name (GTK 4.8 has no accessible label for a list item: the
        // widget that holds the child is the row).
        if let rowWidget = gtk_widget_get_parent(box) {
            // TRANSLATORS: an inspector row as a screen reader says it: its kind (key, preedit,
            // commit…), its time in milliseconds, what happened.
            var name = String(format: tr("%1$@ at %2$d ms: %3$@"), row.kind.rawValue, Int32(clamping: row.t), row.summary)
            if !row.anomalies.isEmpty {
                // TRANSLATORS: an inspector row, then what its ⚠ says.
                name = String(format: tr("%1$@. Warning: %2$@"), name, row.anomalies.map(\.line).joined(separator: " "))
            }
            cgtk_accessible_set_label(rowWidget, name)
        }
    }

    private func setClasses(_ widget: UnsafeMutablePointer<GtkWidget>, _ classes: [String]) {
        var pointers = classes.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_widget_set_css_classes(widget, $0)
            }
        }
    }

    /// The segments' styles and the cursor mark as Pango attributes over UTF-8 bytes.
    static func attributes(_ drawing: PreeditDrawing) -> OpaquePointer {
        let list = pango_attr_list_new()!
        func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>, _ bytes: Range<Int>) {
            attribute.pointee.start_index = guint(bytes.lowerBound)
            attribute.pointee.end_index = guint(bytes.upperBound)
            pango_attr_list_insert(list, attribute)
        }
        for span in drawing.spans {
            for style in span.styles {
                switch style {
                case .underline: insert(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE), span.bytes)
                case .doubleUnderline: insert(pango_attr_underline_new(PANGO_UNDERLINE_DOUBLE), span.bytes)
                case .highlight: insert(pango_attr_background_new(0x3500, 0x8400, 0xe400), span.bytes)
                    insert(pango_attr_foreground_new(0xffff, 0xffff, 0xffff), span.bytes)
                case .foreground: insert(pango_attr_foreground_new(0x1a00, 0x5f00, 0xb400), span.bytes)
                case .bold: insert(pango_attr_weight_new(PANGO_WEIGHT_BOLD), span.bytes)
                case .strikethrough: insert(pango_attr_strikethrough_new(1), span.bytes)
                }
            }
        }
        if let cursor = drawing.cursorBytes {
            insert(pango_attr_foreground_new(0xe000, 0x1b00, 0x2400), cursor)
            insert(pango_attr_weight_new(PANGO_WEIGHT_BOLD), cursor)
        }
        return list
    }
}
