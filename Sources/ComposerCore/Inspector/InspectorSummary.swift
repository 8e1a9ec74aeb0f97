/// The one-line summaries of the inspector's rows.
enum InspectorSummary {
    static func summary(of event: TraceEvent) -> String {
        switch event {
        case let .start(backend, imModule, settings):
            return "start: \(backend), IM module \(imModule), limit \(settings.limit.limit) \(settings.limit.unit.rawValue) (\(settings.limit.mode.rawValue))"
        case .ready: return "ready"
        case .focus(let isIn): return isIn ? "focus in" : "focus out"
        case let .key(keyval, consumed, shift, forwarded):
            let name = (shift ? "Shift+" : "") + keyval
            let after = forwarded ? " (forwarded after its commit)" : ""
            switch consumed {
            case true?: return "key \(name) — taken by the input method" + after
            case false?: return "key \(name) — passed on by the input method" + after
            case nil: return "key \(name)" + after
            }
        case .preeditStart: return "preedit start"
        case .preedit(let preedit):
            return preedit.text.isEmpty ? "preedit cleared" : "preedit “\(preedit.text)” cursor \(preedit.cursor)"
        case .preeditEnd: return "preedit end"
        case .commit(let text): return "commit “\(text)”"
        case .surroundingRetrieve: return "surrounding text read"
        case let .surroundingDelete(offset, count): return "delete surrounding: offset \(offset), count \(count)"
        case .text(let snapshot): return "text “\(snapshot.text)” caret \(snapshot.caret)"
        case let .textLength(length, caret, _): return "text of \(length) characters, caret \(caret)"
        case .edit(let edit):
            let change = edit.removed.isEmpty ? "inserted “\(edit.inserted)”"
                : edit.inserted.isEmpty ? "deleted “\(edit.removed)”" : "replaced “\(edit.removed)” with “\(edit.inserted)”"
            return "edit (\(edit.origin.rawValue)) at \(edit.range.lowerBound): \(change)"
        case let .limit(removed, at): return "limit cut “\(removed)” at \(at)"
        case let .overflow(start, end, over, unit):
            return over == 0 ? "overflow: under the limit" : "overflow: \(over) \(unit.rawValue) over (\(start)–\(end))"
        case let .completion(state, prefix, query, items, selected):
            return state == .close ? "completion closed" : "completion \(state.rawValue) \(prefix)\(query): \(items.count) rows, row \(selected) selected"
        case let .accept(item, text): return "accepted \(item): “\(text)”"
        case .layout(let layout):
            return "layout: input \(layout.input), list \(layout.list), completion \(layout.completion), keyboard \(layout.keyboard)"
        case .keyboard(let keyboard):
            return keyboard.visible ? "keyboard shown (\(keyboard.height) px, \(keyboard.source.rawValue))" : "keyboard hidden"
        case let .send(text, editsLast): return editsLast ? "edited the last message: “\(text)”" : "sent “\(text)”"
        case let .exit(text, _, preedit, reason):
            return "exit (\(reason.rawValue)) with “\(text)”" + (preedit.isEmpty ? "" : ", preedit “\(preedit)”")
        case .settle: return "settled"
        case let .selection(anchor, caret): return anchor == caret ? "caret at \(caret)" : "selection \(anchor)–\(caret)"
        case .command(let command): return "command \(command.name)"
        case .data(let data): return "data: " + data.sources.map { "\($0.count) \($0.name)" }.joined(separator: ", ")
        case .diverged(let text): return "the buffer diverged: “\(text)”"
        case .inputMethodLost(let name): return "the input method left the bus (\(name))"
        case .history(let lastSent): return "the last message sent before: “\(lastSent)”"
        case .paint: return "a frame showing the input was painted"
        case let .press(x, y, imResetFirst):
            return "a press in the text at \(x),\(y)" + (imResetFirst ? " (the input method was reset for it first)" : "")
        case .placement(let placement): return summary(of: placement)
        }
    }
}

extension InspectorSummary {
    /// "caret 120,48 0×17 → ibus SetCursorLocation 120,80 50×600 · candidate window 120,680 210×94".
    static func summary(of placement: CandidatePlacement) -> String {
        var line = "caret \(placement.given)"
        if let sent = placement.sent { line += " → \(placement.via ?? "sent") \(sent)" }
        if let caret = placement.caret, placement.sent != caret { line += " (on screen \(caret))" }
        line += placement.popup.map { " · candidate window \($0)" } ?? ""
        return line
    }
}
