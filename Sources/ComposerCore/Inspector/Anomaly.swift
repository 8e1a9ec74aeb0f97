/// Something an input method (or GTK under it) did that users report as a bug: the
/// inspector flags the row with a one-line explanation.
public struct Anomaly: Equatable, Sendable {
    /// Stable, for tests and filters (`commit-without-preedit-end`, …).
    public let id: String
    /// One line: what happened and why it matters.
    public let explanation: String
    /// The upstream report it looks like, when there is one (`fcitx/fcitx5#687`).
    public let reference: String?

    public init(id: String, explanation: String, reference: String? = nil) {
        self.id = id
        self.explanation = explanation
        self.reference = reference
    }

    /// The explanation with its reference, for a row's tooltip or a bug report.
    public var line: String { reference.map { "\(explanation) (\($0))" } ?? explanation }
}

/// What the rules know before an event: the committed text and caret as the trace showed
/// them, and what the input method was doing.
public struct AnomalyContext: Sendable {
    /// The committed text, rebuilt from the trace's edits and selections.
    public var text: [Unicode.Scalar] = []
    public var caret = 0
    /// The preedit on screen ("" when none), and whether a composition is open.
    public var preedit = ""
    public var composing = false
    /// The last commit since the last key press, and whether a preedit event followed it.
    public var commitSinceKey: String?
    public var preeditChangedSinceCommit = false
    /// A commit was applied since the last key press: the range it inserted.
    public var lastCommitRange: Range<Int>?
    /// What interrupted the composition shown (the focus left, or the caret moved: GTK
    /// resets the input method then), with no key since; nil when nothing did.
    public var compositionInterrupted: String?
    /// A composition was active when the last key arrived.
    public var composingAtLastKey = false
    /// An edit from a key the text view handled (a forwarded key) while composing, not yet
    /// followed by a commit.
    public var forwardedKeyEditWhileComposing = false
    /// The previous preedit's text and cursor (for a cursor stuck at 0).
    public var previousPreedit: (text: String, cursor: Int)?

    public init() {}
}
