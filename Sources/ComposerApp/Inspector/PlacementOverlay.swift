import CGtk
import ComposerCore
import GtkBinding

/// The inspector's "Placement" overlay: drawn over the input, the caret as the text view
/// gave it to the input method (blue), the rectangle the IM module sent, brought back to
/// the input's coordinates (orange, dashed), and the candidate window where it overlaps
/// the input (red). It takes no pointer events; it is made when its toggle is first turned
/// on and hidden while it is off.
final class PlacementOverlay {
    private let textView: UnsafeMutablePointer<GtkWidget>
    private let area: UnsafeMutablePointer<GtkWidget>
    private var placement: CandidatePlacement?
    /// What the last frame drew, in the overlay's coordinates (tests).
    private(set) var drawn: [(label: String, rect: PixelRect)] = []

    init(textView: UnsafeMutablePointer<GtkWidget>) {
        self.textView = textView
        area = gtk_drawing_area_new()
        gtk_widget_set_can_target(area, 0)
        gtk_widget_set_can_focus(area, 0)
        gtk_widget_add_css_class(area, "placement-overlay")
        cgtk_accessible_set_label(area, tr("Candidate window placement"))
        let visible = Self.visibleRect(textView)
        gtk_widget_set_size_request(area, Int32(visible.width), Int32(visible.height))
        gtk_text_view_add_overlay(cast(textView), area, Int32(visible.x), Int32(visible.y))
        setDrawFunction(area) { [weak self] cairo, _, _ in self?.draw(cairo) }
    }

    /// Hidden, it draws nothing (it stays the text view's child: made once per window).
    func hide() {
        gtk_widget_set_visible(area, 0)
        placement = nil
        drawn = []
    }

    func show(_ placement: CandidatePlacement) {
        gtk_widget_set_visible(area, 1)
        self.placement = placement
        let visible = Self.visibleRect(textView)
        gtk_widget_set_size_request(area, Int32(visible.width), Int32(visible.height))
        gtk_text_view_move_overlay(cast(textView), area, Int32(visible.x), Int32(visible.y))
        drawn = shapes()
        gtk_widget_queue_draw(area)
    }

    private static func visibleRect(_ textView: UnsafeMutablePointer<GtkWidget>) -> GdkRectangle {
        var visible = GdkRectangle()
        gtk_text_view_get_visible_rect(cast(textView), &visible)
        return visible
    }

    /// The rectangles to draw, in the overlay's coordinates (logical pixels).
    private func shapes() -> [(label: String, rect: PixelRect)] {
        guard let placement else { return [] }
        // The overlay's own origin in the text view, and on the screen (device pixels).
        var originX = 0.0, originY = 0.0
        _ = gtk_widget_translate_coordinates(area, textView, 0, 0, &originX, &originY)
        var shapes: [(String, PixelRect)] = [
            ("given", PixelRect(x: placement.given.x - Int(originX), y: placement.given.y - Int(originY),
                                width: max(placement.given.width, 2), height: placement.given.height)),
        ]
        if let screenOrigin = X11Screen.rootRect(of: ReadRect(x: 0, y: 0, width: 0, height: 0), in: area) {
            let scale = max(placement.scale, 1)
            func local(_ rect: PixelRect) -> PixelRect {
                PixelRect(x: (rect.x - screenOrigin.x) / scale, y: (rect.y - screenOrigin.y) / scale,
                          width: max(rect.width / scale, 2), height: rect.height / scale)
            }
            if let sent = placement.sent { shapes.append(("sent", local(sent))) }
            if let popup = placement.popup { shapes.append(("popup", local(popup))) }
        }
        return shapes
    }

    private func draw(_ cairo: OpaquePointer) {
        cairo_set_line_width(cairo, 2)
        for (label, rect) in drawn {
            switch label {
            case "given": cairo_set_source_rgba(cairo, 0.2, 0.4, 0.9, 0.9)
            case "sent": cairo_set_source_rgba(cairo, 0.95, 0.5, 0.0, 0.9)
            default: cairo_set_source_rgba(cairo, 0.85, 0.1, 0.1, 0.9)
            }
            var dashes: [Double] = label == "sent" ? [5, 3] : []
            cairo_set_dash(cairo, &dashes, Int32(dashes.count), 0)
            cairo_rectangle(cairo, Double(rect.x) + 1, Double(rect.y) + 1, Double(max(rect.width - 2, 0)), Double(max(rect.height - 2, 0)))
            cairo_stroke(cairo)
        }
    }
}
