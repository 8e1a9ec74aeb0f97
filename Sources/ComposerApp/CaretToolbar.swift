import CGtk
import ComposerCore
import GtkBinding

/// The ← ↑ ↓ → buttons above the input bar, for moving the caret while an on-screen
/// keyboard (which has no arrow keys) is up. The core decides what a press means
/// (`CaretMotion`: ← → collapse a selection or move one grapheme; ↑ ↓ move one display
/// line); GTK does the geometry, with the same "move-cursor" signal the arrow keys emit,
/// which also keeps the horizontal position across lines. Shift-click or a long press
/// extends the selection instead. The buttons never take focus.
final class CaretToolbar {
    init(ui: ComposerView, model: ComposerModel, moved: @escaping () -> Void) {
        let buffer = ui.buffer
        let textView = ui.textView
        self.buffer = buffer
        self.textView = textView
        self.model = model
        self.moved = moved
        // Each button is bound to its caret action (`ComposerActions`: its sensitivity is
        // the action's). A press with Shift, or a long press, binds the click about to come
        // to the extending action instead.
        for (direction, button) in ui.caretButtons {
            func bind(extend: Bool) {
                let name = "\(ComposerActions.group).\(ComposerActions.caretActionName(direction, extend: extend))"
                gtk_actionable_set_action_name(opaque(button), name)
            }
            let pressGesture = gtk_gesture_click_new()!
            gtk_event_controller_set_propagation_phase(pressGesture, GTK_PHASE_CAPTURE)
            onClickGesture(pressGesture, "pressed") { _, _, _ in
                let state = gtk_event_controller_get_current_event_state(pressGesture).rawValue
                bind(extend: state & cgtk_shift_mask() != 0)
            }
            gtk_widget_add_controller(button, pressGesture)
            let long = gtk_gesture_long_press_new()!
            gtk_event_controller_set_propagation_phase(long, GTK_PHASE_CAPTURE)
            onLongPress(long) { _, _ in bind(extend: true) }
            gtk_widget_add_controller(button, long)
        }
    }

    private let buffer: TextBuffer
    private let textView: UnsafeMutablePointer<GtkWidget>
    private let model: ComposerModel
    private let moved: () -> Void

    /// What a click on `direction` does (also the test hook).
    func press(_ direction: CaretDirection, extend: Bool) {
        let selection = buffer.selection
        let move = CaretMotion.plan(selection: TextSelection(anchor: selection.anchor, caret: selection.caret),
                                    document: model.document, direction: direction, extend: extend)
        switch move {
        case .set(let target):
            buffer.select(anchor: target.anchor, caret: target.caret)
        case .displayLine(let up, let extend):
            // GtkTextView's own move keeps the horizontal position across lines, as the
            // arrow keys do.
            cgtk_text_view_move_cursor(cast(textView), GTK_MOVEMENT_DISPLAY_LINES, up ? -1 : 1, extend ? 1 : 0)
        }
        gtk_text_view_scroll_mark_onscreen(cast(textView), gtk_text_buffer_get_insert(buffer.pointer))
        moved()
    }
}
