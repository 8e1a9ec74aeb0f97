import Foundation

/// The C programs of `Benchmarks/`: the paint meter (`Benchmarks/meter/paint-meter.c`) and
/// the references it measures the composer against (`Benchmarks/reference/`).
public struct BenchTools: Sendable {
    /// A plain GtkTextView window, 480×600 (`--text-file`, `--title`, `--print-text`).
    public let textview: String
    /// A minimal GTK4 window, 480×600.
    public let window: String
    /// The X Damage / XTest meter.
    public let meter: String
    /// Reads a program's text widget size through AT-SPI (a Python script, not compiled).
    public let textSizeProbe: String

    public init(directory: URL, sources root: URL = ComposerBinary.packageRoot) {
        textview = directory.appendingPathComponent("textview").path
        window = directory.appendingPathComponent("window").path
        meter = directory.appendingPathComponent("paint-meter").path
        textSizeProbe = root.appendingPathComponent("Benchmarks/meter/text-size.py").path
    }

    public var all: [String] { [textview, window, meter] }

    static let cflags = ["-O2", "-Wall", "-Wextra", "-Werror"]

    /// Compiles the three programs into `directory` with `cc` (as `make bench` does), each
    /// only if it is missing or older than its source. Throws with the compiler's output.
    @discardableResult
    public static func build(into directory: URL, in session: TestSession,
                             sources root: URL = ComposerBinary.packageRoot) throws -> BenchTools {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tools = BenchTools(directory: directory, sources: root)
        let gtk = try session.runChecked("pkg-config", ["--cflags", "--libs", "gtk4"]).output
            .split(separator: " ").map(String.init)
        let bench = root.appendingPathComponent("Benchmarks")
        let jobs: [(output: String, source: URL, libraries: [String])] = [
            (tools.textview, bench.appendingPathComponent("reference/textview.c"), gtk),
            (tools.window, bench.appendingPathComponent("reference/window.c"), gtk),
            (tools.meter, bench.appendingPathComponent("meter/paint-meter.c"), ["-lX11", "-lXdamage", "-lXtst", "-lXfixes"]),
        ]
        for job in jobs where !upToDate(job.output, source: job.source.path) {
            try session.runChecked("cc", cflags + [job.source.path, "-o", job.output] + job.libraries,
                                   timeout: .seconds(180))
        }
        return tools
    }

    static func upToDate(_ output: String, source: String) -> Bool {
        let fm = FileManager.default
        guard let built = (try? fm.attributesOfItem(atPath: output))?[.modificationDate] as? Date,
              let edited = (try? fm.attributesOfItem(atPath: source))?[.modificationDate] as? Date else { return false }
        return built >= edited
    }
}

/// A private X session for measuring paint latency from outside the programs: Xvfb, D-Bus,
/// optionally ibus-daemon with anthy, GTK settings with the caret blink off (so the blink
/// never paints), and the environment both the composer and the references run with: the
/// same GDK backend (x11), GSK renderer and input method module.
///
///     let bench = try BenchSession(name: "bench", inputMethod: .gtkSimple, tools: tools)
///     defer { bench.stop() }
///     let app = try bench.start([tools.textview])
///     let keys = try bench.type(["a", "b"], window: app.window)
public final class BenchSession: @unchecked Sendable {
    public enum InputMethod: String, Sendable {
        /// GTK's built-in GtkIMContextSimple, no daemon.
        case gtkSimple
        /// ibus-daemon with ibus-anthy (hiragana) as the global engine.
        case ibusAnthy
    }

    public let session: TestSession
    public let inputMethod: InputMethod
    public let tools: BenchTools
    public let renderer: String
    public let ibus: IBus?
    /// The environment of the measured programs (on top of the session's).
    public let appEnvironment: [String: String]
    /// Whether `stop()` stops `session` (not when it is another's: `init(sharing:)`).
    private let ownsSession: Bool

    /// The meter in a session another harness made and stops (`PeerSession`'s: the
    /// composer measured beside another app, with the same input method): programs
    /// start with `environment` on top of the session's.
    public init(sharing session: TestSession, inputMethod: InputMethod, ibus: IBus?,
                environment: [String: String], tools: BenchTools) throws {
        for tool in tools.all where !FileManager.default.isExecutableFile(atPath: tool) {
            throw HarnessError("\(tool) is missing: build it first (BenchTools.build or make bench)")
        }
        self.session = session
        self.inputMethod = inputMethod
        self.ibus = ibus
        self.tools = tools
        renderer = environment["GSK_RENDERER"] ?? ""
        appEnvironment = environment
        ownsSession = false
    }

    /// - Parameter renderer: GSK_RENDERER for every program ("gl", "cairo", …); "" leaves GTK's choice.
    public init(name: String, inputMethod: InputMethod, tools: BenchTools, renderer: String = "gl") throws {
        try Prerequisites.require(Prerequisites.x11 + (inputMethod == .ibusAnthy ? Prerequisites.ibus : []))
        if inputMethod == .ibusAnthy { try Prerequisites.requireIBusEngine("anthy") }
        for tool in tools.all where !FileManager.default.isExecutableFile(atPath: tool) {
            throw HarnessError("\(tool) is missing: build it first (BenchTools.build or make bench)")
        }
        self.inputMethod = inputMethod
        self.tools = tools
        self.renderer = renderer
        ownsSession = true
        let session = try TestSession(name: name)
        self.session = session
        do {
            let gtkConfig = session.configHome.appendingPathComponent("gtk-4.0", isDirectory: true)
            try FileManager.default.createDirectory(at: gtkConfig, withIntermediateDirectories: true)
            try "[Settings]\ngtk-cursor-blink=false\n".write(to: gtkConfig.appendingPathComponent("settings.ini"),
                                                              atomically: true, encoding: .utf8)
            _ = try Xvfb.start(in: session)
            _ = try DBusSession.start(in: session)
            var env = ["GDK_BACKEND": "x11"]
            if !renderer.isEmpty { env["GSK_RENDERER"] = renderer }
            switch inputMethod {
            case .gtkSimple:
                env["GTK_IM_MODULE"] = "gtk-im-context-simple"
                ibus = nil
            case .ibusAnthy:
                env["GTK_IM_MODULE"] = "ibus"
                env["XMODIFIERS"] = "@im=ibus"
                let ibus = try IBus.startAnthy(session, selectEngine: true)
                self.ibus = ibus
            }
            appEnvironment = env
        } catch {
            session.markFailed()
            session.stop()
            throw error
        }
    }

    /// Stops the session, when it is this bench's own.
    public func stop() { if ownsSession { session.stop() } }

    // MARK: the meter

    /// One program started by `paint-meter start`, shown.
    public final class App: @unchecked Sendable {
        public let meter: AppProcess
        public let pid: Int32
        public let window: UInt
        /// From the start (fork) to the map of its window, and to the first damage after it.
        public let mapMicroseconds: Int
        public let firstFrameMicroseconds: Int
        /// VmRSS when the first frame was seen.
        public let rssKiB: Int

        init(meter: AppProcess, line: [String: Any]) throws {
            self.meter = meter
            guard let pid = line["pid"] as? Int, let window = line["window"] as? Int,
                  let map = line["map_us"] as? Int, let frame = line["first_frame_us"] as? Int,
                  let rss = line["rss_kb"] as? Int else {
                throw HarnessError("paint-meter start: unexpected line \(line)")
            }
            self.pid = Int32(pid)
            self.window = UInt(window)
            mapMicroseconds = map
            firstFrameMicroseconds = frame
            rssKiB = rss
        }

        /// The program's own output (the meter passes its stdout and stderr on to its stderr).
        public var output: String { meter.stderr }

        /// Ends the program (SIGTERM through the meter) and returns its exit status.
        @discardableResult
        public func stop(timeout: Duration = .seconds(20)) throws -> Int32 {
            meter.terminate(signal: SIGTERM)
            try meter.waitForExit(timeout: timeout)
            let lines = BenchSession.jsonLines(meter.stdout)
            guard let exit = lines.last(where: { $0["type"] as? String == "exit" }),
                  let status = exit["status"] as? Int else {
                throw HarnessError("paint-meter start reported no exit of pid \(pid)\n" + meter.diagnostics())
            }
            return Int32(status)
        }
    }

    /// Starts `command` (executable and arguments) under `paint-meter start` and waits for
    /// its first frame.
    public func start(_ command: [String], environment: [String: String] = [:],
                      timeout: Duration = .seconds(90)) throws -> App {
        var env = appEnvironment
        env.merge(environment) { _, new in new }
        let name = "meter-start-" + (command.first.map { ($0 as NSString).lastPathComponent } ?? "app")
        let meter = try session.launch(name, executable: tools.meter,
                                       arguments: ["start", "--timeout-ms", String(Self.milliseconds(timeout)), "--"] + command,
                                       environment: env)
        let line = try Wait.until("the first frame of \(command.first ?? "?")", timeout: timeout + .seconds(5),
                                  diagnostics: { meter.diagnostics() },
                                  failFast: {
                                      if !meter.isRunning {
                                          throw self.session.failure("paint-meter start ended before a first frame\n"
                                              + "stdout: \(meter.stdout)\n" + meter.diagnostics())
                                      }
                                  }) { () -> [String: Any]? in
            Self.jsonLines(meter.stdout).first { $0["type"] as? String == "start" }
        }
        return try App(meter: meter, line: line)
    }

    /// One measured key.
    public struct Key: Sendable {
        public let key: String
        public let warmup: Bool
        /// From the XTest press to the first damage of the window; nil: no paint.
        public let latencyMicroseconds: Int?
        /// To the last damage of the burst the key caused.
        public let lastMicroseconds: Int?
        public let frames: Int
        /// The pixels the burst's damage rectangles cover (overlaps counted twice).
        public let damagedPixels: Int
        public let quietBefore: Bool
    }

    /// The whole process's CPU over a run's measured keys, every thread.
    public struct KeyCPU: Sendable {
        public let measuredKeys: Int
        /// The process's CPU clock over the keys: every thread's run time, exact, those that
        /// ended in between included (a per-thread sum from /proc missed them).
        public let nanoseconds: Int
        /// utime + stime of the process (clock ticks; exited threads included).
        public let ticks: Int
        public let wakeups: Int
        public var nanosecondsPerKey: Double { measuredKeys > 0 ? Double(nanoseconds) / Double(measuredKeys) : 0 }
    }

    /// The meter's whole answer for a run of keys.
    public struct KeyRun: Sendable {
        public let keys: [Key]
        public let readyQuiet: Bool
        /// With a pid: the process's CPU over the measured keys.
        public let cpu: KeyCPU?
        public var measured: [Key] { keys.filter { !$0.warmup } }
        public var missed: Int { measured.filter { $0.latencyMicroseconds == nil }.count }
        /// The measured keys' samples (µs, frames, pixels), for the keys that painted.
        public var latencies: [Double] { measured.compactMap { $0.latencyMicroseconds.map(Double.init) } }
        public var frames: [Double] { measured.filter { $0.latencyMicroseconds != nil }.map { Double($0.frames) } }
        public var damagedPixels: [Double] { measured.filter { $0.latencyMicroseconds != nil }.map { Double($0.damagedPixels) } }
    }

    /// `paint-meter keys`: focuses `window`, waits until it is quiet (no damage; with `pid`,
    /// no CPU either), then types `warmup` and `keys` one at a time, each after the previous
    /// one's paint has ended. `keysQuietMilliseconds`: how long it must be quiet before the
    /// first measured key (default `quietMilliseconds`; see `paint-meter`'s --keys-quiet-ms).
    public func type(_ keys: [String], warmup: [String] = [], window: UInt, pid: Int32? = nil,
                     quietMilliseconds: Int = 80, keysQuietMilliseconds: Int? = nil,
                     timeout: Duration? = nil) throws -> KeyRun {
        var arguments = ["keys", "--window", String(window), "--keys", keys.joined(separator: " "),
                         "--quiet-ms", String(quietMilliseconds)]
        if let keysQuietMilliseconds { arguments += ["--keys-quiet-ms", String(keysQuietMilliseconds)] }
        if !warmup.isEmpty { arguments += ["--warmup", warmup.joined(separator: " ")] }
        if let pid { arguments += ["--pid", String(pid)] }
        let limit = timeout ?? .seconds(90) + .seconds(6) * (keys.count + warmup.count)
        let result = try session.run(tools.meter, arguments, timeout: limit)
        let lines = Self.jsonLines(result.stdout)
        guard result.succeeded, lines.contains(where: { $0["type"] as? String == "done" }) else {
            throw session.failure("paint-meter keys failed (status \(result.status))\nstdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        }
        let measured = lines.filter { $0["type"] as? String == "key" }.map { line in
            Key(key: line["key"] as? String ?? "?", warmup: line["warmup"] as? Bool ?? false,
                latencyMicroseconds: line["latency_us"] as? Int, lastMicroseconds: line["last_us"] as? Int,
                frames: line["frames"] as? Int ?? 0, damagedPixels: line["area"] as? Int ?? 0,
                quietBefore: line["quiet_before"] as? Bool ?? true)
        }
        let ready = lines.first { $0["type"] as? String == "ready" }?["quiet"] as? Bool ?? false
        let cpu = lines.first { $0["type"] as? String == "cpu" }.map { line in
            KeyCPU(measuredKeys: line["measured"] as? Int ?? 0, nanoseconds: line["cpu_ns"] as? Int ?? 0,
                   ticks: line["cpu_ticks"] as? Int ?? 0, wakeups: line["wakeups"] as? Int ?? 0)
        }
        return KeyRun(keys: measured, readyQuiet: ready, cpu: cpu)
    }

    /// What `paint-meter idle` saw over its window.
    public struct Idle: @unchecked Sendable {
        public let seconds: Double
        /// utime + stime (clock ticks, all threads) as seconds.
        public let cpuSeconds: Double
        /// Exact run time of all threads (the process's CPU clock), seconds.
        public let runSeconds: Double
        public let voluntary: Int
        public let involuntary: Int
        public var wakeups: Int { voluntary + involuntary }
        public let frames: Int
        public let threads: Int
        public let rssKiB: Int
        /// The threads that woke up ("name/tid" → wake-ups), most first.
        public let wakers: [(thread: String, count: Int)]
    }

    /// `paint-meter idle`: focuses the window, waits until quiet, then watches `seconds`.
    public func idle(window: UInt, pid: Int32, seconds: Int) throws -> Idle {
        let result = try session.run(tools.meter, ["idle", "--window", String(window), "--pid", String(pid),
                                                   "--ms", String(seconds * 1000)],
                                     timeout: .seconds(seconds + 90))
        guard result.succeeded,
              let line = Self.jsonLines(result.stdout).first(where: { $0["type"] as? String == "idle" }) else {
            throw session.failure("paint-meter idle failed (status \(result.status))\nstdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        }
        func int(_ key: String) -> Int { line[key] as? Int ?? 0 }
        return Idle(seconds: Double(int("elapsed_us")) / 1e6, cpuSeconds: line["cpu_s"] as? Double ?? Double(int("cpu_s")),
                    runSeconds: Double(int("runtime_ns")) / 1e9, voluntary: int("voluntary"),
                    involuntary: int("involuntary"), frames: int("frames"), threads: int("threads"),
                    rssKiB: int("rss_kb"),
                    wakers: ((line["wakers"] as? [String: Any]) ?? [:]).map { ($0.key, $0.value as? Int ?? 0) }
                        .sorted { $0.1 > $1.1 })
    }

    /// The program's editable text widget (the composer's input, the plain GtkTextView),
    /// read through AT-SPI (`Benchmarks/meter/text-size.py`) once its size holds: width and
    /// height (logical px) and, with `lines`, the character offsets where its display lines
    /// start (where the text wraps), and the text's length in characters.
    public struct TextGeometry: Sendable, Equatable {
        public let width: Int
        public let height: Int
        public let lineStarts: [Int]
        public let characters: Int
    }

    public func textGeometry(pid: Int32, lines: Bool = false) throws -> TextGeometry {
        let result = try session.run("/usr/bin/python3",
                                     [tools.textSizeProbe, String(pid), "--timeout", "30"] + (lines ? ["--lines"] : []),
                                     timeout: .seconds(45))
        guard result.succeeded, let line = Self.jsonLines(result.stdout).first,
              let width = line["width"] as? Int, let height = line["height"] as? Int else {
            throw session.failure("text-size.py failed (status \(result.status))\nstdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        }
        return TextGeometry(width: width, height: height, lineStarts: line["line_starts"] as? [Int] ?? [],
                            characters: line["characters"] as? Int ?? -1)
    }

    /// Another application owning the CLIPBOARD with `file`'s text (`TestSession.ownClipboard`).
    public func ownClipboard(_ file: URL) throws -> AppProcess { try session.ownClipboard(file) }

    /// What `paint-meter paste` saw: Control+V, then the process until it settled.
    public struct Paste: Sendable {
        /// From the key to the first damage, to the last, and to the start of the quiet
        /// that followed (no damage, under 5% of a CPU), µs.
        public let firstMicroseconds: Int
        public let lastMicroseconds: Int
        public let settledMicroseconds: Int
        /// The whole process's CPU from the key to the quiet (its CPU clock, every thread), ns.
        public let cpuNanoseconds: Int
        public let rssKiB: Int
    }

    /// `paint-meter paste`: focuses `window`, waits until it is quiet, sends Control+V (the
    /// session's CLIPBOARD owner serves the text) and waits until the process settled.
    public func paste(window: UInt, pid: Int32, timeout: Duration = .seconds(600)) throws -> Paste {
        let result = try session.run(tools.meter, ["paste", "--window", String(window), "--pid", String(pid),
                                                   "--settle-max-ms", String(Self.milliseconds(timeout))],
                                     timeout: timeout + .seconds(90))
        guard result.succeeded,
              let line = Self.jsonLines(result.stdout).first(where: { $0["type"] as? String == "paste" }) else {
            throw session.failure("paint-meter paste failed (status \(result.status))\nstdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        }
        func int(_ key: String) -> Int { line[key] as? Int ?? 0 }
        return Paste(firstMicroseconds: int("first_us"), lastMicroseconds: int("last_us"),
                     settledMicroseconds: int("settled_us"), cpuNanoseconds: int("cpu_ns"), rssKiB: int("rss_kb"))
    }

    // MARK: IBus

    /// Waits until the input method engine is attached to the focused window, with keys
    /// and paints only (nothing read from inside the program, so it works the same for
    /// every program): `a` then Escape. With anthy attached, `a` shows the preedit あ and
    /// Escape cancels it, a paint; without, `a` is inserted as is and Escape changes
    /// nothing, no paint; then BackSpace removes the `a` and the probe is tried again.
    /// `ibus engine` answers before the engine is attached to a new input context.
    public func waitForEngine(window: UInt, pid: Int32, attempts: Int = 10) throws {
        guard ibus != nil else { return }
        for _ in 0..<attempts {
            let probe = try type(["a", "Escape"], window: window, pid: pid)
            if probe.keys.count == 2, probe.keys[1].latencyMicroseconds != nil { return }
            _ = try type(["BackSpace"], window: window, pid: pid)
        }
        throw session.failure("the input method never answered the probe (a, Escape) in window \(window)")
    }

    // MARK: output

    /// GLib warnings and criticals in `output`, except the known GTK 4.8 one (a GtkTextView's
    /// scrollbar gizmo, GNOME/gtk!5222), which the plain C GtkTextView prints as well.
    public static func glibProblems(in output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { line in
            (line.contains("-WARNING **") || line.contains("-CRITICAL **"))
                && !(line.contains("Trying to snapshot GtkGizmo") && line.contains("without a current allocation"))
        }
    }

    static func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    static func milliseconds(_ d: Duration) -> Int {
        let c = d.components
        return Int(c.seconds) * 1000 + Int(c.attoseconds / 1_000_000_000_000_000)
    }
}
