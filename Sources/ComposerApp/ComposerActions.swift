import CGtk
import ComposerCore
import GtkBinding

/// The composer's commands (`ComposerCommand`) as GActions in the window's "composer"
/// group, with their shortcuts and the buttons bound to them.
///
/// Shortcuts go through a GtkShortcutController, not through key names: GTK matches a
/// shortcut on the key's position in the other layouts too, so Ctrl+Q quits with a Russian
/// or Greek layout active. The buttons follow their actions' enabled state (a disabled
/// action makes its button insensitive), set in one place: `update(canSend:canTrim:)`.
final class ComposerActions {
    static let group = "composer"

    private let window: UnsafeMutablePointer<GtkWidget>
    private var actions: [ComposerCommand: OpaquePointer] = [:]

    init(window: UnsafeMutablePointer<GtkWidget>, sendButton: UnsafeMutablePointer<GtkWidget>,
         trimButton: UnsafeMutablePointer<GtkWidget>, perform: @escaping (ComposerCommand) -> Void) {
        self.window = window
        let group = g_simple_action_group_new()!
        for command in ComposerCommand.allCases {
            let action = g_simple_action_new(command.rawValue, nil)!
            // "activate": void (*)(GSimpleAction *, GVariant *parameter, gpointer).
            onPointerSignal(action, "activate") { _ in perform(command) }
            g_action_map_add_action(opaque(group), action)
            g_object_unref(action.rawPointer)  // the group holds it
            actions[command] = action
        }
        gtk_widget_insert_action_group(window, Self.group, opaque(group))
        g_object_unref(group.rawPointer)  // the window holds it

        gtk_actionable_set_action_name(opaque(sendButton), Self.name(.send))
        gtk_actionable_set_action_name(opaque(trimButton), Self.name(.trim))

        // In the capture phase, on the window: before the text view and its input method.
        let shortcuts = gtk_shortcut_controller_new()!
        gtk_event_controller_set_propagation_phase(shortcuts, GTK_PHASE_CAPTURE)
        for shortcut in ComposerCommand.shortcuts {
            gtk_shortcut_controller_add_shortcut(opaque(shortcuts), gtk_shortcut_new(
                gtk_shortcut_trigger_parse_string(shortcut.accelerator), gtk_named_action_new(Self.name(shortcut.command))))
        }
        gtk_widget_add_controller(window, shortcuts)
    }

    private static func name(_ command: ComposerCommand) -> String { "\(group).\(command.rawValue)" }

    /// Runs the shortcut of Control(+Shift)+`letter` for a key that types that letter in
    /// another layout: GTK 4.8 matches other layouts only at the same shift level, so
    /// Ctrl+Shift+T with the T key typing Е or Τ needs this. False when there is no such
    /// shortcut or its command cannot run now.
    func activateShortcut(letter: Character, shift: Bool) -> Bool {
        guard let command = ComposerCommand.shortcut(letter: letter, shift: shift),
              let action = actions[command], g_action_get_enabled(action) != 0 else { return false }
        return gtk_widget_activate_action_variant(window, Self.name(command), nil) != 0
    }

    /// The commands' enabled state (the buttons' sensitivity follows).
    func update(canSend: Bool, canTrim: Bool) {
        g_simple_action_set_enabled(actions[.send], canSend ? 1 : 0)
        g_simple_action_set_enabled(actions[.trim], canTrim ? 1 : 0)
    }
}
