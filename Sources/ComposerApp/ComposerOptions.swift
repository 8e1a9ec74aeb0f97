import ComposerCore

/// What the command line decided; validated before any window exists.
public struct ComposerOptions: Sendable {
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

    public init(initialText: String = "", caret: Int? = nil, tracePath: String? = nil,
                profileDirectory: String, dataDirectory: String = "", limit: LengthLimit = LengthLimit()) {
        self.limit = limit
        self.initialText = initialText
        self.caret = caret
        self.tracePath = tracePath
        self.profileDirectory = profileDirectory
        self.dataDirectory = dataDirectory
    }
}
