import CGtk
import GtkBinding

/// The composer's commands as GActions in the window's "composer" group — send, trim to
/// the limit, quit — with their shortcuts and the buttons bound to them.
///
/// Shortcuts go through a GtkShortcutController, not through key names: GTK matches a
/// shortcut on the key's position in the other layouts too, so Ctrl+Q quits and
/// Ctrl+Shift+T trims with a Russian or Greek layout active, where those keys type й, е, ;
/// or τ. Whether each command can run is set in one place, `update(canSend:canTrim:)`, and
/// the buttons follow their actions (a disabled action makes its button insensitive).
final class ComposerActions {
    static let group = "composer"

    /// The shortcuts: a Latin letter with Control (and Shift) and the action it runs.
    static let shortcuts: [(letter: Character, shift: Bool, action: String)] = [
        ("q", false, "quit"), ("t", true, "trim"),
    ]

    private let window: UnsafeMutablePointer<GtkWidget>

    private let send: OpaquePointer
    private let trim: OpaquePointer
    private let quit: OpaquePointer

    init(window: UnsafeMutablePointer<GtkWidget>, sendButton: UnsafeMutablePointer<GtkWidget>,
         trimButton: UnsafeMutablePointer<GtkWidget>,
         send onSend: @escaping () -> Void, trim onTrim: @escaping () -> Void, quit onQuit: @escaping () -> Void) {
        self.window = window
        let group = g_simple_action_group_new()!
        func action(_ name: String, _ body: @escaping () -> Void) -> OpaquePointer {
            let action = g_simple_action_new(name, nil)!
            // "activate": void (*)(GSimpleAction *, GVariant *parameter, gpointer).
            onPointerSignal(action, "activate") { _ in body() }
            g_action_map_add_action(opaque(group), action)
            g_object_unref(action.rawPointer)  // the group holds it
            return action
        }
        send = action("send", onSend)
        trim = action("trim", onTrim)
        quit = action("quit", onQuit)
        gtk_widget_insert_action_group(window, Self.group, opaque(group))
        g_object_unref(group.rawPointer)  // the window holds it

        gtk_actionable_set_action_name(opaque(sendButton), "\(Self.group).send")
        gtk_actionable_set_action_name(opaque(trimButton), "\(Self.group).trim")

        // In the capture phase, on the window: before the text view and its input method.
        let shortcuts = gtk_shortcut_controller_new()!
        gtk_event_controller_set_propagation_phase(shortcuts, GTK_PHASE_CAPTURE)
        for (letter, shift, name) in Self.shortcuts {
            let trigger = "<Control>\(shift ? "<Shift>" : "")\(letter)"
            let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger),
                                            gtk_named_action_new("\(Self.group).\(name)"))
            gtk_shortcut_controller_add_shortcut(opaque(shortcuts), shortcut)
        }
        gtk_widget_add_controller(window, shortcuts)
    }

    /// Runs the shortcut of Control(+Shift)+`letter`, for a key that types that letter in
    /// another layout (`KeyPress.latinLetterInAnotherLayout`); false when there is none or
    /// its action is disabled.
    func activateShortcut(letter: Character, shift: Bool) -> Bool {
        guard let shortcut = Self.shortcuts.first(where: { $0.letter == letter && $0.shift == shift }),
              isEnabled(shortcut.action) else { return false }
        return gtk_widget_activate_action_variant(window, "\(Self.group).\(shortcut.action)", nil) != 0
    }

    /// The commands' enabled state (the buttons' sensitivity follows).
    func update(canSend: Bool, canTrim: Bool) {
        g_simple_action_set_enabled(send, canSend ? 1 : 0)
        g_simple_action_set_enabled(trim, canTrim ? 1 : 0)
    }

    /// Whether the named command can run now (for tests).
    func isEnabled(_ name: String) -> Bool {
        switch name {
        case "send": g_action_get_enabled(send) != 0
        case "trim": g_action_get_enabled(trim) != 0
        case "quit": g_action_get_enabled(quit) != 0
        default: false
        }
    }
}
