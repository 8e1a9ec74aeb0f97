import CGtk

/// The composer's look: messages as rounded bubbles, the input bar set apart. Colours come
/// from the theme's named colours so light and dark themes both work.
enum Style {
    static let css = """
    .messages { background: transparent; padding: 6px 0; }
    .messages row { padding: 0; background: transparent; }
    .message {
        margin: 3px 12px;
        padding: 6px 10px;
        border-radius: 12px;
        background: alpha(@theme_selected_bg_color, 0.12);
    }
    .input-bar { padding: 0; }
    /* Flat buttons next to the input (libadwaita's look rather than GTK 4.8's gradients):
       a gradient, an inset and an outset shadow are three more draws per button in every
       frame, and the window is redrawn whole on each keystroke (see docs/benchmarks.md). */
    .input-bar button, .caret-toolbar button {
        background-image: none; box-shadow: none; border-color: transparent;
        background-color: alpha(@theme_fg_color, 0.08);
    }
    .input-bar button:hover, .caret-toolbar button:hover { background-color: alpha(@theme_fg_color, 0.12); }
    .input-bar button:active, .input-bar button:checked,
    .caret-toolbar button:active { background-color: alpha(@theme_fg_color, 0.2); }
    .input-bar button.toggle:not(:checked):not(:hover):not(:active),
    .caret-toolbar button:not(:hover):not(:active) { background-color: transparent; }
    .input-bar button.suggested-action { background-color: @theme_selected_bg_color; color: @theme_selected_fg_color; }
    .input-bar button.suggested-action:hover { background-color: shade(@theme_selected_bg_color, 1.1); }
    .input-bar button.suggested-action:active { background-color: shade(@theme_selected_bg_color, 0.88); }
    .input-bar button.suggested-action:disabled {
        background-color: alpha(@theme_fg_color, 0.08); color: alpha(@theme_fg_color, 0.45);
    }
    .completion { background: transparent; }
    .completion row { padding: 4px 12px; }
    .completion row:selected { background: alpha(@theme_selected_bg_color, 0.25); color: inherit; }
    .avatar {
        min-width: 26px; min-height: 26px; border-radius: 13px;
        background: alpha(@theme_selected_bg_color, 0.35); font-weight: bold;
    }
    .emoji-glyph { font-size: 150%; min-width: 26px; }
    .typing-indicator { font-style: italic; padding: 2px 0; }
    .caret-toolbar { padding: 2px 0; }
    .simulated-keyboard { background: alpha(@theme_fg_color, 0.15); }
    .message.peer { background: alpha(@theme_fg_color, 0.08); }
    /* Square corners: a rounded background is one more draw in every frame (the window is
       redrawn whole on each keystroke with GL on Xvfb; see docs/benchmarks.md). */
    .counter { font-feature-settings: "tnum"; min-width: 3em; }
    .counter.provisional { font-style: italic; }
    .counter.error, .limit-hint { color: @error_color; }
    /* The IME inspector: each row's kind in its own colour (the filter buttons too). */
    .inspector { border-left: 1px solid alpha(@theme_fg_color, 0.15); }
    .inspector-row { padding: 1px 4px; }
    .inspector-kind { font-size: 90%; font-weight: bold; }
    label.inspector-key, button.inspector-key label { color: #1c71d8; }
    label.inspector-preedit, button.inspector-preedit label { color: #9141ac; }
    label.inspector-commit, button.inspector-commit label { color: #26a269; }
    label.inspector-surrounding, button.inspector-surrounding label { color: #c64600; }
    label.inspector-edit, button.inspector-edit label { color: #865e3c; }
    label.inspector-decision, button.inspector-decision label { color: #e01b24; }
    label.inspector-window, button.inspector-window label { color: alpha(@theme_fg_color, 0.6); }
    .inspector-anomaly { color: @warning_color; font-weight: bold; }
    .inspector-environment { font-size: 90%; }
    """

    /// Installs the style sheet for the default display (once per process).
    static func install() {
        guard !installed, let display = gdk_display_get_default() else { return }
        installed = true
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider),
                                                   UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }

    nonisolated(unsafe) private static var installed = false

    /// Adds CSS class `name` to `widget` (`on`) or removes it.
    static func setClass(_ name: String, on widget: UnsafeMutablePointer<GtkWidget>, _ on: Bool) {
        if on { gtk_widget_add_css_class(widget, name) } else { gtk_widget_remove_css_class(widget, name) }
    }
}
