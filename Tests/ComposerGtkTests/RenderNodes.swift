import CGtk
import GtkBinding

/// A widget's render nodes as GTK draws it now (its snapshot through a GtkWidgetPaintable),
/// walked: what a frame will ask of the renderer.
@MainActor
enum RenderNodes {
    /// Calls `body` with `widget`'s snapshot (nil when it draws nothing).
    static func withSnapshot<T>(of widget: UnsafeMutablePointer<GtkWidget>, _ body: (OpaquePointer?) -> T) -> T {
        let paintable = gtk_widget_paintable_new(widget)!
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()!
        gdk_paintable_snapshot(paintable, opaque(snapshot), Double(gtk_widget_get_width(widget)),
                               Double(gtk_widget_get_height(widget)))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return body(nil) }
        defer { gsk_render_node_unref(node) }
        return body(node)
    }

    /// The nodes of `type` in the tree under `node`, `node` included.
    static func all(_ type: GskRenderNodeType, in node: OpaquePointer) -> [OpaquePointer] {
        let kind = gsk_render_node_get_node_type(node)
        var children: [OpaquePointer?] = []
        switch kind {
        case GSK_CONTAINER_NODE:
            children = (0..<gsk_container_node_get_n_children(node)).map { gsk_container_node_get_child(node, $0) }
        case GSK_TRANSFORM_NODE: children = [gsk_transform_node_get_child(node)]
        case GSK_CLIP_NODE: children = [gsk_clip_node_get_child(node)]
        case GSK_ROUNDED_CLIP_NODE: children = [gsk_rounded_clip_node_get_child(node)]
        case GSK_OPACITY_NODE: children = [gsk_opacity_node_get_child(node)]
        case GSK_COLOR_MATRIX_NODE: children = [gsk_color_matrix_node_get_child(node)]
        case GSK_REPEAT_NODE: children = [gsk_repeat_node_get_child(node)]
        case GSK_SHADOW_NODE: children = [gsk_shadow_node_get_child(node)]
        case GSK_DEBUG_NODE: children = [gsk_debug_node_get_child(node)]
        case GSK_BLUR_NODE: children = [gsk_blur_node_get_child(node)]
        case GSK_BLEND_NODE: children = [gsk_blend_node_get_bottom_child(node), gsk_blend_node_get_top_child(node)]
        case GSK_CROSS_FADE_NODE: children = [gsk_cross_fade_node_get_start_child(node), gsk_cross_fade_node_get_end_child(node)]
        default: break
        }
        return (kind == type ? [node] : []) + children.compactMap { $0 }.flatMap { all(type, in: $0) }
    }

    /// `node`'s bounds' area in square pixels.
    static func area(of node: OpaquePointer) -> Double {
        var bounds = graphene_rect_t()
        gsk_render_node_get_bounds(node, &bounds)
        return Double(bounds.size.width) * Double(bounds.size.height)
    }
}
