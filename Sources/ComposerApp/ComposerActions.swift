import CGtk
import ComposerCore
import GtkBinding

/// The composer's commands (`ComposerCommand`), the caret moves (`CaretDirection`) and the
/// completion list's commands as GActions in the window's "composer" group, with their
/// shortcuts and the buttons bound to them — the gnome-text-editor way. The completion
/// list's keys (Up, Down, Tab, Enter, Escape) have no accelerator: they must reach the
/// input method first, so the composer routes them itself (`Composer.routes`).
///
/// Shortcuts go through a GtkShortcutController, not through key names: GTK matches a
/// shortcut on the key's position in the other layouts too, so Ctrl+Q quits with a Russian
/// or Greek layout active. What can run now is set in one place, `update`: a disabled
/// action makes its button insensitive, and the caret toolbar's buttons, bound to the caret
/// actions, follow them.
///
/// The window's toggles (the inspector, the caret toolbar, the simulated keyboard) are
/// stateful boolean actions, their buttons bound by action name: the action holds the state
/// and the button shows it. A click or F12 asks for a change (`change-state`); whoever owns
/// the feature decides and sets the state (`setState`, which asks nothing back).
final class ComposerActions {
    /// The window's toggles, by action name.
    enum Toggle: String, CaseIterable {
        case inspector = "inspector"
        case caretToolbar = "caret-toolbar"
        case simulatedKeyboard = "simulated-keyboard"
    }

    static let group = "composer"

    private let window: UnsafeMutablePointer<GtkWidget>
    private var actions: [ComposerCommand: OpaquePointer] = [:]
    private var caretActions: [OpaquePointer] = []
    private var completionActions: [OpaquePointer] = []
    private var toggles: [Toggle: OpaquePointer] = [:]

    init(window: UnsafeMutablePointer<GtkWidget>, sendButton: UnsafeMutablePointer<GtkWidget>,
         trimButton: UnsafeMutablePointer<GtkWidget>, caretButtons: [(CaretDirection, UnsafeMutablePointer<GtkWidget>)],
         toggles toggleButtons: [Toggle: UnsafeMutablePointer<GtkWidget>],
         perform: @escaping (ComposerCommand) -> Void, moveCaret: @escaping (CaretDirection, _ extend: Bool) -> Void,
         completion: @escaping (InputEvent) -> Void,
         toggleRequested: @escaping (Toggle, Bool) -> Void, copyReport: @escaping () -> Void,
         checklist: @escaping () -> Void) {
        self.window = window
        let group = g_simple_action_group_new()!
        func add(_ name: String, _ activate: @escaping () -> Void) -> OpaquePointer {
            let action = g_simple_action_new(name, nil)!
            // "activate": void (*)(GSimpleAction *, GVariant *parameter, gpointer).
            onPointerSignal(action, "activate") { _ in activate() }
            g_action_map_add_action(opaque(group), action)
            g_object_unref(action.rawPointer)  // the group holds it
            return action
        }
        for command in ComposerCommand.allCases {
            actions[command] = add(command.rawValue) { perform(command) }
        }
        for toggle in Toggle.allCases {
            let action = g_simple_action_new_stateful(toggle.rawValue, nil, g_variant_new_boolean(0))!
            // Activation with no handler toggles a boolean state through "change-state":
            // void (*)(GSimpleAction *, GVariant *value, gpointer). The owner sets the state.
            onPointerSignal(action, "change-state") { value in
                guard let value else { return }
                toggleRequested(toggle, g_variant_get_boolean(OpaquePointer(value)) != 0)
            }
            g_action_map_add_action(opaque(group), action)
            g_object_unref(action.rawPointer)
            toggles[toggle] = action
        }
        _ = add(Self.copyReportAction, copyReport)
        _ = add(Self.checklistAction, checklist)
        for (name, event) in Self.completionCommands {
            completionActions.append(add(name) { completion(event) })
        }
        var caretShortcuts: [(accelerator: String, action: String)] = []
        for direction in CaretDirection.allCases {
            for extend in [false, true] {
                let name = Self.caretActionName(direction, extend: extend)
                caretActions.append(add(name) { moveCaret(direction, extend) })
                caretShortcuts.append((direction.accelerator(extend: extend), "\(Self.group).\(name)"))
            }
        }
        gtk_widget_insert_action_group(window, Self.group, opaque(group))
        g_object_unref(group.rawPointer)  // the window holds it

        gtk_actionable_set_action_name(opaque(sendButton), Self.name(.send))
        gtk_actionable_set_action_name(opaque(trimButton), Self.name(.trim))
        for (direction, button) in caretButtons {
            gtk_actionable_set_action_name(opaque(button), "\(Self.group).\(Self.caretActionName(direction, extend: false))")
        }
        for (toggle, button) in toggleButtons {
            gtk_actionable_set_action_name(opaque(button), "\(Self.group).\(toggle.rawValue)")
        }

        // In the capture phase, on the window: before the text view and its input method.
        let shortcuts = gtk_shortcut_controller_new()!
        gtk_event_controller_set_propagation_phase(shortcuts, GTK_PHASE_CAPTURE)
        let all = ComposerCommand.shortcuts.map { ($0.accelerator, Self.name($0.command)) } + caretShortcuts
            + [("F12", "\(Self.group).\(Toggle.inspector.rawValue)"), ("<Control><Shift>c", "\(Self.group).\(Self.copyReportAction)"),
               ("F11", "\(Self.group).\(Self.checklistAction)")]
        for (accelerator, action) in all {
            gtk_shortcut_controller_add_shortcut(opaque(shortcuts), gtk_shortcut_new(
                gtk_shortcut_trigger_parse_string(accelerator), gtk_named_action_new(action)))
        }
        gtk_widget_add_controller(window, shortcuts)
    }

    private static func name(_ command: ComposerCommand) -> String { "\(group).\(command.rawValue)" }

    /// The inspector's "Copy as bug report" (Ctrl+Shift+C; nothing without an inspector log).
    static let copyReportAction = "inspector-copy-report"
    /// The inspector's Checklist view, on or off (F11; it opens the inspector). Not a
    /// Control+Shift shortcut: Fcitx5 takes a Shift press and release it saw nothing between
    /// (the shortcut ate the letter) as its switch to the first input method.
    static let checklistAction = "inspector-checklist"

    /// The completion list's commands, by action name.
    static let completionCommands: [(String, InputEvent)] = [
        ("completion-next", .moveCompletion(by: 1)), ("completion-previous", .moveCompletion(by: -1)),
        ("completion-accept", .acceptCompletion(index: nil)), ("completion-close", .closeCompletion),
    ]

    /// Whether action `name` of the group can run now (for tests).
    func isEnabled(_ name: String) -> Bool {
        var all = Array(actions.values) + caretActions + completionActions
        all.removeAll { String(cString: g_action_get_name($0)) != name }
        return all.first.map { g_action_get_enabled($0) != 0 } ?? false
    }

    /// Sets `toggle`'s state (its button follows), without asking for a change.
    func setState(_ toggle: Toggle, _ on: Bool) {
        guard let action = toggles[toggle], state(toggle) != on else { return }
        g_simple_action_set_state(action, g_variant_new_boolean(on ? 1 : 0))
    }

    /// `toggle`'s state.
    func state(_ toggle: Toggle) -> Bool {
        guard let action = toggles[toggle], let value = g_action_get_state(action) else { return false }
        defer { g_variant_unref(value) }
        return g_variant_get_boolean(value) != 0
    }

    /// Asks for `toggle` on or off, as its button or shortcut does.
    func request(_ toggle: Toggle, _ on: Bool) {
        guard let action = toggles[toggle] else { return }
        g_action_change_state(action, g_variant_new_boolean(on ? 1 : 0))
    }

    /// "caret-left", "caret-left-extend", …
    static func caretActionName(_ direction: CaretDirection, extend: Bool) -> String {
        "caret-\(direction.rawValue)\(extend ? "-extend" : "")"
    }

    /// Runs the shortcut of Control(+Shift)+`letter` for a key that types that letter in
    /// another layout: GTK 4.8 matches other layouts only at the same shift level, so
    /// Ctrl+Shift+T with the T key typing Е or Τ needs this. False when there is no such
    /// shortcut or its command cannot run now.
    func activateShortcut(letter: Character, shift: Bool) -> Bool {
        guard let command = ComposerCommand.shortcut(letter: letter, shift: shift),
              let action = actions[command], g_action_get_enabled(action) != 0 else { return false }
        return gtk_widget_activate_action_variant(window, Self.name(command), nil) != 0
    }

    /// What can run now: the commands' and the caret moves' enabled state, and the buttons'
    /// sensitivity with them. The caret waits while a composition is in progress.
    func update(canSend: Bool, canTrim: Bool, canMoveCaret: Bool, completionOpen: Bool) {
        g_simple_action_set_enabled(actions[.send], canSend ? 1 : 0)
        g_simple_action_set_enabled(actions[.trim], canTrim ? 1 : 0)
        for action in caretActions { g_simple_action_set_enabled(action, canMoveCaret ? 1 : 0) }
        for action in completionActions { g_simple_action_set_enabled(action, completionOpen ? 1 : 0) }
    }
}
