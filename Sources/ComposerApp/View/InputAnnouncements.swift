import CGtk
import GtkBinding

/// What the input's accessible description says: the store's notice (shown as a toast), the
/// limit hint and the selected suggestion.
///
/// The focus stays in the input while the hint shows and while Up/Down move through the
/// suggestions, and GTK 4.8 tells AT-SPI nothing of a widget that was hidden when a screen
/// reader read the window (the hint, the list). So the input, which a screen reader
/// follows, says them: a change of the focused object's description reaches the bus as
/// `object:property-change:accessible-description` (GTK 4.8 has no announcement API;
/// `gtk_accessible_announce` is 4.14).
final class InputAnnouncements {
    private let textView: UnsafeMutablePointer<GtkWidget>

    init(textView: UnsafeMutablePointer<GtkWidget>) { self.textView = textView }

    /// What the profile's store must tell (a damaged file moved aside, saving off), while its
    /// toast shows: libadwaita 1.2's toasts are not announced by themselves.
    var notice: String? { didSet { describe() } }

    /// Why Send did nothing, while the hint shows.
    var hint: String? { didSet { describe() } }

    /// The selected suggestion, spoken.
    var suggestion: String? { didSet { describe() } }

    /// The input's accessible description: the notice, the hint and the selected suggestion,
    /// or nil.
    var description: String? {
        let parts = [notice, hint, suggestion].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The description last given to the input.
    private var described: String?

    /// Says `hint` again, also when the input's description already says it: every refused
    /// Enter is told.
    func announce(hint: String) {
        if self.hint == hint { self.hint = nil }
        self.hint = hint
    }

    private func describe() {
        let new = description
        guard new != described else { return }
        described = new
        cgtk_accessible_set_description(textView, new)
    }
}
