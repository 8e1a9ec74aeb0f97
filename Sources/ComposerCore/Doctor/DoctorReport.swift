/// What `Doctor.diagnose` concluded: the backend and module GTK 4 will use, and the findings.
public struct DoctorReport: Equatable, Sendable {
    public var backend: GtkBackend
    /// The desktop recognised (`XDG_CURRENT_DESKTOP`), whose rules the report applies.
    public var desktop: SessionDesktop
    public var module: ModuleChoice
    public var findings: [DoctorFinding]

    public init(backend: GtkBackend, desktop: SessionDesktop = .unknown, module: ModuleChoice, findings: [DoctorFinding]) {
        self.backend = backend
        self.desktop = desktop
        self.module = module
        self.findings = findings
    }

    /// True when a finding is a warning or a problem: something needs fixing.
    public var needsFixing: Bool { findings.contains { $0.severity >= .warning } }

    /// `ime-composer doctor`'s exit status: 0 healthy (only `ok` and `info`), 1 when a
    /// finding is a `warning` or a `problem`. (2 is the command line's, for usage errors.)
    public var exitStatus: Int32 { needsFixing ? 1 : 0 }

    /// The finding with this id, if any.
    public func finding(_ id: String) -> DoctorFinding? { findings.first { $0.id == id } }

    /// How many findings have this severity.
    public func count(_ severity: DoctorFinding.Severity) -> Int { findings.filter { $0.severity == severity }.count }
}
