import CGtk
import ComposerCore

/// The composer's look: messages on tinted rows, the input bar set apart. Colours come
/// from the theme's named colours so light and dark themes both work.
enum Style {
    /// On libadwaita's stylesheet (`SystemStyle`): its named colours (`@accent_bg_color`,
    /// `@error_color`…) follow the dark and high-contrast styles by themselves; the few
    /// colours of our own are `Palette`'s.
    static let css = """
    .messages { background: transparent; padding: 6px 0; }
    .messages row { padding: 0; background: transparent; }
    /* Square, like the input's frame: the messages in view are drawn again for every key
       too, and eight rounded bubbles cost a third more CPU per key on a software renderer
       (Benchmarks/findings.md). */
    .message {
        margin: 3px 12px;
        padding: 6px 10px;
        border-radius: 0;
        background: alpha(@accent_bg_color, 0.12);
    }
    .message.peer { background: alpha(@window_fg_color, 0.08); }
    /* The input like an entry (libadwaita's entry colours), the buttons beside it
       libadwaita's own: Send the suggested action, the toggles flat icons. Square: each
       key's frame redraws the input, and a rounded background is a rounded clip whose
       every pixel GSK's GL renderer shades with a corner test (on a software renderer
       a fifth of a plain text view's CPU per key; Benchmarks/findings.md). */
    .input-bar { padding: 0; }
    .composer-input-frame { background-color: alpha(currentColor, 0.1); border-radius: 0; }
    .composer-input-frame textview, .composer-input-frame text { background-color: transparent; }
    /* The open list is drawn again for every key too. On a software renderer a tinted
       selected row cost a sixth of the list's drawing, round avatars a tenth (a rounded
       clip each) and the dimmed details (an opacity node each) more: the selected row has
       an accent bar instead, the avatars are square, the details dimmed by their colour
       (`.ime-dimmed`, the palette's; Benchmarks/findings.md). */
    .completion { background: transparent; }
    .completion row { padding: 4px 12px 4px 9px; border: 0 solid transparent; border-left-width: 3px; }
    .completion row:selected { background: none; border-color: @accent_bg_color; color: inherit; }
    .avatar {
        min-width: 26px; min-height: 26px; border-radius: 0;
        background: alpha(@accent_bg_color, 0.35); font-weight: bold;
    }
    .emoji-glyph { font-size: 150%; min-width: 26px; }
    .typing-indicator { font-style: italic; padding: 2px 0; }
    .caret-toolbar { padding: 2px 0; }
    .simulated-keyboard { background: alpha(@window_fg_color, 0.15); }
    .counter { font-feature-settings: "tnum"; min-width: 3em; }
    .counter.provisional { font-style: italic; }
    .counter.error, .limit-hint { color: @error_color; }
    /* The IME inspector: each row's kind in its own colour (the filter buttons too). */
    .inspector { border-left: 1px solid alpha(@window_fg_color, 0.15); }
    .inspector-row { padding: 1px 4px; }
    /* An inscription is as tall as its font's line, and draws only inside itself: a line
       of Japanese in a fallback font is taller, and its underline was cut off. */
    .inspector-summary { min-height: 1.45em; }
    .inspector-kind { font-size: 90%; font-weight: bold; }
    label.inspector-key, button.inspector-key label { color: @ime_key_color; }
    label.inspector-preedit, button.inspector-preedit label { color: @ime_preedit_color; }
    label.inspector-commit, button.inspector-commit label { color: @ime_commit_color; }
    label.inspector-surrounding, button.inspector-surrounding label { color: @ime_surrounding_color; }
    label.inspector-edit, button.inspector-edit label { color: @ime_edit_color; }
    label.inspector-decision, button.inspector-decision label { color: @ime_decision_color; }
    label.inspector-window, button.inspector-window label { color: alpha(@window_fg_color, 0.6); }
    .inspector-anomaly { color: @warning_color; font-weight: bold; }
    .inspector-environment { font-size: 90%; }
    """

    /// Installs the style sheet and the palette for the default display (once per process),
    /// on libadwaita's styles; the palette then follows the system's style.
    static func install() {
        guard !installed, let display = gdk_display_get_default() else { return }
        installed = true
        SystemStyle.start()
        for (provider, data) in [(gtk_css_provider_new()!, css), (palette, Palette(SystemStyle.current).css)] {
            gtk_css_provider_load_from_data(provider, data, -1)
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider),
                                                       UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        }
        paletteShown = Palette(SystemStyle.current)
        // The style manager lives as long as the process, as this does.
        _ = SystemStyle.observe { showPalette(Palette(SystemStyle.current)) }
    }

    /// Loads `new` into the palette's provider, if it differs: GTK restyles every widget.
    private static func showPalette(_ new: Palette) {
        guard new != paletteShown else { return }
        paletteShown = new
        gtk_css_provider_load_from_data(palette, new.css, -1)
    }

    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static let palette = gtk_css_provider_new()!
    nonisolated(unsafe) private static var paletteShown: Palette?

    /// Adds CSS class `name` to `widget` (`on`) or removes it.
    static func setClass(_ name: String, on widget: UnsafeMutablePointer<GtkWidget>, _ on: Bool) {
        if on { gtk_widget_add_css_class(widget, name) } else { gtk_widget_remove_css_class(widget, name) }
    }
}

/// The colours the composer picks itself, for one appearance: the inspector's kinds and the
/// text tags (overflow, highlights). Everything else is libadwaita's named colours. Each
/// reads on its background, at least WCAG's 4.5:1 (`PaletteTests`): GNOME's palette, lighter
/// shades on dark, darker ones with high contrast.
nonisolated struct Palette: Equatable, Sendable {
    let appearance: SystemStyle.Appearance

    init(_ appearance: SystemStyle.Appearance) { self.appearance = appearance }

    private func pick(light: String, dark: String, lightHC: String, darkHC: String) -> String {
        switch (appearance.dark, appearance.highContrast) {
        case (false, false): light
        case (true, false): dark
        case (false, true): lightHC
        case (true, true): darkHC
        }
    }

    /// Each inspector kind's colour, by its CSS name (`inspector-KIND`).
    var inspectorKinds: [(kind: String, color: String)] {
        [("key", pick(light: "#1c71d8", dark: "#78aeed", lightHC: "#1a5fb4", darkHC: "#99c1f1")),
         ("preedit", pick(light: "#9141ac", dark: "#dc8add", lightHC: "#613583", darkHC: "#e8b5e9")),
         ("commit", pick(light: "#1b7a4b", dark: "#8ff0a4", lightHC: "#1b6b44", darkHC: "#b5f5c4")),
         ("surrounding", pick(light: "#c64600", dark: "#ffa348", lightHC: "#8f3300", darkHC: "#ffbe6f")),
         ("edit", pick(light: "#865e3c", dark: "#cdab8f", lightHC: "#63452c", darkHC: "#e3cdb9")),
         ("decision", pick(light: "#e01b24", dark: "#f66151", lightHC: "#a51d2d", darkHC: "#ff938a"))]
    }

    /// The overflow tag's text and background.
    var overflow: (foreground: String, background: String) {
        (pick(light: "#c01c28", dark: "#ff8a7a", lightHC: "#a51d2d", darkHC: "#ff938a"),
         pick(light: "rgba(224,27,36,0.12)", dark: "rgba(255,123,99,0.18)",
              lightHC: "rgba(224,27,36,0.22)", darkHC: "rgba(255,123,99,0.32)"))
    }

    /// The highlight tags' text colours.
    func highlight(_ kind: HighlightKind) -> String {
        switch kind {
        case .mention: pick(light: "#1a5fb4", dark: "#99c1f1", lightHC: "#0f3c73", darkHC: "#c0dbff")
        case .channel: pick(light: "#16683f", dark: "#8ff0a4", lightHC: "#1b6b44", darkHC: "#b5f5c4")
        case .emoji: pick(light: "#a51d2d", dark: "#f9f06b", lightHC: "#7a1520", darkHC: "#fbf7a5")
        }
    }

    /// How much of its colour dimmed text keeps: libadwaita's `dim-label` opacity, 0.55, and
    /// 0.9 with high contrast.
    var dimmedAlpha: Double { appearance.highContrast ? 0.9 : 0.55 }

    /// The palette as named colours for the style sheet (`@ime_key_color`…), and `.ime-dimmed`.
    ///
    /// `.ime-dimmed` is `dim-label`'s look by the text's colour instead of the widget's opacity.
    /// An opacity below 1 makes GTK draw the widget through an opacity node, which GSK's GL
    /// renderer draws into a texture of its own and then blends, in every frame that shows it:
    /// the counter near the limit, the typing indicator, each inspector row's time. For text
    /// the two look the same. Named ours: libadwaita 1.7 has a `.dimmed` of its own, an
    /// opacity again.
    var css: String {
        (inspectorKinds.map { "@define-color ime_\($0.kind)_color \($0.color);" }
            + [".ime-dimmed { color: alpha(currentColor, \(dimmedAlpha)); }"]).joined(separator: "\n")
    }
}
