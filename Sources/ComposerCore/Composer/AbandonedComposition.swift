/// Tells a composition its input method abandoned from one the user ended.
///
/// A composition ends for a reason the composer sees: a key (Escape, BackSpace on its last
/// letter, the key that commits), a commit, a click or a focus change (the composer finishes
/// it then), or an end the composer asked for itself. When an input method dies, its GTK
/// module may end the composition on its own as its connection closes (IBus's does), with
/// none of these: the composition the user saw would just be gone. This remembers the last
/// composition drawn and whether anything explains its end; `unexplainedEnd` is the text
/// of one that ended with nothing to explain it, until something happens that would (a key,
/// a commit, a click, a focus change). Input-method loss in that window means the input
/// method took it with it.
///
/// Why not a time limit: the name leaving the session bus and the module's own end come
/// from two connections and reach the main loop in either order, a settle or more apart on
/// a loaded machine. Any key or other user action closes the window instead; a composition
/// ended by the input method's own menu (a mouse click in its panel) and followed by no key
/// at all before the daemon dies would come back — text the user can undo, rather than
/// text lost.
struct AbandonedComposition: Equatable {
    /// The text the input method drew last (non-empty), while no key was pressed since.
    private var lastDrawn: String?
    /// A composition that ended with no key, commit or other explanation since it was drawn.
    private(set) var unexplainedEnd: String?

    /// The input method drew `text` (a non-empty preedit).
    mutating func drawn(_ text: String) {
        lastDrawn = text
        unexplainedEnd = nil
    }

    /// The composition ended (its preedit emptied or ended) without a commit.
    mutating func ended() {
        unexplainedEnd = lastDrawn
        lastDrawn = nil
    }

    /// A key was pressed: an end after it is the key's doing.
    mutating func keyPressed() {
        lastDrawn = nil
        unexplainedEnd = nil
    }

    /// A commit, a click, a focus change or the composer's own finishing explains the end.
    mutating func explained() {
        lastDrawn = nil
        unexplainedEnd = nil
    }
}
