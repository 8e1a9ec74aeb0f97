import Foundation

/// Runs apps we did not write (`PeerApp`) through the matrix's scenarios with real engines,
/// each app × engine in its own private session (`PeerSession`), and reports them side by
/// side (`report`, docs/ime-peers.md). Used by `ime-composer matrix --app` and the tests.
public struct PeerMatrix: Sendable {
    /// The engines an app runs with unless others are named: GTK's own, and Japanese and
    /// Korean through both frameworks.
    public static let defaultEngines = ["gtk-simple", "ibus-anthy", "ibus-hangul", "fcitx5-anthy", "fcitx5-hangul"]

    /// The scenarios to run (the others are left out of the rows).
    public var scenarios: [MatrixScenario] = MatrixScenario.allCases
    /// Where each row's watcher lines (what the app showed) are copied, as
    /// `APP/ENGINE.jsonl`; nil keeps none.
    public var transcripts: URL?
    public var progress: @Sendable (String) -> Void

    public init(transcripts: URL? = nil, progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.transcripts = transcripts
        self.progress = progress
    }

    /// What is missing to run `app` with `engine` here, or nil.
    public static func missing(app: PeerApp, engine: MatrixEngine) -> String? {
        do {
            try Prerequisites.require(engine.kind)
            try Prerequisites.require(["/usr/bin/python3", app.command[0]] + (app.server.map(PeerServer.programs) ?? []))
            return nil
        } catch {
            return "\(error) (Debian: \(app.package))"
        }
    }

    /// Runs `app` with `engine` through every scenario. Never throws: a session that does
    /// not start is a problem of the row, each of its cells failed.
    public func run(_ app: PeerApp, engine: MatrixEngine) -> PeerResult {
        var result = PeerResult(app: app.app, engine: engine.kind.slug)
        let cells = scenarios.map { scenario -> (MatrixScenario, String?) in
            (scenario, app.notApplicable[scenario.rawValue] ?? PeerRun.notApplicable(scenario, engine: engine, app: app))
        }
        let started = ContinuousClock.now
        let ps: PeerSession
        do {
            ps = try PeerSession(app, engine: engine)
        } catch {
            result.problems.append("the session did not start: \(error)")
            result.cells = cells.map { scenario, reason in
                PeerCell(scenario: scenario, verdict: reason == nil ? .failed : .notApplicable,
                         reason: reason ?? "the session did not start", seconds: 0)
            }
            return result
        }
        defer { ps.stop() }
        result.sessionSeconds = MatrixRunner.seconds(ContinuousClock.now - started)
        for (scenario, notApplicable) in cells {
            if let notApplicable {
                result.cells.append(PeerCell(scenario: scenario, verdict: .notApplicable, reason: notApplicable, seconds: 0))
                continue
            }
            progress("\(app.app) × \(engine.kind.slug): \(scenario.rawValue)")
            let start = ContinuousClock.now
            let firstLine = ps.trace.lineCount
            var cell: PeerCell
            let known = app.knownFailure(engine: engine.kind.slug, scenario: scenario)
            do {
                let account = try PeerRun(ps: ps, engine: engine).run(scenario)
                cell = known.map {
                    PeerCell(scenario: scenario, verdict: .failed,
                             reason: "a known failure no longer happens (\($0)): update data/lab/peers/\(app.app).json; it passed: \(account)",
                             seconds: 0)
                } ?? PeerCell(scenario: scenario, verdict: .passed, reason: account, seconds: 0)
            } catch {
                // Known: the scenario's expectation failed as the file says; a timeout or a
                // harness error is no known failure.
                let seen = "\(error)".split(separator: "\n").first.map(String.init) ?? ""
                if let known, error is MatrixFailure {
                    cell = PeerCell(scenario: scenario, verdict: .knownFailure, reason: "\(known) (seen: \(seen))", seconds: 0)
                } else {
                    cell = PeerCell(scenario: scenario, verdict: .failed, reason: "\(error)", seconds: 0)
                    ps.session.markFailed()
                }
                try? PeerRun(ps: ps, engine: engine).endLeftoverComposition()
            }
            cell.seconds = MatrixRunner.seconds(ContinuousClock.now - start)
            cell.firstLine = firstLine
            result.cells.append(cell)
        }
        if !ps.app.isRunning { result.problems.append("\(app.app) exited during the run:\n" + ps.app.diagnostics()) }
        if let transcripts {
            let dir = transcripts.appendingPathComponent(app.app, isDirectory: true)
            let file = dir.appendingPathComponent("\(engine.kind.slug).jsonl")
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: file)
            if (try? FileManager.default.copyItem(at: ps.trace.url, to: file)) != nil {
                result.transcript = "\(app.app)/\(engine.kind.slug).jsonl"
            }
        }
        return result
    }

    /// The Markdown report of `results` (docs/ime-peers.md): per app, its engines × the
    /// scenarios, then every cell that did not pass with why, and the versions.
    public static func report(_ results: [PeerResult], apps: [PeerApp], versions: [String: String] = [:]) -> String {
        var out = "# The lab against other apps\n\n"
        out += "Generated by `ime-composer matrix --app` (`make peers-doc` writes it here): do not edit. "
        out += "Each app runs the matrix's scenarios with real engines, in private sessions, its text read through AT-SPI "
        out += "(`data/lab/peers/atspi-watch.py`; a chat app's sends where AT-SPI cannot show them, at its server); the same "
        out += "keys and expectations as the composer's [matrix](ime-matrix.md). "
        out += "✅ passed, ❌ failed, ⚠️ fails as known (the upstream issue it matches), — not applicable (why, below). "
        out += "Before focus out or a click mid-composition, the lab waits until the input method has answered each key of the "
        out += "composition, read from its own bus (`KeyAnswers`: nothing an app shows through AT-SPI says when a composition "
        out += "is complete).\n"
        let scenarios = MatrixScenario.allCases
        for app in apps {
            let rows = results.filter { $0.app == app.app }
            guard !rows.isEmpty else { continue }
            out += "\n## \(app.title) (`\(app.app)`\(versions[app.package].map { " \($0)" } ?? ""))\n\n\(app.notes)\n\n"
            out += "| engine | " + scenarios.map(\.rawValue).joined(separator: " | ") + " |\n"
            out += "|---|" + scenarios.map { _ in "---" }.joined(separator: "|") + "|\n"
            for row in rows {
                let marks = scenarios.map { scenario in row.cells.first { $0.scenario == scenario }.map(\.verdict.mark) ?? " " }
                out += "| \(row.engine) | " + marks.joined(separator: " | ") + " |\n"
            }
            let notApplicable = Set(rows.flatMap { $0.cells.filter { $0.verdict == .notApplicable }.map { "\($0.scenario.rawValue): \($0.reason)" } })
            if !notApplicable.isEmpty {
                out += "\nNot applicable:\n\n" + notApplicable.sorted().map { "- \($0)\n" }.joined()
            }
            var details: [String] = []
            for row in rows {
                for problem in row.problems { details.append("- **\(row.engine)**: \(problem.split(separator: "\n").first ?? "")") }
                for cell in row.cells where cell.verdict == .failed || cell.verdict == .knownFailure {
                    let transcript = row.transcript.map { " (transcript `\($0)`, from line \(cell.firstLine + 1))" } ?? ""
                    details.append("- \(cell.verdict.mark) **\(row.engine) × \(cell.scenario.rawValue)**: "
                        + "\(cell.reason.split(separator: "\n").first ?? "")\(transcript)")
                }
            }
            if !details.isEmpty { out += "\nWhat failed:\n\n" + details.joined(separator: "\n") + "\n" }
            let passed = rows.flatMap(\.cells).filter { $0.verdict == .passed }
            if let example = passed.first {
                out += "\nFor example, \(rows.first { $0.cells.contains(example) }?.engine ?? "") × \(example.scenario.rawValue): \(example.reason).\n"
            }
        }
        return out
    }
}

/// peers.json: every row and the packages' versions.
public struct PeerReport: Sendable, Codable {
    public let results: [PeerResult]
    public let versions: [String: String]

    public init(results: [PeerResult], versions: [String: String]) {
        self.results = results
        self.versions = versions
    }
}

/// One app × engine row.
public struct PeerResult: Sendable, Codable {
    public let app: String
    public let engine: String
    public var cells: [PeerCell] = []
    public var problems: [String] = []
    public var sessionSeconds: Double = 0
    /// The watcher's lines, under `PeerMatrix.transcripts`.
    public var transcript: String?

    public init(app: String, engine: String) {
        self.app = app
        self.engine = engine
    }

    /// Every cell passed, failed as known or does not apply, and the session had no problem.
    public var passed: Bool { problems.isEmpty && cells.allSatisfy { $0.verdict != .failed } }

    /// Each failure, a line each.
    public var failures: [String] {
        problems.map { "\(app) × \(engine): \($0)" }
            + cells.filter { $0.verdict == .failed }.map { "\(app) × \(engine) \($0.scenario.rawValue): \($0.reason)" }
    }
}

public struct PeerCell: Sendable, Codable, Equatable {
    public enum Verdict: String, Sendable, Codable {
        case passed, failed
        case knownFailure = "known-failure"
        case notApplicable = "not-applicable"

        var mark: String {
            switch self {
            case .passed: "✅"
            case .failed: "❌"
            case .knownFailure: "⚠️"
            case .notApplicable: "—"
            }
        }
    }

    public let scenario: MatrixScenario
    public let verdict: Verdict
    public let reason: String
    public internal(set) var seconds: Double
    /// The transcript's line (0-based) where the cell began.
    public internal(set) var firstLine = 0

    public init(scenario: MatrixScenario, verdict: Verdict, reason: String, seconds: Double, firstLine: Int = 0) {
        self.scenario = scenario
        self.verdict = verdict
        self.reason = reason
        self.seconds = seconds
        self.firstLine = firstLine
    }
}
