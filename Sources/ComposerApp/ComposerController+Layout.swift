import CGtk
import ComposerCore
import GtkBinding

/// The panel layout, the keyboard sources, the caret toolbar and the typing indicator.
extension ComposerController {
    /// A toggle's button or shortcut asks for it on or off: its owner decides, and the
    /// toggle's state follows what was decided.
    func toggleRequested(_ toggle: ComposerActions.Toggle, _ on: Bool) {
        switch toggle {
        case .inspector:
            actions.setState(.inspector, on)
            showInspector(on)
        case .caretToolbar:
            actions.setState(.caretToolbar, on)
            panelLayout.toolbarToggled = on
        case .simulatedKeyboard:
            // The composer decides (`SimulatedKeyboard`); `syncKeyboardToggle` shows it.
            forward(.simulatedKeyboardRequested(up: on))
        }
    }

    /// Shows on the simulated keyboard's toggle whether the keyboard is up.
    func syncKeyboardToggle() {
        guard let simulated = composer.simulatedKeyboard else { return }
        actions.setState(.simulatedKeyboard, simulated.isUp)
    }

    func setUpLayout() {
        panelLayout = PanelLayout(ui: ui, sources: sources)
        panelLayout.observeKeyboard = { [weak self] in self?.observe($0) }
        panelLayout.laidOut = { [weak self] in self?.observe($0) }
        panelLayout.completionRowsWanted = { [weak self] in
            guard let completion = self?.completion, completion.isOpen else { return 0 }
            return completion.visibleItems.count
        }
        panelLayout.showCompletion = { [weak self] rows in
            guard let self else { return }
            ui.completionList.show(completion, maximumRows: rows)
        }
        caretToolbar = CaretToolbar(ui: ui, model: model) { [weak self] in self?.scheduler.request() }
        if let inset = options.simulatedKeyboardInset {
            // It follows the input's focus as a device's keyboard does; the toggle hides it
            // or forces it up (`SimulatedKeyboard`), and shows whether it is up.
            gtk_widget_set_visible(ui.keyboardToggle, 1)
            forward(.simulatedKeyboardOffered(inset: inset, inputFocused: gtk_widget_has_focus(ui.textView) != 0))
        }
        // squeekboard tells only whether it is up; the window's lost height tells how tall.
        if DisplayEnvironment.backend == "wayland" {
            keyboardWatcher = DBusPropertyWatcher(name: "sm.puri.OSK0", path: "/sm/puri/OSK0",
                                                  interface: "sm.puri.OSK0", property: "Visible") { [weak self] visible in
                if let visible { self?.observe(.oskVisible(visible)) }
            }
            if let visible = keyboardWatcher?.value { observe(.oskVisible(visible)) }
        }
        var generator = SystemRandomNumberGenerator()
        if let seed = options.peer.seed(drawingFrom: &generator) {
            peerDriver = TypingPeerDriver(peer: TypingPeer(seed: seed, directory: directory), sources: sources,
                                          typing: { [weak self] text in self?.panelLayout.indicatorText = text },
                                          message: { [weak self] text, name in self?.ui.messageList.appendPeer(text, from: name) })
        }
        panelLayout.inputResized = { [weak self] in
            self?.ui.inputSizer.fit(editFrom: nil)
            self?.ui.inputSizer.endScrollWhileGrowing()
        }
    }
}
