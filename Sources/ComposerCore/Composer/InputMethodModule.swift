/// The GTK input-method module drawing the compositions ("ibus", "fcitx", "wayland",
/// "gtk-im-context-simple", …), as far as the composer's decisions go.
///
/// The composer finishes a composition the way focus loss does (a click mid-composition, an
/// orphaned preedit): focus out, focus in. What then becomes of what the user saw depends on
/// the module, not on the engine behind it:
/// - IBus's module commits on focus out at once, or not at all: an engine that drops the
///   composition then (ibus-anthy, ibus-libpinyin) would lose it, so the window types it.
/// - GTK's Wayland module (text-input-v3) likewise: focus out disables the text input, the
///   compositor deactivates the input method, and fcitx5 5.0.21 resets its engine without a
///   commit while GTK erases the preedit. (An input method that committed on deactivate
///   would add it a second time: none here does, the Wayland matrix checks it.)
/// - Fcitx5's own module commits later, over D-Bus (all its engines here commit on focus
///   out): nothing to add.
/// - A context that keeps composing (GTK's simple one has no focus out) is left to go on.
public struct InputMethodModule: Equatable, Sendable {
    /// GTK's id of the module (`gtk_im_multicontext_get_context_id`).
    public let id: String

    public init(id: String) {
        self.id = id
    }

    /// Whether a composition finished as focus loss finishes it may end with nothing
    /// committed, so that the window must type what was drawn itself.
    public var mayDropFinishedComposition: Bool {
        id == "ibus" || id == "wayland"
    }
}
