import CGtk
import ComposerCore
import GtkBinding

/// `--surrounding`, `--input-purpose`, `--input-hints` on the text view: GTK hands purpose
/// and hints to the IM module (IBus and Fcitx5 pass them to the engine as its content
/// type, text-input-v3 as `set_content_type`).
extension ComposerController {
    static func tell(_ textView: UnsafeMutablePointer<GtkWidget>, inputMethod: InputMethodObserver,
                     _ facing: InputMethodFacing) {
        gtk_text_view_set_input_purpose(cast(textView), facing.purpose.gtk)
        gtk_text_view_set_input_hints(cast(textView), InputMethodFacing.gtk(facing.hints))
        guard facing.surrounding == .off else { return }
        do {
            try inputMethod.refuseSurrounding(of: textView)
        } catch {
            // Only if GTK stopped connecting the text view's handlers on its IM context:
            // a bug to fix here, never a silent `--surrounding off` that answers anyway.
            GLibLog.critical("--surrounding off cannot be honoured: \(error)")
        }
    }
}

extension InputMethodFacing.Purpose {
    var gtk: GtkInputPurpose {
        switch self {
        case .freeForm: GTK_INPUT_PURPOSE_FREE_FORM
        case .alpha: GTK_INPUT_PURPOSE_ALPHA
        case .digits: GTK_INPUT_PURPOSE_DIGITS
        case .number: GTK_INPUT_PURPOSE_NUMBER
        case .phone: GTK_INPUT_PURPOSE_PHONE
        case .url: GTK_INPUT_PURPOSE_URL
        case .email: GTK_INPUT_PURPOSE_EMAIL
        case .name: GTK_INPUT_PURPOSE_NAME
        case .password: GTK_INPUT_PURPOSE_PASSWORD
        case .pin: GTK_INPUT_PURPOSE_PIN
        case .terminal: GTK_INPUT_PURPOSE_TERMINAL
        }
    }
}

extension InputMethodFacing {
    static func gtk(_ hints: [Hint]) -> GtkInputHints {
        GtkInputHints(rawValue: hints.reduce(GTK_INPUT_HINT_NONE.rawValue) { $0 | $1.gtk.rawValue })
    }
}

extension InputMethodFacing.Hint {
    var gtk: GtkInputHints {
        switch self {
        case .spellcheck: GTK_INPUT_HINT_SPELLCHECK
        case .noSpellcheck: GTK_INPUT_HINT_NO_SPELLCHECK
        case .wordCompletion: GTK_INPUT_HINT_WORD_COMPLETION
        case .lowercase: GTK_INPUT_HINT_LOWERCASE
        case .uppercaseChars: GTK_INPUT_HINT_UPPERCASE_CHARS
        case .uppercaseWords: GTK_INPUT_HINT_UPPERCASE_WORDS
        case .uppercaseSentences: GTK_INPUT_HINT_UPPERCASE_SENTENCES
        case .inhibitOSK: GTK_INPUT_HINT_INHIBIT_OSK
        case .verticalWriting: GTK_INPUT_HINT_VERTICAL_WRITING
        case .emoji: GTK_INPUT_HINT_EMOJI
        case .noEmoji: GTK_INPUT_HINT_NO_EMOJI
        case .private: GTK_INPUT_HINT_PRIVATE
        }
    }
}

extension ComposerController {
    /// The text around the caret the input method gets when it asks now; nil when it gets
    /// none (`--surrounding off`). Asked through the IM context as a module asks (tests).
    public var surroundingAnswer: String? { inputMethod.surroundingForInputMethod?.text }
}
