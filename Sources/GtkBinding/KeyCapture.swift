import CGtk

/// A key press as the capture-phase handler sees it.
public struct KeyPress {
    public let keyval: UInt32
    public let state: UInt32
    /// The GdkEvent being handled, for `gtk_text_view_im_context_filter_keypress`.
    public let event: OpaquePointer?

    public var name: String { string(fromBorrowed: gdk_keyval_name(keyval)) }
    public var shift: Bool { state & cgtk_shift_mask() != 0 }
    public var control: Bool { state & cgtk_control_mask() != 0 }
    public var alt: Bool { state & cgtk_alt_mask() != 0 }
}

/// Installs a capture-phase key handler on `widget`: it sees every key press before the
/// widget's own handlers (GtkTextView turns an unconsumed Return into a newline inside its
/// own key handler, so only the capture phase can route Return). Return true to stop the
/// event there.
public func captureKeyPresses(on widget: some GPointer, _ handler: @escaping (KeyPress) -> Bool) {
    let controller = gtk_event_controller_key_new()!
    gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
    onKeySignal(controller, "key-pressed") { keyval, _, state in
        handler(KeyPress(keyval: keyval, state: state,
                         event: gtk_event_controller_get_current_event(controller)))
    }
    gtk_widget_add_controller(cast(widget), controller)
}

/// Lets the text view's input method see `key` first; true when the IM consumed it.
public func inputMethodConsumes(_ key: KeyPress, textView: some GPointer) -> Bool {
    guard let event = key.event else { return false }
    return gtk_text_view_im_context_filter_keypress(cast(textView), event) != 0
}

/// Focus enter/leave of `widget` (GtkEventControllerFocus).
public func observeFocus(of widget: some GPointer, _ handler: @escaping (_ focused: Bool) -> Void) {
    let controller = gtk_event_controller_focus_new()!
    onSignal(controller, "enter") { handler(true) }
    onSignal(controller, "leave") { handler(false) }
    gtk_widget_add_controller(cast(widget), controller)
}
