/// Tells a composition its input method abandoned from one the user ended.
///
/// A composition ends for a reason the composer sees: a key that discards it (Escape,
/// BackSpace on its last letter), a commit, a click or a focus change (the composer finishes
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

    /// The keys that end a composition without a commit: the user discarded it.
    static let discardingKeys: Set<String> = ["Escape", "BackSpace", "Delete", "KP_Delete"]

    /// A key was pressed. An end before it is no longer unexplained (the user went on). An
    /// end after it is the key's doing only for a key that discards a composition (Escape,
    /// BackSpace over its last letter): a letter never ends one without a commit, so a
    /// composition that ends after a letter with no commit ended because the input method
    /// went away while the key was on its way to it (IBus's module ends it, warns "Process
    /// Key Event failed" and passes the key on as text).
    mutating func keyPressed(_ name: String) {
        unexplainedEnd = nil
        if Self.discardingKeys.contains(name) { lastDrawn = nil }
        // A letter's key name is the letter ("k"): what the module commits when it passes
        // the key on.
        lastKeyText = name.count == 1 ? name : nil
    }

    /// The text of the last key pressed, when it types one letter.
    private var lastKeyText: String?

    /// The input method committed `text`. A commit explains the composition's end, except
    /// the one IBus's module makes of a key it could not deliver: the very letter of the
    /// last key, which is not what was drawn (before or after the module ends the
    /// composition, as its two connections' messages come).
    mutating func committed(_ text: String) {
        if text == lastKeyText, (lastDrawn ?? unexplainedEnd).map({ $0 != text }) == true { return }
        explained()
    }

    /// A commit, a click, a focus change or the composer's own finishing explains the end.
    mutating func explained() {
        lastDrawn = nil
        unexplainedEnd = nil
    }
}
