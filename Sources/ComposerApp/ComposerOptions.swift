import ComposerCore

/// What the command line decided; validated before any window exists.
public nonisolated struct ComposerOptions: Sendable {
    public var initialText: String
    /// Caret in Unicode scalars; nil = end of text.
    public var caret: Int?
    /// Trace destination: a path, "-" for stdout, or nil for no trace.
    public var tracePath: String?
    /// Where the app keeps its state (created if missing).
    public var profileDirectory: String
    /// Where people.jsonl and channels.jsonl are read from ("" = no data: start empty).
    public var dataDirectory: String
    /// The message length limit (`--limit`, `--limit-mode`, `--count`).
    public var limit: LengthLimit
    /// `--osk-inset PX`: the simulated on-screen keyboard's height (nil: no simulator).
    public var simulatedKeyboardInset: Int?
    /// `--peer off|on|seed:N`: the simulated colleague behind the typing indicator.
    public var peer: PeerSetting
    /// Whether the saved draft replaces `initialText` at start: true unless the command line
    /// gave a text (`--text`, `--text-file`), which then starts instead (and is saved as the
    /// draft from then on).
    public var restoresDraft: Bool
    /// `--trace-frames`: the trace also says when the first frame after input was painted.
    public var tracesFrames: Bool
    /// `--trace-placement`: the trace also says where the caret was told to the input
    /// method and where its candidate window went (`placement`).
    public var tracesPlacement: Bool
    /// `--surrounding`, `--input-purpose`, `--input-hints`: what the input method is told.
    public var inputMethodFacing: InputMethodFacing

    public init(initialText: String = "", caret: Int? = nil, tracePath: String? = nil,
                profileDirectory: String, dataDirectory: String = "", limit: LengthLimit = LengthLimit(),
                simulatedKeyboardInset: Int? = nil, peer: PeerSetting = .off, restoresDraft: Bool = false,
                tracesFrames: Bool = false, tracesPlacement: Bool = false,
                inputMethodFacing: InputMethodFacing = .standard) {
        self.tracesPlacement = tracesPlacement
        self.inputMethodFacing = inputMethodFacing
        self.restoresDraft = restoresDraft
        self.tracesFrames = tracesFrames
        self.limit = limit
        self.simulatedKeyboardInset = simulatedKeyboardInset
        self.peer = peer
        self.initialText = initialText
        self.caret = caret
        self.tracePath = tracePath
        self.profileDirectory = profileDirectory
        self.dataDirectory = dataDirectory
    }
}
