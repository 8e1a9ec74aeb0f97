import Foundation

/// Runs engines of the matrix through scenarios, each engine in its own private session
/// (X server or headless sway, bus, input method) shared by its scenarios; the app starts
/// anew for each scenario (its own text and limit), so one scenario's failure cannot leak
/// into the next. Used by `ime-composer matrix` and by the end-to-end suites.
public struct MatrixRunner: Sendable {
    /// The scenarios to run, in the matrix's order.
    public var scenarios: [MatrixScenario]
    /// Where each cell's transcript (the app's trace) is copied, as
    /// `SLUG/SCENARIO.jsonl`; nil keeps none.
    public var transcripts: URL?
    /// Told when a cell starts and when it ends.
    public var progress: @Sendable (MatrixProgress) -> Void

    public init(scenarios: [MatrixScenario] = MatrixScenario.allCases, transcripts: URL? = nil,
                progress: @escaping @Sendable (MatrixProgress) -> Void = { _ in }) {
        self.scenarios = scenarios
        self.transcripts = transcripts
        self.progress = progress
    }

    /// What is missing for `engine`'s session (programs, the engine itself), or nil when it
    /// can be had. Asked before a run: a session that cannot be had is not a failed cell.
    public static func missing(for engine: MatrixEngine) -> String? {
        do {
            if let inputMethod = engine.wayland?.inputMethod {
                let desktop = engine.backend.desktop ?? .sway
                try Prerequisites.require(desktop.requiredPrograms)
                if desktop == .kde, !FileManager.default.isExecutableFile(atPath: HeadlessKWin.installedPath) {
                    throw HarnessError("\(HeadlessKWin.installedPath) is missing (Debian: kwin-wayland)")
                }
                if desktop == .gnome {
                    // ibus-anthy lists its engines only when run (`<engines exec=…>`): its component file.
                    guard IBus.component(providing: inputMethod.rawValue) != nil
                        || FileManager.default.fileExists(atPath: "/usr/share/ibus/component/\(inputMethod.rawValue).xml") else {
                        throw HarnessError("the IBus engine '\(inputMethod.rawValue)' is not installed (Debian: \(engine.package))")
                    }
                    return nil
                }
                let conf = "/usr/share/fcitx5/inputmethod/\(inputMethod.rawValue).conf"
                guard FileManager.default.fileExists(atPath: conf) else {
                    throw HarnessError("fcitx5 input method '\(inputMethod.rawValue)' is not installed (\(conf) missing)")
                }
            } else {
                try Prerequisites.require(engine.kind)
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Runs `engine` through the scenarios. Never throws: a session that fails to start, or
    /// an app that does not exit cleanly, is a failure of the row (`MatrixEngineResult.problems`).
    public func run(_ engine: MatrixEngine) -> MatrixEngineResult {
        var result = MatrixEngineResult(engine: engine)
        let driver: MatrixDriver
        let started = ContinuousClock.now
        do {
            driver = try Self.start(engine, arguments: order(for: engine).first?.arguments(engine, data: "") ?? [])
        } catch {
            result.problems.append("the session did not start: \(error)")
            for scenario in order(for: engine) {
                result.cells.append(MatrixCell(scenario: scenario, verdict: .failed, reason: "the session did not start",
                                               seconds: 0, transcript: nil))
            }
            return result
        }
        result.sessionSeconds = Self.seconds(ContinuousClock.now - started)
        var traces: [(scenario: MatrixScenario, url: URL, firstLine: Int)] = []
        do {
            try Self.checkStart(driver.trace(), engine: engine)
            let data = try MatrixScenario.writeData(for: engine, in: driver.session).path
            for (number, scenario) in order(for: engine).enumerated() {
                progress(.started(engine: engine, scenario: scenario))
                let start = ContinuousClock.now
                var verdict = MatrixCell.Verdict.passed
                var reason: String
                do {
                    if number > 0 { try driver.restart(scenario.arguments(engine, data: data)) }
                    traces.append((scenario, driver.trace().url, driver.trace().lineCount))
                    reason = try driver.run(scenario)
                    if let known = engine.wayland?.knownFailuresByScenario[scenario] {
                        verdict = .failed
                        reason = "a known failure no longer happens (\(known)): update the engine's expectations; it passed: \(reason)"
                    } else if let sometimes = engine.wayland?.intermittentFailuresByScenario[scenario] {
                        reason += " (the intermittent failure did not happen this time: \(sometimes))"
                    }
                } catch {
                    if let known = engine.wayland?.knownFailuresByScenario[scenario]
                        ?? engine.wayland?.intermittentFailuresByScenario[scenario].map({ "intermittent: " + $0 }) {
                        verdict = .knownFailure
                        reason = "known failure: \(known) (seen: \("\(error)".split(separator: "\n").first.map(String.init) ?? ""))"
                    } else {
                        driver.session.markFailed()
                        verdict = .failed
                        reason = "\(error)"
                    }
                }
                let cell = MatrixCell(scenario: scenario, verdict: verdict, reason: reason,
                                      seconds: Self.seconds(ContinuousClock.now - start), transcript: nil)
                result.cells.append(cell)
                progress(.finished(engine: engine, cell: cell))
            }
            let status = try driver.terminate()
            if status != 0 { result.problems.append("the app exited with status \(status) after the last scenario") }
        } catch {
            driver.session.markFailed()
            result.problems.append("\(error)")
        }
        for (scenario, url, firstLine) in traces {
            guard let index = result.cells.firstIndex(where: { $0.scenario == scenario }) else { continue }
            result.cells[index].firstLine = firstLine
            // On Wayland the app sees only the keys the input method passed on: nothing to time.
            guard engine.backend == .x11, let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            result.cells[index].timing = KeyTiming(trace: text, fromLine: firstLine)
        }
        if let transcripts {
            let directory = transcripts.appendingPathComponent(engine.kind.slug, isDirectory: true)
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (scenario, url, _) in traces {
                let target = directory.appendingPathComponent(scenario.rawValue + ".jsonl")
                try? FileManager.default.removeItem(at: target)
                guard (try? FileManager.default.copyItem(at: url, to: target)) != nil,
                      let index = result.cells.firstIndex(where: { $0.scenario == scenario }) else { continue }
                result.cells[index].transcript = target.path
            }
        }
        driver.stop()
        let leftover = WaylandSession.processes(withMarker: driver.session.id)
        if !leftover.isEmpty { result.problems.append("processes left after the session stopped: \(leftover)") }
        return result
    }

    /// The scenarios in the order the engine's backend runs them.
    public func order(for engine: MatrixEngine) -> [MatrixScenario] {
        if engine.invariantKeys != nil { return InvariantRun.scenarios.filter(scenarios.contains) }
        return engine.wayland == nil ? scenarios : WaylandEngine.scenarios.filter(scenarios.contains)
    }

    /// The app says it uses the backend and the IM module the session set up (with
    /// `GTK_IM_MODULE` unset it would say "auto", though GTK picks the same module).
    private static func checkStart(_ trace: TraceLog, engine: MatrixEngine) throws {
        guard let start = trace.events(named: "start").first else { throw MatrixFailure("no start line") }
        let backend = engine.wayland == nil ? "x11" : "wayland"  // KWin too: GTK's Wayland backend
        guard start["backend"]?.stringValue == backend, start["im_module"]?.stringValue == engine.kind.gtkIMModule else {
            throw MatrixFailure("the app started on \(start["backend"]?.stringValue ?? "?") with the IM module "
                + "\(start["im_module"]?.stringValue ?? "?"), not \(backend) with \(engine.kind.gtkIMModule): \(start)")
        }
    }

    private static func start(_ engine: MatrixEngine, arguments: [String]) throws -> MatrixDriver {
        if let wayland = WaylandEngine(engine) {
            let wl = try WaylandIMSession.start(name: engine.kind.slug, desktop: wayland.desktop,
                                                inputMethod: wayland.inputMethod, probe: engine.kind.probe,
                                                appArguments: arguments)
            return MatrixDriver(session: wl.session, trace: { wl.trace },
                                restart: { try wl.restartApp(arguments: $0) },
                                run: { try WaylandMatrixRun(wl: wl, engine: wayland).run($0) },
                                terminate: { try wl.terminateApp() }, stop: { wl.stop() })
        }
        let cs = try ComposerSession(engine.kind, arguments: arguments, name: "matrix-\(engine.kind.slug)") { session in
            for setting in engine.gsettings {
                try IBus.gsettingsSet(session, schema: setting.schema, key: setting.key, value: setting.value)
            }
        }
        return MatrixDriver(session: cs.session, trace: { cs.trace },
                            restart: { try cs.restartApp(arguments: $0) },
                            run: { scenario in
                                engine.invariantKeys == nil ? try MatrixRun(cs: cs, engine: engine).run(scenario)
                                                            : try InvariantRun(cs: cs, engine: engine).run(scenario)
                            },
                            terminate: { try cs.terminateApp() }, stop: { cs.stop() })
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

/// One engine's session, X11 or Wayland, as the runner drives it.
private struct MatrixDriver {
    let session: TestSession
    let trace: () -> TraceLog
    let restart: ([String]) throws -> Void
    let run: (MatrixScenario) throws -> String
    let terminate: () throws -> Int32
    let stop: () -> Void
}

/// What the runner tells as it goes (`ime-composer matrix` prints a progress line).
public enum MatrixProgress: Sendable {
    case started(engine: MatrixEngine, scenario: MatrixScenario)
    case finished(engine: MatrixEngine, cell: MatrixCell)
}

/// One engine × scenario: its verdict, why, how long it took and its transcript.
public struct MatrixCell: Sendable, Codable, Equatable {
    public enum Verdict: String, Sendable, Codable {
        case passed, failed
        /// It failed as the engine's expectations say it does today.
        case knownFailure = "known-failure"
    }

    public let scenario: MatrixScenario
    public let verdict: Verdict
    /// The passed cell's one-line account, or what failed.
    public let reason: String
    public let seconds: Double
    /// The copied trace (`MatrixRunner.transcripts`), replayable with `ime-composer replay`.
    public internal(set) var transcript: String?
    /// How long the engine took to answer each key of the cell.
    public internal(set) var timing = KeyTiming()
    /// The transcript's non-blank line (0-based) where the scenario began: what comes before
    /// is the session's start-up and engine probe.
    public internal(set) var firstLine = 0
}

/// One engine's row: its cells and what went wrong around them.
public struct MatrixEngineResult: Sendable {
    public let engine: MatrixEngine
    public var cells: [MatrixCell] = []
    /// Failures of the session rather than of a scenario: it did not start, the app did not
    /// exit cleanly at the end.
    public var problems: [String] = []
    /// From the start of the session to the app's first "ready".
    public var sessionSeconds: Double = 0

    /// Every key of every cell.
    public var timing: KeyTiming { cells.reduce(into: KeyTiming()) { $0.add($1.timing) } }

    public init(engine: MatrixEngine) { self.engine = engine }

    /// Whether every cell passed (or failed as known) and the session had no problem.
    public var passed: Bool { problems.isEmpty && cells.allSatisfy { $0.verdict != .failed } }

    /// Each failed cell and problem, one line per failure for a test to record.
    public var failures: [String] {
        problems.map { "\(engine.kind.slug): \($0)" }
            + cells.filter { $0.verdict == .failed }.map { "\(engine.kind.slug) \($0.scenario.rawValue): \($0.reason)" }
    }
}

extension MatrixEngine.WaylandExpectations {
    /// `intermittentFailures` by scenario.
    var intermittentFailuresByScenario: [MatrixScenario: String] {
        Dictionary(uniqueKeysWithValues: (intermittentFailures ?? [:]).compactMap { name, reason in
            MatrixScenario(rawValue: name).map { ($0, reason) }
        })
    }

    /// `knownFailures` by scenario.
    var knownFailuresByScenario: [MatrixScenario: String] {
        Dictionary(uniqueKeysWithValues: (knownFailures ?? [:]).compactMap { name, reason in
            MatrixScenario(rawValue: name).map { ($0, reason) }
        })
    }
}
