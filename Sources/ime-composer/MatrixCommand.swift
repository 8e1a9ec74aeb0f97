import ArgumentParser
import Foundation
import IMELab

/// `ime-composer matrix`: the input-method lab's matrix on this machine — real engines, each
/// in a private session (an X server, headless sway or headless KWin, D-Bus, the engine's framework),
/// driven through the scenarios by a virtual keyboard and pointer, each cell judged against
/// the engine's expectations (`data/lab/engines/`). Nothing of the user's desktop is touched.
struct MatrixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matrix",
        abstract: "Run real input-method engines through the lab's scenarios in private sessions.",
        discussion: """
            Each engine runs in a session of its own (Xvfb, headless sway or headless KWin, a private D-Bus, \
            IBus or Fcitx5 with the engine selected); the composer is started anew for each \
            scenario and typed into with a virtual keyboard. Writes DIR/matrix.md, DIR/matrix.json \
            and a transcript per cell (DIR/transcripts/ENGINE/SCENARIO.jsonl, replayable with \
            `ime-composer replay`). Exit status: 0 when every cell passed (or failed as its engine's \
            expectations say it does today), 1 when a cell failed, 2 for a usage error, 3 when a \
            session cannot be had (what is missing is named: Xvfb, sway, an engine).
            """)

    @Option(name: .customLong("engine"), help: ArgumentHelp(
        "An engine to run (repeatable): ibus-anthy, fcitx5-hangul, … (`--list` shows them), or any installed engine as ibus:NAME or fcitx5:NAME (an IBus engine name such as m17n:hi:itrans; an fcitx5 input method). Default: every installed engine the lab knows.",
        valueName: "ID"))
    var engines: [String] = []

    @Option(help: ArgumentHelp(
        "The keys (keysym names, space-separated) an engine named ibus:NAME or fcitx5:NAME is typed with; it must show a composition for them. Default: \"k a n a\".",
        valueName: "KEYS"))
    var keys: String?

    @Option(help: ArgumentHelp("Which sessions: x11, wayland (headless sway), kde (headless KWin, KDE Plasma's compositor), gnome (headless GNOME Shell with IBus) or all.",
                               valueName: "x11|wayland|kde|gnome|all"))
    var backend: BackendChoice = .all

    @Option(name: .customLong("scenario"), help: ArgumentHelp("A scenario to run (repeatable). Default: all of them.",
                                                               valueName: "NAME"))
    var scenarios: [MatrixScenario] = []

    @Option(help: ArgumentHelp("Where the reports and transcripts go (created; files in it are replaced).",
                               valueName: "DIR"))
    var out: String = "ime-matrix"

    @Option(help: ArgumentHelp("A previous run's --out: report every cell whose keys or input-method answers differ from it, even when the cell still passes.",
                               valueName: "DIR"))
    var baseline: String?

    @Option(name: .customLong("app"), help: ArgumentHelp(
        "Run the scenarios against another application instead of the composer (repeatable): gnome-text-editor, polari, dino (`--list --app all` shows them), or all. Its text is read through AT-SPI (its sends, where AT-SPI cannot show them, at its server: Dino); writes DIR/peers.md and DIR/peers.json. Default engines: \(PeerMatrix.defaultEngines.joined(separator: ", ")).",
        valueName: "NAME"))
    var apps: [String] = []

    @Flag(help: "Print matrix.json on stdout and nothing else.")
    var json = false

    @Flag(help: "List the engines the lab knows, whether each is installed, and the scenarios; run nothing.")
    var list = false

    enum BackendChoice: String, ExpressibleByArgument, CaseIterable {
        case x11, wayland, kde, gnome, all
    }

    func run() throws {
        let known: [MatrixEngine]
        do {
            known = try MatrixEngine.load()
        } catch {
            throw Unavailable("the engines' expectations cannot be read: \(error)")
        }
        if !apps.isEmpty { return try runPeers(known: known) }
        if list { return printList(known) }
        let invariantKeys = keys.map { $0.split(separator: " ").map(String.init) } ?? MatrixEngine.defaultInvariantKeys
        if invariantKeys.isEmpty { throw ValidationError("--keys is empty: name the keys, e.g. --keys \"k a n a\"") }
        let named = try engines.map { id -> MatrixEngine in
            if let engine = known.first(where: { $0.kind.slug == id }) { return engine }
            if let engine = try Self.engine(named: id, known: known, keys: invariantKeys) { return engine }
            throw ValidationError("--engine \(id): no such engine; the lab knows " + known.map(\.kind.slug).joined(separator: ", ")
                + ", and any installed engine as ibus:NAME or fcitx5:NAME")
        }
        let candidates = (named.isEmpty ? known : named).filter { backend == .all || $0.backend.rawValue == backend.rawValue }
        if candidates.isEmpty {
            throw ValidationError("no engine runs on \(backend.rawValue) among " + named.map(\.kind.slug).joined(separator: ", "))
        }
        let compared = try baseline.map { path in
            // This run replaces DIR's transcripts: the baseline's own would be gone.
            let resolved = { (path: String) in URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL.resolvingSymlinksInPath() }
            guard resolved(path) != resolved(out) else {
                throw ValidationError("--baseline \(path) is the --out directory: this run would replace the transcripts it compares with; write this run elsewhere (--out)")
            }
            do {
                return try MatrixBaseline(directory: URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL)
            } catch {
                throw ValidationError("--baseline \(path): \(error)")
            }
        }
        var runnable: [MatrixEngine] = []
        var skipped: [(engine: MatrixEngine, missing: String)] = []
        for engine in candidates {
            if let missing = MatrixRunner.missing(for: engine) { skipped.append((engine, missing)) } else { runnable.append(engine) }
        }
        // An engine asked for by name must run; unnamed ones that are not installed are skipped.
        if !named.isEmpty, let first = skipped.first {
            throw Unavailable("\(first.engine.kind.slug) cannot run here: \(first.missing)")
        }
        if runnable.isEmpty {
            throw Unavailable("no engine can run here:\n" + skipped.map { "  \($0.engine.kind.slug): \($0.missing)" }.joined(separator: "\n"))
        }
        // The sessions start this very executable as the app under test.
        if let me = Bundle.main.executableURL?.resolvingSymlinksInPath().path {
            setenv("IME_COMPOSER_BIN", me, 1)
        }
        let directory = URL(fileURLWithPath: out, isDirectory: true).standardizedFileURL
        let transcripts = directory.appendingPathComponent("transcripts", isDirectory: true)
        try? FileManager.default.removeItem(at: transcripts)
        let selected = scenarios.isEmpty ? MatrixScenario.allCases : MatrixScenario.allCases.filter(scenarios.contains)
        let progress = Progress(enabled: !json && isatty(STDERR_FILENO) == 1)
        let runner = MatrixRunner(scenarios: selected, transcripts: transcripts) { progress.report($0) }
        progress.total = runnable.reduce(0) { $0 + runner.order(for: $1).count }
        var results: [MatrixEngineResult] = []
        for engine in runnable {
            let result = runner.run(engine)
            progress.clear()
            results.append(result)
            if !json {
                print(Self.line(for: result))
                fflush(nil)  // through a pipe (make test's tee) too, an engine's line as it ends
            }
        }
        let packages = Set(runnable.map(\.package) + MatrixReport.frameworkPackages)
        var report = MatrixReport(results: results, skipped: skipped, versions: DebianPackages.versions(of: packages))
        if let compared {
            let changed = results.flatMap { result in
                result.cells.compactMap { cell in
                    compared.difference(result.engine, cell).map { (engine: result.engine.kind.slug, scenario: cell.scenario, difference: $0) }
                }
            }
            report.baseline = (compared.directory.path, changed)
        }
        try report.write(to: directory)
        if json {
            FileHandle.standardOutput.write(try report.json(relativeTo: directory))
            FileHandle.standardOutput.write(Data("\n".utf8))
        } else {
            for (engine, missing) in skipped { print("\(engine.kind.slug): skipped: \(missing)") }
            if let changed = report.baseline?.changed {
                print(changed.isEmpty ? "baseline: every cell answered as before"
                                      : "baseline: \(changed.count) cell\(changed.count == 1 ? "" : "s") answered differently:")
                for cell in changed { print("  \(cell.engine) \(cell.scenario.rawValue): \(cell.difference)") }
            }
            print("matrix: \(report.summary); \(directory.path)/matrix.md")
        }
        if !report.passed { throw ExitCode(1) }
    }

    /// `--app`: the scenarios against other applications, with the named engines (X11 ones:
    /// the peers run under Xvfb) or the peers' default ones.
    func runPeers(known: [MatrixEngine]) throws {
        let all: [PeerApp]
        do {
            all = try PeerApp.load()
        } catch {
            throw Unavailable("the apps' descriptions cannot be read: \(error)")
        }
        let chosen = try apps.contains("all") ? all : apps.map { name in
            guard let app = all.first(where: { $0.app == name }) else {
                throw ValidationError("--app \(name): no such app; the lab knows \(all.map(\.app).joined(separator: ", ")), or all")
            }
            return app
        }
        let engineIDs = engines.isEmpty ? PeerMatrix.defaultEngines : engines
        let chosenEngines = try engineIDs.map { id -> MatrixEngine in
            guard let engine = known.first(where: { $0.kind.slug == id }) else {
                throw ValidationError("--engine \(id): no such engine; the lab knows " + known.map(\.kind.slug).joined(separator: ", "))
            }
            guard engine.backend == .x11 else {
                throw ValidationError("--engine \(id): the apps run on X11 (Xvfb); choose an x11 engine (`--list`)")
            }
            return engine
        }
        if list {
            for app in chosen {
                let missing = chosenEngines.compactMap { PeerMatrix.missing(app: app, engine: $0) }.first
                print("\(app.app)  \(app.title)  " + (missing.map { "not runnable: \($0)" } ?? "installed"))
            }
            return
        }
        for app in chosen {
            for engine in chosenEngines {
                if let missing = PeerMatrix.missing(app: app, engine: engine) {
                    throw Unavailable("\(app.app) with \(engine.kind.slug) cannot run here: \(missing)")
                }
            }
        }
        let directory = URL(fileURLWithPath: out, isDirectory: true).standardizedFileURL
        let transcripts = directory.appendingPathComponent("transcripts/peers", isDirectory: true)
        try? FileManager.default.removeItem(at: transcripts)
        let showProgress = !json && isatty(STDERR_FILENO) == 1
        var matrix = PeerMatrix(transcripts: transcripts) { text in
            if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8)) }
        }
        matrix.scenarios = scenarios.isEmpty ? MatrixScenario.allCases : MatrixScenario.allCases.filter(scenarios.contains)
        var results: [PeerResult] = []
        for app in chosen {
            for engine in chosenEngines {
                let result = matrix.run(app, engine: engine)
                if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                results.append(result)
                if !json {
                    let passed = result.cells.filter { $0.verdict == .passed || $0.verdict == .knownFailure }.count
                    let run = result.cells.filter { $0.verdict != .notApplicable }.count
                    var line = "\(app.app) × \(engine.kind.slug)  \(passed)/\(run) passed"
                    for failure in result.failures { line += "\n  " + (failure.split(separator: "\n").first.map(String.init) ?? failure) }
                    print(line)
                    fflush(nil)
                }
            }
        }
        let versions = DebianPackages.versions(of: Set(chosen.map(\.package) + chosenEngines.map(\.package)))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try PeerMatrix.report(results, apps: chosen, versions: versions)
            .write(to: directory.appendingPathComponent("peers.md"), atomically: true, encoding: .utf8)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(PeerReport(results: results, versions: versions))
        try data.write(to: directory.appendingPathComponent("peers.json"))
        let failed = results.filter { !$0.passed }.count
        if json {
            FileHandle.standardOutput.write(data)
            FileHandle.standardOutput.write(Data("\n".utf8))
        } else {
            print("peers: \(results.count) app × engine rows, \(failed) failed; \(directory.path)/peers.md")
        }
        if failed > 0 { throw ExitCode(1) }
    }

    /// `ibus:NAME` / `fcitx5:NAME`: the lab's engine when it knows that IBus engine or
    /// fcitx5 input method (on X11), else one judged by invariants, typed with `keys`. Nil
    /// for an id of another form.
    static func engine(named id: String, known: [MatrixEngine], keys: [String]) throws -> MatrixEngine? {
        guard let colon = id.firstIndex(of: ":") else { return nil }
        let framework = String(id[..<colon]), name = String(id[id.index(after: colon)...])
        guard !name.isEmpty else { throw ValidationError("--engine \(id): name the engine after the colon") }
        switch framework {
        case "ibus":
            if let engine = known.first(where: { $0.backend == .x11 && $0.kind.ibusEngine == name }) { return engine }
            let kind = InputMethodKind.ibus(name, probeKey: keys[0])
            let package = kind.ibusComponent.flatMap { DebianPackages.owner(of: "/usr/share/ibus/component/\($0).xml") } ?? "ibus"
            return .judgedByInvariants(kind, keys: keys, package: package)
        case "fcitx5":
            if let engine = known.first(where: { $0.backend == .x11 && $0.kind.fcitxInputMethod?.rawValue == name }) { return engine }
            let kind = InputMethodKind.fcitx5(name, probeKey: keys[0])
            let package = DebianPackages.owner(of: "/usr/share/fcitx5/inputmethod/\(name).conf") ?? "fcitx5"
            return .judgedByInvariants(kind, keys: keys, package: package)
        default:
            throw ValidationError("--engine \(id): the framework before the colon is ibus or fcitx5")
        }
    }

    /// "ibus-anthy  x11  8/8 passed  41.2 s", then each failure.
    static func line(for result: MatrixEngineResult) -> String {
        let passed = result.cells.filter { $0.verdict != .failed }.count
        let seconds = result.cells.reduce(result.sessionSeconds) { $0 + $1.seconds }
        var line = "\(result.engine.kind.slug)  \(result.engine.backend.rawValue)  \(passed)/\(result.cells.count) passed  "
            + String(format: "%.1f s", seconds)
        if let preedit = KeyTiming.summary(result.timing.toPreedit) {
            line += "  key → preedit \(preedit.median) ms (p90 \(preedit.p90))"
        }
        if let paint = KeyTiming.summary(result.timing.toPaint) {
            line += "  key → frame \(paint.median) ms (p90 \(paint.p90))"
        }
        for failure in result.failures { line += "\n  " + (failure.split(separator: "\n").first.map(String.init) ?? failure) }
        return line
    }

    private func printList(_ known: [MatrixEngine]) {
        for engine in known {
            let missing = MatrixRunner.missing(for: engine)
            print("\(engine.kind.slug)  \(engine.backend.rawValue)  " + (missing.map { "not runnable: \($0)" } ?? "installed"))
        }
        print("scenarios: " + MatrixScenario.allCases.map(\.rawValue).joined(separator: ", "))
    }
}

extension MatrixScenario: ExpressibleByArgument {}

/// A session cannot be had here: exit status 3, with what is missing.
struct Unavailable: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The progress line on a terminal: the engine, the scenario n of N, the time since the start.
private final class Progress: @unchecked Sendable {
    var total = 0
    private let enabled: Bool
    private let start = ContinuousClock.now
    private var done = 0
    private let lock = NSLock()

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func report(_ event: MatrixProgress) {
        lock.withLock {
            switch event {
            case .started(let engine, let scenario):
                guard enabled else { return }
                let elapsed = Int((ContinuousClock.now - start).components.seconds)
                let text = "\(engine.kind.slug): \(scenario.rawValue) (\(done + 1) of \(total), \(elapsed / 60)m\(elapsed % 60)s)"
                FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
            case .finished:
                done += 1
            }
        }
    }

    func clear() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
