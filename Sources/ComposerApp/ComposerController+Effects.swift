import CGtk
import ComposerCore
import GtkBinding

/// The composer's effects turned into GTK calls, in the order they come.
extension ComposerController {
    /// Applies the composer's effects, in order.
    func apply(_ effects: [Effect]) {
        for effect in effects {
            guard !destroyed else { return }
            switch effect {
            case let .edit(range, text):
                ownChanges.edit { ui.buffer.replace(range, with: text) }
            case .clear:
                ownChanges.edit { ui.buffer.clearIrreversibly() }
            case let .select(anchor, caret):
                ownChanges.select { ui.buffer.select(anchor: anchor, caret: caret) }
            case let .tag(.overflow(add, remove)):
                ui.buffer.retag(ui.tags.overflow, add: add, remove: remove)
            case let .tag(.highlight(kind, add, remove)):
                ui.buffer.retag(ui.tags.highlights[kind]!, add: add, remove: remove)
            case let .tag(.control(add, remove)):
                ui.buffer.retag(ui.tags.control, add: add, remove: remove)
            case .trace(let event):
                trace.emit(event)
                inspector.record(event)
            case .awaitFrame:
                ui.afterNextFrame { [weak self] in self?.forward(.framePainted) }
            case .tracingStarted:
                inspector.tracingStarted(Self.startEvent(options))
            case .showStatus(let status):
                ui.limitIndicators.show(status)
                counterSpeech.changed(status)
            case let .controls(canSend, canTrim, canMoveCaret, completionOpen):
                actions.update(canSend: canSend, canTrim: canTrim, canMoveCaret: canMoveCaret,
                               completionOpen: completionOpen)
            case .completionChanged:
                panelLayout.relayout()
            case .keyboardChanged(let keyboard):
                panelLayout.keyboard = keyboard
                panelLayout.relayout()
                syncKeyboardToggle()
            case .showLimitHint(let text):
                ui.limitIndicators.showLimitHint(text)
            case .bell:
                gtk_widget_error_bell(ui.textView)
            case .sent(let text):
                ui.messageList.append(text)
                draftKeeper?.sent(text, edited: false, model: model)
            case .sentEdited(let text):
                ui.messageList.replaceLast(with: text)
                draftKeeper?.sent(text, edited: true, model: model)
            case .editingLastSent(let editing):
                ui.showEditingLastSent(editing)
            case .resetInputMethod:
                gtk_text_view_reset_im_context(cast(ui.textView))
            case .finishComposition(let keep):
                // The composer decided whether the module in use may drop it; the window
                // sees whether it did: no commit, and nothing drawn any more.
                if let finish = inputMethod.finishComposition(), let keep, !finish.committed, !finish.stillDrawn {
                    ui.buffer.insertAtCaret(keep)
                }
            case .keepAbandonedComposition(let drawn):
                // Its input method is gone. A module that still draws the composition stops
                // on focus out (fcitx5's clears it; a reset asks the dead daemon and leaves it
                // drawn); one that commits on focus out by itself (IBus in commit mode) has
                // typed it then, and nothing is added.
                if inputMethod.finishComposition()?.committed != true {
                    ui.buffer.insertAtCaret(drawn)
                }
            case .scrollToCaret:
                gtk_text_view_scroll_mark_onscreen(cast(ui.textView), gtk_text_buffer_get_insert(ui.buffer.pointer))
            case .requestSettle:
                if !scheduler.isSettling { scheduler.request() }
            case .quit:
                // Every exit path (Ctrl+Q, closing, SIGTERM/SIGINT) comes here: the draft is
                // written before the app goes.
                draftKeeper?.flush(model)
                quit()
            }
        }
    }

}
