import Foundation
import IMELab

/// Another application's composer (`data/lab/peers/APP.json`: GNOME Text Editor's editor,
/// Polari's entry, Dino's chat input) against ours, in the same run and the same private
/// session (`PeerSession`: Xvfb, D-Bus and its accessibility bus, the input method, the
/// app's server on the loopback): keystroke → first paint and whole-process CPU per key,
/// measured from outside both by `paint-meter keys`, rounds interleaved. Issue #38: "ratio
/// to ours in the same run".
///
/// The app keeps running through the rounds (a chat app's start and connection take
/// seconds; its input is emptied before each round, `PeerSession.clear`); each of the
/// composer's rounds is a fresh process with a fresh profile. The lab's AT-SPI watcher is
/// stopped while the app's keys are measured: it would otherwise ask the app for its text
/// after every key, CPU the app spends for the lab, not for the person typing.
struct PeerCase {
    let app: String
    let title: String
    let inputMethod: BenchSession.InputMethod
    /// Why the case was not measured (a program missing, a workload the app cannot take).
    var notMeasured: String?
    var latency: [PeerProgram: [Double]] = [:]
    var frames: [PeerProgram: [Double]] = [:]
    /// Damaged pixels per measured key with a paint.
    var damage: [PeerProgram: [Double]] = [:]
    /// The whole process's CPU per measured key, one value per round (ns).
    var cpuPerKey: [PeerProgram: [Double]] = [:]
    var missed: [PeerProgram: Int] = [:]
    var inputMethodTitle: String { inputMethod == .gtkSimple ? "GTK simple IM" : "ibus-anthy" }
}

enum PeerProgram: String, CaseIterable {
    case peer, composer
}

extension Benchmark {
    /// The lab's engine for each keystroke session.
    static func peerEngineSlug(_ inputMethod: BenchSession.InputMethod) -> String {
        inputMethod == .gtkSimple ? "gtk-simple" : "ibus-anthy"
    }

    /// Why `app` cannot take the keystroke workload of `inputMethod`, or nil: anthy's words
    /// are committed with Return, and an app that takes Return before the input method
    /// (its `compose-commit` cell a known failure, Dino 0.4.2's dino/dino#1419) would send
    /// them half composed instead.
    static func peerWorkloadProblem(_ app: PeerApp, _ inputMethod: BenchSession.InputMethod) -> String? {
        guard inputMethod == .ibusAnthy,
              let known = app.knownFailure(engine: peerEngineSlug(inputMethod), scenario: .composeCommit) else { return nil }
        return "the workload commits anthy's words with Return, which \(app.title) does not give the input method: \(known)"
    }

    func measurePeers() throws {
        let engines = try MatrixEngine.load()
        for name in options.peers {
            let app = try PeerApp.named(name)
            for inputMethod in [BenchSession.InputMethod.gtkSimple, .ibusAnthy]
            where options.cases.contains(inputMethod == .gtkSimple ? "simple" : "anthy") {
                var result = PeerCase(app: app.app, title: app.title, inputMethod: inputMethod)
                let slug = Self.peerEngineSlug(inputMethod)
                guard let engine = engines.first(where: { $0.kind.slug == slug }) else {
                    throw BenchmarkError("the lab has no engine \(slug) (data/lab/engines/\(slug).json)")
                }
                result.notMeasured = PeerMatrix.missing(app: app, engine: engine) ?? Self.peerWorkloadProblem(app, inputMethod)
                if let reason = result.notMeasured {
                    say("\(app.title), \(result.inputMethodTitle): not measured: \(reason)")
                } else {
                    try measurePeer(app, engine: engine, into: &result)
                }
                peerCases.append(result)
            }
        }
    }

    private func measurePeer(_ app: PeerApp, engine: MatrixEngine, into result: inout PeerCase) throws {
        let anthy = result.inputMethod == .ibusAnthy
        say("\(app.title), \(result.inputMethodTitle): its session (Xvfb + D-Bus\(app.server.map { " + \($0.rawValue)" } ?? "")"
            + "\(anthy ? " + ibus-daemon" : ""))")
        var environment: [String: String] = [:]
        if !options.renderer.isEmpty { environment["GSK_RENDERER"] = options.renderer }
        let ps = try PeerSession(app, engine: engine, environment: environment, cursorBlink: false)
        defer { ps.stop() }
        let bench = try BenchSession(sharing: ps.session, inputMethod: result.inputMethod, ibus: ps.ibus,
                                     environment: ps.inputEnvironment, tools: tools)
        guard let window = UInt(ps.window) else { throw BenchmarkError("\(app.title)'s window id is not a number: \(ps.window)") }
        let keys = anthy ? Workload.anthyKeys(count: options.keysPerRound) : Workload.simpleKeys(count: options.keysPerRound)
        let warmup = anthy ? Workload.anthyWarmup : Workload.simpleWarmup
        say("\(app.title) against the composer, \(result.inputMethodTitle): \(options.peerRounds) rounds × \(keys.count) keys each, interleaved")
        for round in 0..<options.peerRounds {
            for program in round % 2 == 0 ? [PeerProgram.peer, .composer] : [.composer, .peer] {
                let run: BenchSession.KeyRun
                switch program {
                case .peer:
                    try ps.clear()
                    ps.pauseWatcher()
                    do {
                        run = try bench.type(keys, warmup: warmup, window: window, pid: ps.app.pid)
                    } catch {
                        ps.resumeWatcher()
                        throw error
                    }
                    ps.resumeWatcher()
                    try Self.checkPeerText(ps, keys: keys, anthy: anthy)
                case .composer:
                    let trace = anthy && round == 0
                        ? bench.session.directory.appendingPathComponent("peer-trace-\(peerCases.count).jsonl") : nil
                    let started = try bench.start(command(.composer, in: bench, draft: nil) + (trace.map { ["--trace", $0.path] } ?? []),
                                                  environment: self.environment(.composer), timeout: .seconds(120))
                    if anthy { try bench.waitForEngine(window: started.window, pid: started.pid) }
                    run = try bench.type(keys, warmup: warmup, window: started.window, pid: started.pid)
                    try finish(started, .composer, in: bench)
                    if let trace, let problem = Self.anthyProblem(TraceLog(url: trace), keys: keys) {
                        bench.session.markFailed()
                        throw BenchmarkError("the composer beside \(app.title), \(result.inputMethodTitle): \(problem)")
                    }
                }
                result.latency[program, default: []] += run.latencies
                result.frames[program, default: []] += run.frames
                result.damage[program, default: []] += run.damagedPixels
                guard let cpu = run.cpu, cpu.measuredKeys > 0 else {
                    throw BenchmarkError("\(program == .peer ? app.title : "the composer"): the meter reported no CPU for the keys")
                }
                result.cpuPerKey[program, default: []].append(cpu.nanosecondsPerKey)
                result.missed[program, default: 0] += run.missed
                let summary = Summary(run.latencies)
                say("  round \(round + 1) \(program == .peer ? app.app : "composer"): median \(summary.map { Format.ms($0.median) } ?? "—"), "
                    + "CPU/key \(Format.ms(cpu.nanosecondsPerKey / 1000)), missed \(run.missed)")
            }
        }
        for program in PeerProgram.allCases where (result.missed[program] ?? 0) * 10 > options.peerRounds * keys.count {
            throw BenchmarkError("\(program == .peer ? app.title : "the composer") showed no paint for \(result.missed[program]!) of "
                + "\(options.peerRounds * keys.count) keys (\(result.inputMethodTitle)): the keys do not arrive")
        }
    }

    /// The keys reached the app's input: with the simple IM its text is the letters and
    /// spaces typed (the warm-up leaves none); with anthy it holds the committed words and
    /// no Latin letter (every key went through the engine).
    static func checkPeerText(_ ps: PeerSession, keys: [String], anthy: Bool) throws {
        if !anthy {
            try ps.waitForText(keys.map { $0 == "space" ? " " : $0 }.joined())
            return
        }
        _ = try Wait.until("\(ps.peer.app)'s input to hold anthy's committed words", timeout: .seconds(20),
                           diagnostics: { "the input holds \(ps.text)\n" + ps.trace.diagnostics() }) { () -> Bool? in
            let text = ps.text
            return !text.isEmpty && !text.unicodeScalars.contains { $0.isASCII && $0.properties.isAlphabetic } ? true : nil
        }
    }

    /// Peer ÷ composer of the medians of `values`, or nil.
    static func peerRatio(_ values: [PeerProgram: [Double]], _ statistic: (Summary) -> Double) -> Double? {
        guard let peer = Summary(values[.peer] ?? []), let ours = Summary(values[.composer] ?? []) else { return nil }
        let denominator = statistic(ours)
        return denominator > 0 ? statistic(peer) / denominator : nil
    }

    func peerMarkdown() -> [String] {
        guard !peerCases.isEmpty else { return [] }
        var out = ["### Other apps' composers, against ours", ""]
        out.append("Each app in its own private session (Xvfb + D-Bus, the input method, its server on 127.0.0.1: "
            + "`ime-composer matrix --app`'s `PeerSession`), the composer started in the same session with the same input "
            + "method; \(options.peerRounds) rounds per program, interleaved, \(options.keysPerRound) measured keys after "
            + "the warm-up, the same keys as the composer's own rows above (empty draft). The app keeps running through "
            + "its rounds, its input emptied before each (a chat app's start and connection take seconds); each of the "
            + "composer's rounds is a fresh process. The lab's AT-SPI watcher is stopped while the app's keys are "
            + "measured, so the app answers no reads of ours meanwhile; afterwards its input must hold what was typed. "
            + "CPU/key: every thread of the process (its CPU clock, ended threads too), the median of the rounds. "
            + "Ratios are the app's figure ÷ the composer's: above 1×, the app costs more per key.")
        out.append("")
        out.append("| App | Input method | Program | Keys | Median | p90 | Frames/key | Damaged px/key | CPU/key | Missed |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        for c in peerCases {
            guard c.notMeasured == nil else {
                out.append("| \(c.title) | \(c.inputMethodTitle) | — | — | — | — | — | — | — | not measured: \(c.notMeasured!) |")
                continue
            }
            for program in PeerProgram.allCases {
                guard let s = Summary(c.latency[program] ?? []) else { continue }
                let frames = Summary(c.frames[program] ?? []).map { String(format: "%.2f", $0.mean) } ?? "—"
                let area = Summary(c.damage[program] ?? []).map { Format.pixels($0.mean) } ?? "—"
                let cpu = Summary(c.cpuPerKey[program] ?? []).map { Format.ms($0.median / 1000) } ?? "—"
                out.append("| \(c.title) | \(c.inputMethodTitle) | \(program == .peer ? c.title : "composer") | \(s.count) | "
                    + "\(Format.ms(s.median)) | \(Format.ms(s.p90)) | \(frames) | \(area) | \(cpu) | \(c.missed[program] ?? 0) |")
            }
        }
        out.append("")
        out.append("| App | Input method | Key → first paint median, app ÷ composer | p90, app ÷ composer | CPU/key, app ÷ composer |")
        out.append("|---|---|---|---|---|")
        for c in peerCases where c.notMeasured == nil {
            let median = Self.peerRatio(c.latency) { $0.median }, p90 = Self.peerRatio(c.latency) { $0.p90 }
            let cpu = Self.peerRatio(c.cpuPerKey) { $0.median }
            out.append("| \(c.title) | \(c.inputMethodTitle) | \(median.map(Format.ratio) ?? "—") | "
                + "\(p90.map(Format.ratio) ?? "—") | \(cpu.map(Format.ratio) ?? "—") |")
        }
        out.append("")
        return out
    }

    func peerJSON() -> [[String: Any]] {
        peerCases.map { c in
            var object: [String: Any] = ["app": c.app, "input_method": c.inputMethod.rawValue]
            if let reason = c.notMeasured { object["not_measured"] = reason }
            var programs: [String: Any] = [:]
            for program in PeerProgram.allCases where c.latency[program] != nil {
                programs[program.rawValue] = ["latency_us": c.latency[program] ?? [], "frames": c.frames[program] ?? [],
                                              "damaged_px": c.damage[program] ?? [],
                                              "cpu_ns_per_key_by_round": c.cpuPerKey[program] ?? []]
            }
            object["programs"] = programs
            return object
        }
    }
}
