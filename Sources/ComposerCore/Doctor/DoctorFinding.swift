/// One thing the doctor found: a stable id for scripts and tests, how much it matters, a
/// one-line summary and, unless all is well, a sentence saying what to do.
public struct DoctorFinding: Equatable, Sendable {
    /// How much a finding matters. `warning` and `problem` make `ime-composer doctor` exit 1.
    public enum Severity: String, Equatable, Comparable, Sendable, CaseIterable {
        /// Checked, and fine.
        case ok
        /// Worth knowing; nothing is broken (e.g. an engine that starts in Latin mode).
        case info
        /// Works, but something will surprise the person (keys lost, the wrong daemon for
        /// some applications).
        case warning
        /// Input methods will not work in GTK 4 applications until it is fixed.
        case problem

        private var rank: Int { Self.allCases.firstIndex(of: self)! }
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// The report's groups, in the order they are printed.
    public enum Topic: String, Equatable, Sendable, CaseIterable {
        case module = "GTK 4 input method module"
        case daemons = "Input method daemons"
        case environment = "Environment and session"
        case desktop = "Desktop"
        case engines = "Engines"
    }

    public var id: String
    public var severity: Severity
    public var topic: Topic
    public var summary: String
    /// What to do; nil when there is nothing to do.
    public var fix: String?

    public init(_ id: String, _ severity: Severity, _ topic: Topic, _ summary: String, fix: String? = nil) {
        self.id = id
        self.severity = severity
        self.topic = topic
        self.summary = summary
        self.fix = fix
    }
}
