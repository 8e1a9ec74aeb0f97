import CGtk
import ComposerCore
import GtkBinding

/// The list items of the inspector: time, a coloured kind, the summary (a preedit drawn
/// with its segments' styles and its cursor), and a ⚠ with the anomaly in its tooltip.
/// Everything is plain text with Pango attributes, never markup: it is whatever an input
/// method sent.
///
/// Each column is a GtkInscription (GTK 4.8), whose size does not depend on its text: a
/// row given new text is only drawn again. With GtkLabels each rebound row queued a resize
/// up to the window, and GTK measured the whole window and laid out every row's text
/// again, several times per key (14 times a closed inspector's CPU per key, by callgrind).
/// For the same reason a row whose content changed (a key's frame was painted) is
/// refreshed in place (`refresh`), not given its item again, which would also change the
/// list's model.
final class InspectorRowFactory {
    let factory: OpaquePointer
    /// The row an item stands for (nil when it was dropped from the log).
    private let row: (UnsafeMutableRawPointer?) -> InspectorRow?
    /// The object data on a row's box: the number of the row it shows.
    private static let rowNumberKey = "ime-inspector-row"

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
        // Milliseconds since the session started: 8 digits are 27 hours.
        let time = inscription(chars: 8, xalign: 1)
        gtk_widget_add_css_class(time, "ime-dimmed")
        // The longest kind, "surrounding", and one more: an inscription's "chars" are an
        // average character's width, and it clips what is wider.
        let kind = inscription(chars: UInt32(InspectorKind.allCases.map(\.rawValue.count).max() ?? 8) + 1, xalign: 0)
        let summary = inscription(chars: 3, xalign: 0)
        gtk_inscription_set_text_overflow(opaque(summary), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END)
        gtk_widget_set_hexpand(summary, 1)
        gtk_widget_add_css_class(summary, "inspector-summary")
        // Always there, empty unless the row has an anomaly: showing or hiding it would
        // resize the row.
        let flag = inscription(chars: 2, xalign: 0)
        gtk_widget_add_css_class(flag, "inspector-anomaly")
        cgtk_accessible_set_hidden(flag, 1)
        for child in [time, kind, summary, flag] { gtk_box_append(cast(box), child) }
        gtk_list_item_set_child(item, box)
    }

    /// One line of text in a column `chars` wide (the summary: at least `chars`, and what
    /// the row has left).
    private static func inscription(chars: UInt32, xalign: Float) -> UnsafeMutablePointer<GtkWidget> {
        let inscription = gtk_inscription_new(nil)!
        gtk_inscription_set_min_chars(opaque(inscription), chars)
        gtk_inscription_set_nat_chars(opaque(inscription), chars)
        gtk_inscription_set_xalign(opaque(inscription), xalign)
        return inscription
    }

    /// Its text, and the same as its accessible name (GTK 4.8's inscription does not name
    /// itself; later versions do).
    private static func setText(_ inscription: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        gtk_inscription_set_text(opaque(inscription), text)
        cgtk_accessible_set_label(inscription, text)
    }

    private func bind(_ item: OpaquePointer?) {
        guard let box = gtk_list_item_get_child(item) else { return }
        guard let row = row(gtk_list_item_get_item(item)) else {
            g_object_set_data(cast(box), Self.rowNumberKey, nil)  // dropped from the log
            return
        }
        show(row, in: box)
    }

    /// Shows `rows` again in the row boxes now showing them under `list` (rows off screen
    /// have no box: they read the log when they are bound).
    func refresh(_ rows: [InspectorRow], under list: UnsafeMutablePointer<GtkWidget>) {
        guard !rows.isEmpty else { return }
        let byNumber = Dictionary(rows.map { ($0.number, $0) }, uniquingKeysWith: { $1 })
        walkWidgets(from: list) { widget in
            guard gtk_widget_has_css_class(widget, "inspector-row") != 0 else { return true }
            if let number = Self.shownNumber(widget), let row = byNumber[number] { show(row, in: widget) }
            return false
        }
    }

    /// The number of the row a row box shows.
    static func shownNumber(_ box: UnsafeMutablePointer<GtkWidget>) -> Int? {
        g_object_get_data(cast(box), rowNumberKey)
            .map { Int(bitPattern: $0) }
    }

    private func show(_ row: InspectorRow, in box: UnsafeMutablePointer<GtkWidget>) {
        g_object_set_data(cast(box), Self.rowNumberKey,
                          UnsafeMutableRawPointer(bitPattern: row.number))
        let time = gtk_widget_get_first_child(box)!, kind = gtk_widget_get_next_sibling(time)!
        let summary = gtk_widget_get_next_sibling(kind)!, flag = gtk_widget_get_next_sibling(summary)!
        Self.setText(time, "\(row.t)")
        Self.setText(kind, row.kind.rawValue)
        setClasses(kind, ["inspector-kind", "inspector-\(row.kind.rawValue)"])
        if case .preedit(let preedit) = row.event, !preedit.text.isEmpty {
            let drawing = PreeditDrawing(preedit)
            Self.setText(summary, drawing.text)
            let attributes = Self.attributes(drawing)
            gtk_inscription_set_attributes(opaque(summary), attributes)
            pango_attr_list_unref(attributes)
        } else {
            Self.setText(summary, row.summary)
            gtk_inscription_set_attributes(opaque(summary), nil)
        }
        gtk_inscription_set_text(opaque(flag), row.anomalies.isEmpty ? nil : "⚠")
        gtk_widget_set_tooltip_text(flag, row.anomalies.isEmpty ? nil : row.anomalies.map(\.line).joined(separator: "\n"))
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
