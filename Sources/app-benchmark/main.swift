import ArgumentParser
import ComposerCore
import Foundation
import IMELab

// `make bench` (issue #11): the release composer against plain C GTK4 references, measured
// from outside both processes the same way (Benchmarks/meter/paint-meter.c: XTest key →
// the window's next X Damage), in private Xvfb sessions, rounds interleaved:
//   keystroke → first paint, GTK simple IM and ibus-anthy, empty draft and 1 KB, 100 KB, 1 MB under and over the limit, vs a plain
//   GtkTextView (Benchmarks/reference/textview.c, 480×600, the same text in a view of the composer's input size);
//   a 10 MB paste from another application's clipboard: wall time and CPU to settle, RSS after (Paste.swift);
//   idle CPU and wake-ups over 10 s, focused;
//   start → first frame and RSS vs the plain GtkTextView (and a minimal GTK4 window, Benchmarks/reference/window.c);
//   other apps' composers (data/lab/peers: GNOME Text Editor, Polari) against ours in their sessions (Peers.swift).
// Exit status: 0 when everything was measured (missed goals are FAIL rows in the table),
// 1 on a measurement error, 2 on a usage error.

struct BenchmarkError: Error, CustomStringConvertible { let description: String; init(_ d: String) { description = d } }

func say(_ line: String) { FileHandle.standardError.write(Data(("app-benchmark: " + line + "\n").utf8)) }

enum Program: String, CaseIterable {
    case composer, composerLargeDirectory, textview, window
    var label: String {
        switch self {
        case .composer: return "composer"
        case .composerLargeDirectory: return "composer, 100,000 people"
        case .textview: return "C GtkTextView"
        case .window: return "C minimal window"
        }
    }
}

/// The draft a keystroke case starts with.
enum DraftState: Equatable {
    case empty
    /// A long draft of `bytes` (`--draft-bytes`): under the composer's limit (its limit set
    /// above the draft's length: no counter, no overflow colouring, as the plain
    /// GtkTextView), or over the default limit (200: the counter shows how far over, and
    /// the overflow is coloured, as typing goes on).
    case long(bytes: Int, overLimit: Bool)
    /// An empty draft, `@ta` typed before the measured keys (the completion list open on
    /// the people it matches), then `a` and BackSpace in turn: each key filters the open
    /// list anew (`@t`, `@ta`, …). With ibus-anthy, `@ta` composes ＠た and Return commits
    /// it; then `n a Return` composes and commits な (the list filtered on ＠たな) and
    /// BackSpace takes it back (＠た): typing that commits, the list open throughout. The
    /// plain GtkTextView gets the same keys.
    case completionOpen

    /// Typed before the measured keys.
    static func completionWarmup(anthy: Bool) -> [String] { ["at", "t", "a"] + (anthy ? ["Return"] : []) }
    static func completionKeys(count: Int, anthy: Bool) -> [String] {
        let cycle = anthy ? ["n", "a", "Return", "BackSpace"] : ["BackSpace", "a"]
        return (0..<count).map { cycle[$0 % cycle.count] }
    }

    var bytes: Int? { if case let .long(bytes, _) = self { bytes } else { nil } }
    var isUnderLimit: Bool { if case .long(_, false) = self { true } else { false } }

    /// "1 KB", "100 KB", "1 MB", else the bytes.
    static func size(_ bytes: Int) -> String {
        if bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }
}

/// One keystroke case's samples.
struct KeyCase {
    let inputMethod: BenchSession.InputMethod
    let draft: DraftState
    var latency: [Program: [Double]] = [:]
    var last: [Program: [Double]] = [:]
    var frames: [Program: [Double]] = [:]
    /// Damaged pixels per measured key with a paint.
    var damage: [Program: [Double]] = [:]
    /// The whole process's CPU per measured key, one value per round (ns).
    var cpuPerKey: [Program: [Double]] = [:]
    var missed: [Program: Int] = [:]
    var notQuiet: [Program: Int] = [:]
    var title: String {
        (inputMethod == .gtkSimple ? "GTK simple IM" : "ibus-anthy") + ", " + {
            switch draft {
            case .empty: "empty draft"
            case .completionOpen: "completion open"
            case let .long(bytes, overLimit): "\(DraftState.size(bytes)) draft \(overLimit ? "over" : "under") the limit"
            }
        }()
    }
}

final class Benchmark {
    let options: AppBenchmark
    let tools: BenchTools
    let composer: String
    var keyCases: [KeyCase] = []
    var pastes: [PasteCase] = []
    var peerCases: [PeerCase] = []
    var startup: [Program: [Double]] = [:]
    var startupRSS: [Program: [Double]] = [:]
    var idle: [Program: BenchSession.Idle] = [:]
    /// The composer idle in each of its other states (the empty window's is `idle[.composer]`).
    var idleStates: [IdleState: BenchSession.Idle] = [:]
    /// The composer's input per session and draft size (`composerInput`).
    var inputGeometries: [String: BenchSession.TextGeometry] = [:]
    /// Programs whose threads showed Mesa's llvmpipe workers (the GL renderer at work).
    var llvmpipe: [Program: Bool] = [:]
    var knownGtkWarnings = 0
    var profileCounter = 0

    init(options: AppBenchmark) throws {
        self.options = options
        composer = URL(fileURLWithPath: options.composer).standardizedFileURL.path
        guard FileManager.default.isExecutableFile(atPath: composer) else {
            throw BenchmarkError("the composer \(composer) does not exist: swift build -c release --product ime-composer")
        }
        let session = try TestSession(name: "bench-build")
        defer { session.stop() }
        let directory = URL(fileURLWithPath: options.tools, isDirectory: true).standardizedFileURL
        tools = try BenchTools.build(into: directory, in: session)
    }

    /// A crash's backtrace on the composer's stderr, which the meter keeps (a statically
    /// linked Swift runtime finds no backtracer of its own: it is named here when the
    /// toolchain has one). Read only when a program crashes; the programs run the same.
    static let crashEnvironment: [String: String] = {
        let swift = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { String($0) + "/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let swift else { return [:] }
        let backtracer = URL(fileURLWithPath: swift).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("../libexec/swift/linux/swift-backtrace-static").standardized.path
        guard FileManager.default.isExecutableFile(atPath: backtracer) else { return [:] }
        return ["SWIFT_BACKTRACE": "enable=yes,interactive=no,swift-backtrace=\(backtracer)"]
    }()

    /// The environment a program runs with beyond the session's.
    func environment(_ program: Program) -> [String: String] {
        program == .composer || program == .composerLargeDirectory ? Self.crashEnvironment : [:]
    }

    /// - Parameter underLimit: the draft's bytes: the composer's limit is set above its length.
    /// - Parameter textWidth: the plain GtkTextView wraps its lines as a text view this wide.
    /// - Parameter textHeight: the plain GtkTextView shows this much of its text, then scrolls.
    func command(_ program: Program, in bench: BenchSession, draft: URL?, underLimit: Int? = nil,
                 textWidth: Int? = nil, textHeight: Int? = nil) -> [String] {
        switch program {
        case .composer:
            profileCounter += 1
            let profile = bench.session.directory.appendingPathComponent("profile-\(profileCounter)").path
            // Graphemes never outnumber the draft's bytes.
            let limit = underLimit.map { ["--limit", String($0 + options.keysPerRound + 100)] } ?? []
            return [composer, "--profile", profile] + (draft.map { ["--text-file", $0.path] } ?? []) + limit
        case .composerLargeDirectory:
            return command(.composer, in: bench, draft: draft) + ["--data", largeDirectory(in: bench).path]
        case .textview:
            return [tools.textview] + (draft.map { ["--text-file", $0.path] } ?? [])
                + (textWidth.map { ["--text-width", String($0)] } ?? [])
                + (textHeight.map { ["--text-height", String($0)] } ?? [])
        case .window:
            return [tools.window]
        }
    }

    /// A data directory of 100,000 people (the repository's people scaled up, each copy
    /// with a numbered handle), made once per session: the start-up row that shows the
    /// completion index is built off the first frame's path.
    func largeDirectory(in bench: BenchSession) -> URL {
        let directory = bench.session.directory.appendingPathComponent("data-100000")
        let file = directory.appendingPathComponent("people.jsonl")
        guard !FileManager.default.fileExists(atPath: file.path) else { return directory }
        let source = ComposerBinary.packageRoot.appendingPathComponent("data")
        let base = DirectoryLoader.load(from: source).directory.people
        var lines: [String] = []
        lines.reserveCapacity(100_000)
        for index in 0..<100_000 where !base.isEmpty {
            let person = base[index % base.count], copy = index / base.count
            let suffix = copy == 0 ? "" : "\(copy)"
            let object: [String: String] = ["id": person.id + (copy == 0 ? "" : "-\(copy)"), "name": person.name + suffix,
                                            "display": person.display + (copy == 0 ? "" : " \(copy)"),
                                            "reading": person.reading, "latin": person.latin + (copy == 0 ? "" : " \(copy)")]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            lines.append(String(decoding: data, as: UTF8.self))
        }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? lines.joined(separator: "\n").appending("\n").write(to: file, atomically: true, encoding: .utf8)
        return directory
    }

    /// Stops the app and checks it ended well and logged no GLib problem.
    /// Stops `app` (SIGTERM); a program that logged a GLib problem or did not exit 0 fails
    /// the run, and its session's logs (the program's whole output) are kept.
    func finish(_ app: BenchSession.App, _ program: Program, in bench: BenchSession) throws {
        let status = try app.stop()
        let output = app.output
        let problems = BenchSession.glibProblems(in: output)
        if !problems.isEmpty || status != 0 { bench.session.markFailed() }
        guard problems.isEmpty else {
            throw BenchmarkError("\(program.label) logged GLib warnings or criticals:\n" + problems.prefix(5).joined(separator: "\n"))
        }
        knownGtkWarnings += output.components(separatedBy: "Trying to snapshot GtkGizmo").count - 1
        guard status == 0 else {
            throw BenchmarkError("\(program.label) exited with status \(status) after SIGTERM\n\(output.suffix(2000))")
        }
    }

    func noteRenderer(_ program: Program, pid: Int32) {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let names = tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
        let gl = names.contains { $0.hasPrefix("llvmpipe") }
        llvmpipe[program] = (llvmpipe[program] ?? gl) && gl
    }

    /// A first launch in a fresh session: D-Bus activates the accessibility bus for it,
    /// and keys typed while that starts can be lost. Not measured.
    func warmUp(_ bench: BenchSession) throws {
        let app = try bench.start([tools.textview])
        _ = try bench.type(["a"], window: app.window, pid: app.pid)
        try finish(app, .textview, in: bench)
    }

    func run() throws {
        // The composer's own rows (the peers part makes sessions of its own).
        let own = !options.parts.subtracting([.peers]).isEmpty
        if options.cases.contains("simple") && own {
            say("GTK simple IM session: Xvfb + D-Bus, GSK_RENDERER=\(options.renderer)")
            let bench = try BenchSession(name: "bench-simple", inputMethod: .gtkSimple, tools: tools, renderer: options.renderer)
            defer { bench.stop() }
            try warmUp(bench)
            if options.parts.contains(.startup) { try measureStartup(bench) }
            if options.parts.contains(.idle) { try measureIdle(bench) }
            if options.parts.contains(.keys) {
                try measureKeys(bench, draft: .empty)
                try measureKeys(bench, draft: .completionOpen)
                for bytes in options.draftSizes {
                    try measureKeys(bench, draft: .long(bytes: bytes, overLimit: false))
                    try measureKeys(bench, draft: .long(bytes: bytes, overLimit: true))
                }
            }
            if options.parts.contains(.paste) { try measurePastes(bench) }
        }
        if options.cases.contains("anthy") && options.parts.contains(.keys) {
            say("ibus-anthy session: Xvfb + D-Bus + ibus-daemon (anthy, hiragana)")
            let bench = try BenchSession(name: "bench-anthy", inputMethod: .ibusAnthy, tools: tools, renderer: options.renderer)
            defer { bench.stop() }
            try warmUp(bench)
            try measureKeys(bench, draft: .empty)
            try measureKeys(bench, draft: .completionOpen)
            for bytes in options.draftSizes {
                try measureKeys(bench, draft: .long(bytes: bytes, overLimit: false))
                try measureKeys(bench, draft: .long(bytes: bytes, overLimit: true))
            }
        }
        if options.parts.contains(.peers) { try measurePeers() }
    }

    func measureStartup(_ bench: BenchSession) throws {
        let programs: [Program] = [.composer, .window, .textview, .composerLargeDirectory]
        for launch in 0..<options.startups {
            // Rotated each launch: no program always goes first after the previous one exits.
            for k in 0..<programs.count {
                let program = programs[(launch + k) % programs.count]
                let app = try bench.start(command(program, in: bench, draft: nil), environment: environment(program))
                startup[program, default: []].append(Double(app.firstFrameMicroseconds))
                startupRSS[program, default: []].append(Double(app.rssKiB))
                try finish(app, program, in: bench)
            }
            say("start-up \(launch + 1)/\(options.startups): "
                + programs.map { "\($0.rawValue) \(Format.ms(startup[$0]!.last!))" }.joined(separator: ", "))
        }
    }

    /// GLib retires an idle thread-pool worker 15 s after GTK's start-up work (the compose
    /// table's loading, …) and its main loop wakes once more about 5 s later: one-time
    /// housekeeping of every GTK program with a text view (seen with strace in both
    /// programs). Idle is what follows: measured from this long after the start.
    static let startupHousekeeping: Duration = .seconds(21)

    /// Quiet before the measured keys of a long draft: GtkScrolledWindow's overlay indicator
    /// fades out 2–2.5 s after the last scroll (1 s after its fade-in ended at most), over 1 s.
    static let scrollIndicatorFadeMilliseconds = 2500

    func measureIdle(_ bench: BenchSession) throws {
        let programs = [Program.composer, .textview, .window]
        // Started together, so the wait past the start-up housekeeping is paid once.
        let apps = try programs.map { try bench.start(command($0, in: bench, draft: nil), environment: environment($0)) }
        let states = try IdleState.allCases.map { state in try startComposer(in: state, bench) }
        Thread.sleep(until: Date().addingTimeInterval(Double(Self.startupHousekeeping.components.seconds)))
        for (state, started) in zip(IdleState.allCases, states) {
            let result = try bench.idle(window: started.app.window, pid: started.app.pid, seconds: options.idleSeconds)
            try finish(started.app, .composer, in: bench)
            if let problem = state.problem(trace: TraceLog(url: started.trace), profile: started.profile) {
                bench.session.markFailed()
                throw BenchmarkError("idle, \(state.title): the composer was not in that state: \(problem)")
            }
            idleStates[state] = result
            say("idle, \(state.title): \(Format.seconds(result.cpuSeconds)) CPU (run \(Format.seconds(result.runSeconds))), "
                + "\(result.wakeups) wake-ups \(Self.wakers(result)), \(result.frames) frames")
        }
        for (program, app) in zip(programs, apps) {
            noteRenderer(program, pid: app.pid)
            let result = try bench.idle(window: app.window, pid: app.pid, seconds: options.idleSeconds)
            idle[program] = result
            try finish(app, program, in: bench)
            say("idle \(program.rawValue): \(Format.seconds(result.cpuSeconds)) CPU (run \(Format.seconds(result.runSeconds))), "
                + "\(result.wakeups) wake-ups \(Self.wakers(result)), \(result.frames) frames, RSS \(Format.mib(Double(result.rssKiB)))")
        }
    }

    /// A composer started and brought into `state` (its draft, then its keys), with a trace
    /// and a profile of its own to check it against afterwards.
    func startComposer(in state: IdleState, _ bench: BenchSession) throws
        -> (app: BenchSession.App, trace: URL, profile: URL) {
        let directory = bench.session.directory.appendingPathComponent("idle-\(state.rawValue)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let trace = directory.appendingPathComponent("trace.jsonl"), profile = directory.appendingPathComponent("profile")
        var arguments = [composer, "--profile", profile.path, "--trace", trace.path]
        if let draft = state.draft {
            let file = directory.appendingPathComponent("draft.txt")
            try draft.write(to: file, atomically: true, encoding: .utf8)
            arguments += ["--text-file", file.path]
        }
        let app = try bench.start(arguments, environment: environment(.composer))
        if !state.keys.isEmpty { _ = try bench.type(state.keys, window: app.window, pid: app.pid) }
        return (app, trace, profile)
    }

    static func wakers(_ idle: BenchSession.Idle) -> String {
        idle.wakers.isEmpty ? "" : "(" + idle.wakers.map { "\($0.thread) \($0.count)" }.joined(separator: ", ") + ")"
    }

    func draftFile(_ bench: BenchSession, bytes: Int) throws -> URL {
        let url = bench.session.directory.appendingPathComponent("draft-\(bytes).txt")
        if !FileManager.default.fileExists(atPath: url.path) {
            try Workload.draft(bytes: bytes).write(to: url, atomically: true, encoding: .utf8)
        }
        return url
    }

    /// The composer's input text view in `bench`'s session holding `draft`, read once
    /// through AT-SPI from a composer started for it: the plain GtkTextView is given its
    /// width, and for a long draft its height (the input shows six lines, then scrolls),
    /// so the same keys wrap the same lines and scroll the same view. Each wrap in a text
    /// view that scrolls makes GTK fade its overlay scroll indicator in and out (~45
    /// frames): at the window's size the plain view wrapped half as often and never
    /// scrolled a 1 KB draft (Benchmarks/findings.md).
    func composerInput(_ bench: BenchSession, draft: DraftState) throws -> BenchSession.TextGeometry {
        let key = "\(bench.inputMethod.rawValue) \(draft.bytes ?? 0)"
        if let known = inputGeometries[key] { return known }
        let draftURL = try draft.bytes.map { try draftFile(bench, bytes: $0) }
        let app = try bench.start(command(.composer, in: bench, draft: draftURL), environment: environment(.composer),
                                  timeout: .seconds(120))
        let geometry = try bench.textGeometry(pid: app.pid)
        try finish(app, .composer, in: bench)
        say("the composer's input is \(geometry.width)×\(geometry.height) px with "
            + (draft.bytes.map { "the \(DraftState.size($0)) draft" } ?? "no draft") + ": the plain GtkTextView is given "
            + (draft.bytes == nil ? "its width" : "its size"))
        inputGeometries[key] = geometry
        return geometry
    }

    /// Why the completion list was not open for every measured key, from the composer's
    /// trace: it opened (on `@t` or `@ta`) and never closed until the exit.
    static func completionProblem(_ trace: TraceLog) -> String? {
        let states = trace.events(named: "completion").compactMap { $0["state"]?.stringValue }
        guard let opened = states.firstIndex(of: "open") else { return "the completion list never opened" }
        return states[opened...].contains("close") ? "the completion list closed while keys were measured" : nil
    }

    /// Why the anthy keys did not type what they should, from the composer's trace: each
    /// Return (after a word, or `n a`) commits a phrase, so there are commits; none of them
    /// may have reached the composer as Enter and sent the draft.
    static func anthyProblem(_ trace: TraceLog, keys: [String]) -> String? {
        if let sent = trace.events(named: "send").first { return "Return sent the draft instead of committing (\(sent))" }
        let commits = trace.events(named: "commit").filter { !($0["text"]?.stringValue ?? "").isEmpty }
        return keys.contains("Return") && commits.isEmpty ? "no phrase was committed" : nil
    }

    func measureKeys(_ bench: BenchSession, draft: DraftState) throws {
        var result = KeyCase(inputMethod: bench.inputMethod, draft: draft)
        let draftURL = try draft.bytes.map { try draftFile(bench, bytes: $0) }
        let anthy = bench.inputMethod == .ibusAnthy
        let completion = draft == .completionOpen
        let keys = completion ? DraftState.completionKeys(count: options.keysPerRound, anthy: anthy)
            : anthy ? Workload.anthyKeys(count: options.keysPerRound) : Workload.simpleKeys(count: options.keysPerRound)
        let warmup = completion ? DraftState.completionWarmup(anthy: anthy) : anthy ? Workload.anthyWarmup : Workload.simpleWarmup
        let input = try composerInput(bench, draft: draft)
        say("keystrokes, \(result.title): \(options.rounds) rounds × \(keys.count) keys each, interleaved")
        for round in 0..<options.rounds {
            let order: [Program] = round % 2 == 0 ? [.composer, .textview] : [.textview, .composer]
            for program in order {
                // The list must have stayed open, and anthy's Return must have committed, not
                // sent: the composer's trace says so afterwards (for anthy's keys, the first
                // round's: the trace's own writes are not in the other rounds' CPU).
                let trace = (completion || (anthy && round == 0)) && program == .composer
                    ? bench.session.directory.appendingPathComponent("trace-\(keyCases.count)-\(round).jsonl") : nil
                let app = try bench.start(command(program, in: bench, draft: draftURL, underLimit: draft.isUnderLimit ? draft.bytes : nil,
                                                  textWidth: input.width, textHeight: draft.bytes == nil ? nil : input.height)
                                            + (trace.map { ["--trace", $0.path] } ?? []),
                                          environment: environment(program), timeout: .seconds(120))
                noteRenderer(program, pid: app.pid)
                if anthy { try bench.waitForEngine(window: app.window, pid: app.pid) }
                // A long draft starts scrolled to its end, and the scroll indicator's fade-out
                // follows 2–3 s later: waited out, or its ~50 frames land on a measured key in
                // one program's run and not the other's (Benchmarks/findings.md).
                let run = try bench.type(keys, warmup: warmup, window: app.window, pid: app.pid,
                                         keysQuietMilliseconds: draft.bytes == nil ? nil : Self.scrollIndicatorFadeMilliseconds)
                try finish(app, program, in: bench)
                if let trace, let problem = (completion ? Self.completionProblem(TraceLog(url: trace)) : nil)
                    ?? (anthy ? Self.anthyProblem(TraceLog(url: trace), keys: keys) : nil) {
                    bench.session.markFailed()
                    throw BenchmarkError("\(result.title), round \(round + 1): \(problem)")
                }
                let measured = run.measured
                result.latency[program, default: []] += run.latencies
                result.last[program, default: []] += measured.compactMap { $0.lastMicroseconds.map(Double.init) }
                result.frames[program, default: []] += run.frames
                result.damage[program, default: []] += run.damagedPixels
                guard let cpu = run.cpu, cpu.measuredKeys > 0 else {
                    throw BenchmarkError("\(program.label): the meter reported no CPU for the keys (\(result.title))")
                }
                result.cpuPerKey[program, default: []].append(cpu.nanosecondsPerKey)
                result.missed[program, default: 0] += run.missed
                result.notQuiet[program, default: 0] += measured.filter { !$0.quietBefore }.count + (run.readyQuiet ? 0 : 1)
                let summary = Summary(run.latencies)
                say("  round \(round + 1) \(program.rawValue): median \(summary.map { Format.ms($0.median) } ?? "—"), "
                    + "p90 \(summary.map { Format.ms($0.p90) } ?? "—"), missed \(run.missed)")
            }
        }
        for program in [Program.composer, .textview] where (result.missed[program] ?? 0) * 10 > options.rounds * keys.count {
            throw BenchmarkError("\(program.label) showed no paint for \(result.missed[program]!) of \(options.rounds * keys.count) keys (\(result.title)): the keys do not arrive")
        }
        keyCases.append(result)
    }
}

// MARK: report

struct GoalRow {
    let goal: String
    let composer: String
    let reference: String
    let ratio: String
    let target: String
    let pass: Bool
    var markdown: String { "| \(goal) | \(composer) | \(reference) | \(ratio) | \(target) | \(pass ? "PASS" : "**FAIL**") |" }
}

extension Benchmark {
    func goalRows() -> [GoalRow] {
        var rows: [GoalRow] = []
        for c in keyCases {
            guard let mine = Summary(c.latency[.composer] ?? []), let theirs = Summary(c.latency[.textview] ?? []) else { continue }
            let median = mine.median / theirs.median, p90 = mine.p90 / theirs.p90
            rows.append(GoalRow(goal: "Keystroke → first paint, \(c.title): median", composer: Format.ms(mine.median),
                                reference: Format.ms(theirs.median) + " (GtkTextView)", ratio: Format.ratio(median),
                                target: "≤ 1.05×", pass: median <= 1.05))
            rows.append(GoalRow(goal: "Keystroke → first paint, \(c.title): p90", composer: Format.ms(mine.p90),
                                reference: Format.ms(theirs.p90) + " (GtkTextView)", ratio: Format.ratio(p90),
                                target: "≤ 1.1×", pass: p90 <= 1.1))
            if let mineCPU = Summary(c.cpuPerKey[.composer] ?? []), let theirsCPU = Summary(c.cpuPerKey[.textview] ?? []) {
                let ratio = mineCPU.median / theirsCPU.median
                rows.append(GoalRow(goal: "CPU per keystroke, whole process, \(c.title) (median of rounds)",
                                    composer: Format.ms(mineCPU.median / 1000), reference: Format.ms(theirsCPU.median / 1000) + " (GtkTextView)",
                                    ratio: Format.ratio(ratio), target: "≤ 1.15×", pass: ratio <= 1.15))
            }
            if let mineFrames = Summary(c.frames[.composer] ?? []), let theirsFrames = Summary(c.frames[.textview] ?? []) {
                rows.append(GoalRow(goal: "Frames per key, \(c.title)", composer: String(format: "%.2f", mineFrames.mean),
                                    reference: String(format: "%.2f", theirsFrames.mean) + " (GtkTextView)",
                                    ratio: Format.ratio(mineFrames.mean / theirsFrames.mean), target: "≤ 1×",
                                    pass: mineFrames.mean <= theirsFrames.mean))
            }
            if let mineArea = Summary(c.damage[.composer] ?? []), let theirsArea = Summary(c.damage[.textview] ?? []), theirsArea.mean > 0 {
                rows.append(GoalRow(goal: "Damaged pixels per key, \(c.title)", composer: Format.pixels(mineArea.mean),
                                    reference: Format.pixels(theirsArea.mean) + " (GtkTextView)",
                                    ratio: Format.ratio(mineArea.mean / theirsArea.mean), target: "≤ 1×",
                                    pass: mineArea.mean <= theirsArea.mean))
            }
        }
        rows += pasteRows()
        if let mine = idle[.composer], let theirs = idle[.textview] {
            rows.append(GoalRow(goal: "Idle \(options.idleSeconds) s, focused: CPU", composer: Format.seconds(mine.cpuSeconds),
                                reference: Format.seconds(theirs.cpuSeconds) + " (GtkTextView)", ratio: "—",
                                target: "0", pass: mine.cpuSeconds == 0 && mine.runSeconds < 0.001))
            rows.append(GoalRow(goal: "Idle \(options.idleSeconds) s, focused: wake-ups", composer: "\(mine.wakeups)",
                                reference: "\(theirs.wakeups) (GtkTextView)", ratio: "—",
                                target: "0", pass: mine.wakeups == 0))
        }
        for state in IdleState.allCases {
            guard let mine = idleStates[state] else { continue }
            rows.append(GoalRow(goal: "Idle \(options.idleSeconds) s, \(state.title): CPU", composer: Format.seconds(mine.cpuSeconds),
                                reference: "—", ratio: "—", target: "0",
                                pass: mine.cpuSeconds == 0 && mine.runSeconds < 0.001))
            rows.append(GoalRow(goal: "Idle \(options.idleSeconds) s, \(state.title): wake-ups", composer: "\(mine.wakeups)",
                                reference: "—", ratio: "—", target: "0", pass: mine.wakeups == 0))
        }
        // Start-up and memory against the plain GtkTextView window (issue #35: "not a
        // minimal window"); the minimal window's figures are in the table below.
        if let mine = Summary(startup[.composer] ?? []), let theirs = Summary(startup[.textview] ?? []) {
            let ratio = mine.median / theirs.median
            rows.append(GoalRow(goal: "Start → first frame (median of \(mine.count))", composer: Format.ms(mine.median),
                                reference: Format.ms(theirs.median) + " (GtkTextView)", ratio: Format.ratio(ratio),
                                target: "≤ 1.15×", pass: ratio <= 1.15))
        }
        if let mine = Summary(startup[.composerLargeDirectory] ?? []), let theirs = Summary(startup[.textview] ?? []) {
            let ratio = mine.median / theirs.median
            rows.append(GoalRow(goal: "Start → first frame with 100,000 people (median of \(options.startups))",
                                composer: Format.ms(mine.median), reference: Format.ms(theirs.median) + " (GtkTextView)",
                                ratio: Format.ratio(ratio), target: "≤ 1.15×", pass: ratio <= 1.15))
        }
        if let mine = idle[.composer], let theirs = idle[.textview] {
            let ratio = Double(mine.rssKiB) / Double(theirs.rssKiB)
            rows.append(GoalRow(goal: "RSS once idle", composer: Format.mib(Double(mine.rssKiB)),
                                reference: Format.mib(Double(theirs.rssKiB)) + " (GtkTextView)", ratio: Format.ratio(ratio),
                                target: "≤ 1.2×", pass: ratio <= 1.2))
        }
        return rows
    }

    /// The composer's input sizes the plain view was given, for the report.
    var inputSizesText: String {
        let sizes = Set(inputGeometries.values.map { "\($0.width)×\($0.height) px" }).sorted()
        return sizes.isEmpty ? "not measured" : sizes.joined(separator: ", ")
    }

    func markdown(date: String) -> String {
        var out: [String] = []
        let renderer = options.renderer.isEmpty ? "GTK's choice" : "GSK_RENDERER=\(options.renderer)"
        let gl = [Program.composer, .textview, .window].filter { llvmpipe[$0] != nil }
            .map { "\($0.label): \(llvmpipe[$0]! ? "llvmpipe threads seen" : "no llvmpipe threads")" }.joined(separator: "; ")
        out.append("## App: keystroke to paint, idle, start-up and memory")
        out.append("")
        out.append("Measured \(date) by `app-benchmark` (`make bench`): the release `ime-composer` against plain C GTK4 "
            + "programs (`Benchmarks/reference/`), each in a private Xvfb (1024×768×24) + D-Bus session (+ ibus-daemon "
            + "with anthy for the IBus cases), GDK_BACKEND=x11, caret blink off (`gtk-cursor-blink=false` in a private "
            + "settings.ini), the same environment for every program. Paint is measured from outside the processes by "
            + "`Benchmarks/meter/paint-meter.c`: XTest key press (+ release) → the first X DamageNotify on the program's "
            + "top-level window (CLOCK_MONOTONIC); the next key is sent once no damage came for 80 ms, so keys never overlap.")
        out.append("")
        out.append("Renderer: \(renderer) for every program (\(gl.isEmpty ? "not checked" : gl)).")
        out.append("")
        out.append("| Goal | Composer | Reference | Ratio | Target | Verdict |")
        out.append("|---|---|---|---|---|---|")
        out += goalRows().map(\.markdown)
        out.append("")
        out.append("### Keystroke → first paint")
        out.append("")
        out.append("\(options.rounds) rounds per program and case, interleaved (composer, textview, textview, composer, …), "
            + "each round a fresh process (a fresh `--profile` for the composer), \(options.keysPerRound) measured keys after "
            + "\(Workload.simpleWarmup.count) warm-up keys. Simple IM: letters and spaces, inserted. ibus-anthy: romaji "
            + "composing kana in the preedit, every other word converted (space) and committed (Return), the others "
            + "cancelled with Escape (each of those keys measured too). Completion open: "
            + "`@ta` typed first (the list open on the people it matches), then BackSpace and `a` in turn, each filtering the "
            + "open list anew; with ibus-anthy ＠た composed and committed with Return first, then `n a Return` (な "
            + "composed and committed) and BackSpace in turn. The composer's trace says afterwards that the list never closed. Each long draft "
            + "(\(options.draftSizes.map(DraftState.size).joined(separator: ", ")) at most, whole Latin and Japanese lines) is given to both with `--text-file`, caret at the end, twice: under the composer's limit (`--limit` above its length: "
            + "no counter, no colouring, as the plain view) and over it (the default limit, 200: the counter and the overflow's "
            + "colour follow each key). "
            + "The plain GtkTextView is given the composer's input size, read through AT-SPI (\(inputSizesText)): its width "
            + "(its window stays 480×600, its right margin takes the rest) and, with a long draft, its height (the input "
            + "shows six lines, then scrolls; the plain view's scroller at the window's bottom): the same keys wrap the same "
            + "lines and scroll the same view, and GTK fades a scroll indicator in and out (~45 frames) at each wrap in a "
            + "text view that scrolls. "
            + "\"Last paint\": the last damage of the key's burst; \"frames\": damage bursts per key; \"damaged px\": "
            + "the pixels of the key's X Damage rectangles (summed). \"CPU/key\": the whole process (every thread, the GL "
            + "renderer's llvmpipe threads too, and threads that ended on the way: the process's CPU clock) from the first measured key to the "
            + "process's quiet after the last (no damage and under 5% CPU for 80 ms), over the measured keys; the median "
            + "of the rounds.")
        out.append("")
        out.append("| Case | Program | Keys | Median | p90 | Mean | Min | Max | Last paint median | Frames/key | Damaged px/key | CPU/key | Missed | Not quiet |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for c in keyCases {
            for program in [Program.composer, .textview] {
                guard let s = Summary(c.latency[program] ?? []) else { continue }
                let last = Summary(c.last[program] ?? []).map { Format.ms($0.median) } ?? "—"
                let frames = Summary(c.frames[program] ?? []).map { String(format: "%.2f", $0.mean) } ?? "—"
                let area = Summary(c.damage[program] ?? []).map { Format.pixels($0.mean) } ?? "—"
                let cpu = Summary(c.cpuPerKey[program] ?? []).map { Format.ms($0.median / 1000) } ?? "—"
                out.append("| \(c.title) | \(program.label) | \(s.count) | \(Format.ms(s.median)) | \(Format.ms(s.p90)) | "
                    + "\(Format.ms(s.mean)) | \(Format.ms(s.min)) | \(Format.ms(s.max)) | \(last) | \(frames) | \(area) | \(cpu) | "
                    + "\(c.missed[program] ?? 0) | \(c.notQuiet[program] ?? 0) |")
            }
        }
        out.append("")
        out += pasteMarkdown()
        out += peerMarkdown()
        out.append("### Idle, start-up, memory")
        out.append("")
        out.append("Idle: \(options.idleSeconds) s with the window focused and nothing happening, after it was quiet (no damage, "
            + "under 5% CPU) for 300 ms, from \(Self.startupHousekeeping.components.seconds) s after the start (past GLib's "
            + "one-time start-up housekeeping: it retires an idle thread-pool worker after 15 s); CPU = utime+stime of /proc/PID/stat (clock ticks) and the exact run time of all "
            + "threads (the process's CPU clock); wake-ups = voluntary + involuntary context switches of all threads. Start-up: from the "
            + "meter's fork to the first damage of the program's first mapped top-level (its `_NET_WM_PID`), "
            + "\(options.startups) launches each, rotated; RSS = VmRSS at that first frame (median) and after the idle period. "
            + "The composer starts reading and indexing its people, channels and emoji (the emoji index is about "
            + "4 MiB) once its first frame is painted, on a thread of its own: they are off the first frame's path "
            + "(the 100,000-people row shows it) and in the idle RSS.")
        out.append("")
        out.append("| Program | Idle CPU | Idle run time | Wake-ups (threads) | Idle frames | Threads | Start → first frame median | p90 | RSS at first frame | RSS once idle |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        for program in Program.allCases {
            let i = idle[program]
            let s = Summary(startup[program] ?? [])
            let rss = Summary(startupRSS[program] ?? [])
            out.append("| \(program.label) | \(i.map { Format.seconds($0.cpuSeconds) } ?? "—") | "
                + "\(i.map { Format.seconds($0.runSeconds) } ?? "—") | \(i.map { "\($0.wakeups) \(Benchmark.wakers($0))" } ?? "—") | "
                + "\(i.map { "\($0.frames)" } ?? "—") | \(i.map { "\($0.threads)" } ?? "—") | "
                + "\(s.map { Format.ms($0.median) } ?? "—") | \(s.map { Format.ms($0.p90) } ?? "—") | "
                + "\(rss.map { Format.mib($0.median) } ?? "—") | \(i.map { Format.mib(Double($0.rssKiB)) } ?? "—") |")
        }
        out.append("")
        out.append("The composer idle in its other states, each reached by keys typed into its window after the first frame "
            + "(a draft of its own for the counter and the overflow, limit \(IdleState.limit)) and checked afterwards "
            + "from its trace and profile: the counter shown, over the limit (the overflow coloured), the completion list "
            + "open (`@ta`), after the draft was saved (two letters, then the profile's SQLite draft), the inspector "
            + "closed after use (F12, a key, F12, a key: frames traced after the first key and none after the second).")
        out.append("")
        out.append("| Composer state | Idle CPU | Idle run time | Wake-ups (threads) | Idle frames | Threads | RSS once idle |")
        out.append("|---|---|---|---|---|---|---|")
        for state in IdleState.allCases {
            guard let i = idleStates[state] else { continue }
            out.append("| \(state.title) | \(Format.seconds(i.cpuSeconds)) | \(Format.seconds(i.runSeconds)) | "
                + "\(i.wakeups) \(Benchmark.wakers(i)) | \(i.frames) | \(i.threads) | \(Format.mib(Double(i.rssKiB))) |")
        }
        if knownGtkWarnings > 0 {
            out.append("")
            out.append("GTK 4.8's known scrollbar warning (\"Trying to snapshot GtkGizmo … without a current allocation\", "
                + "GNOME/gtk!5222) was printed \(knownGtkWarnings) times in all; no other GLib warning or critical.")
        }
        out.append("")
        return out.joined(separator: "\n")
    }

    func rawJSON() throws -> Data {
        var cases: [[String: Any]] = []
        for c in keyCases {
            var programs: [String: Any] = [:]
            for (program, values) in c.latency { programs[program.rawValue] = ["latency_us": values, "last_us": c.last[program] ?? [],
                                                                                     "frames": c.frames[program] ?? [],
                                                                                     "damaged_px": c.damage[program] ?? [],
                                                                                     "cpu_ns_per_key_by_round": c.cpuPerKey[program] ?? []] }
            cases.append(["case": c.title, "programs": programs])
        }
        var idleOut: [String: Any] = [:]
        for (program, i) in idle {
            idleOut[program.rawValue] = ["cpu_s": i.cpuSeconds, "run_s": i.runSeconds, "wakeups": i.wakeups,
                                         "frames": i.frames, "rss_kib": i.rssKiB]
        }
        var idleStatesOut: [String: Any] = [:]
        for (state, i) in idleStates {
            idleStatesOut[state.rawValue] = ["cpu_s": i.cpuSeconds, "run_s": i.runSeconds, "wakeups": i.wakeups,
                                             "frames": i.frames, "rss_kib": i.rssKiB]
        }
        let object: [String: Any] = [
            "keys": cases, "pastes": pasteJSON(), "peers": peerJSON(), "idle": idleOut, "idle_composer_states": idleStatesOut,
            "startup_us": Dictionary(uniqueKeysWithValues: startup.map { ($0.key.rawValue, $0.value) }),
            "startup_rss_kib": Dictionary(uniqueKeysWithValues: startupRSS.map { ($0.key.rawValue, $0.value) }),
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }
}

// Any command-line error exits 2 with ArgumentParser's message (its default is 64); --help
// exits 0. The run ends through TestSession.exitProcess, which waits for an interrupt
// handler already stopping the sessions.
do {
    var command = try AppBenchmark.parseAsRoot()
    try command.run()
    TestSession.exitProcess(0)
} catch {
    if AppBenchmark.exitCode(for: error) == .success { AppBenchmark.exit(withError: error) }
    if let code = error as? ExitCode { TestSession.exitProcess(code.rawValue) }
    FileHandle.standardError.write(Data((AppBenchmark.fullMessage(for: error) + "\n").utf8))
    TestSession.exitProcess(2)
}
