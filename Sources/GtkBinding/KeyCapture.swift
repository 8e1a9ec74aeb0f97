import CGtk

/// A key press as the capture-phase handler sees it.
public struct KeyPress {
    public let keyval: UInt32
    /// The hardware key: the same physical key in every layout.
    public let keycode: UInt32
    public let state: UInt32
    /// The GdkEvent being handled, for `gtk_text_view_im_context_filter_keypress`. Borrowed:
    /// valid only while the handler runs, so it never leaves this module.
    let event: OpaquePointer?

    public var name: String { string(fromBorrowed: gdk_keyval_name(keyval)) }
    /// When the key was pressed (ms; the backend's clock: the server's on X11,
    /// CLOCK_MONOTONIC on Wayland compositors); 0 when unknown.
    public var time: UInt32 { event.map { gdk_event_get_time($0) } ?? 0 }
    public var shift: Bool { state & cgtk_shift_mask() != 0 }
    public var control: Bool { state & cgtk_control_mask() != 0 }
    public var alt: Bool { state & cgtk_alt_mask() != 0 }

    /// The Latin letter this key types in another layout, when it types none in the active
    /// one: Q for the key that types й (Russian) or ; (Greek). GTK 4.8 matches a shortcut on
    /// the key's position in the other layouts only at the same shift level, so Ctrl+Shift+T
    /// with the T key typing Е or Τ needs this. Nil for a key that types a Latin letter.
    public var latinLetterInAnotherLayout: Character? {
        if let own = Unicode.Scalar(gdk_keyval_to_unicode(gdk_keyval_to_lower(keyval))),
           ("a"..."z").contains(own) { return nil }
        var keys: UnsafeMutablePointer<GdkKeymapKey>?
        var keyvals: UnsafeMutablePointer<guint>?
        var count: Int32 = 0
        guard gdk_display_map_keycode(gdk_display_get_default(), keycode, &keys, &keyvals, &count) != 0,
              let keys, let keyvals else { return nil }
        defer {
            g_free(keys)
            g_free(keyvals)
        }
        // The unshifted keyval of each layout, first layout first.
        let letters = (0..<Int(count)).filter { keys[$0].level == 0 }.sorted { keys[$0].group < keys[$1].group }
            .compactMap { Unicode.Scalar(gdk_keyval_to_unicode(keyvals[$0])) }
            .filter { ("a"..."z").contains($0) }
        return letters.first.map(Character.init)
    }
}

/// Installs a capture-phase key handler on `widget`: it sees every key press before the
/// widget's own handlers (GtkTextView turns an unconsumed Return into a newline inside its
/// own key handler, so only the capture phase can route Return). Return true to stop the
/// event there.
public func captureKeyPresses(on widget: some GPointer, _ handler: @escaping (KeyPress) -> Bool) {
    let controller = gtk_event_controller_key_new()!
    gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
    onKeySignal(controller, "key-pressed") { keyval, keycode, state in
        handler(KeyPress(keyval: keyval, keycode: keycode, state: state,
                         event: gtk_event_controller_get_current_event(controller)))
    }
    gtk_widget_add_controller(cast(widget), controller)
}

/// CLOCK_MONOTONIC in milliseconds, wrapping like key times (`KeyPress.time` on Wayland).
public func monotonicMilliseconds() -> UInt32 {
    UInt32(truncatingIfNeeded: g_get_monotonic_time() / 1000)
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
