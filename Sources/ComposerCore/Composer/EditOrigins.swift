/// Attributes each buffer change to what caused it.
///
/// GtkTextBuffer reports *that* text changed, never *why*. The cause is known just before:
/// an IM commit or delete-surrounding emission (seen by emission hooks), an undo/redo
/// signal, a paste in flight, a drop, or the composer's own edit. Whatever changes the
/// buffer with none of those in force came from a key the text view handled itself
/// (Backspace, Delete, a newline). The composer keeps it from the input events.
final class EditOrigins {
    /// An origin whose end we observe (commit, undo, redo, program).
    private var scoped: [EditOrigin] = []
    /// An origin whose end we cannot observe (delete-surrounding, drop): it holds until the
    /// next key press or settle, whichever comes first.
    private var untilSettle: EditOrigin?
    /// GTK4 pastes asynchronously: from paste-clipboard until the buffer's paste-done.
    var pasteInFlight = false

    var current: EditOrigin {
        scoped.last ?? (pasteInFlight ? .paste : nil) ?? untilSettle ?? .key
    }

    func begin(_ origin: EditOrigin) { scoped.append(origin) }

    func end(_ origin: EditOrigin) {
        if let index = scoped.lastIndex(of: origin) { scoped.remove(at: index) }
    }

    func during<T>(_ origin: EditOrigin, _ body: () -> T) -> T {
        begin(origin)
        defer { end(origin) }
        return body()
    }

    func holdUntilSettle(_ origin: EditOrigin) { untilSettle = origin }

    /// A settle ends any origin we could not see the end of.
    func settled() { untilSettle = nil }

    /// A new key press ends them too, and a paste that never finished: GTK emits no
    /// paste-done when the clipboard had no text.
    func keyPressed() {
        untilSettle = nil
        pasteInFlight = false
    }
}
