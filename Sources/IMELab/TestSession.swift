import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A private, throw-away desktop session for one test: temp dir with its own HOME and XDG
/// dirs, the environment for child processes, and every process started for it.
///
///     let session = try TestSession(name: "anthy")
///     defer { session.stop() }
///
/// `stop()` kills everything it started, in reverse order (then any leftover descendant that
/// still carries this session's marker variable), and is safe to call more than once.
/// The directory (under `$TMPDIR`, default /tmp) is always removed by `stop()`, unless
/// `keepArtifacts` is true or IME_HARNESS_KEEP=1 is set: nothing is left in /tmp, on
/// success or failure. When a harness error was raised for the session, its logs are first
/// copied to `.build/harness-failures/<id>/` (if the working directory has a `.build`).
/// A process that ends without stopping its sessions (a crash) leaves nothing behind
/// either: `SessionReaper`'s watchdog ends them.
public final class TestSession: @unchecked Sendable {
    public let id: String
    public let directory: URL
    public let home: URL
    public let configHome: URL
    public let cacheHome: URL
    public let dataHome: URL
    public let runtimeDir: URL
    /// Where child stdout/stderr logs go.
    public let logDirectory: URL

    private let lock = NSLock()
    private var _display: String?
    private var _dbusAddress: String?
    private var _extraEnvironment: [String: String] = [:]
    private var processes: [AppProcess] = []
    private var stopHooks: [() -> Void] = []
    /// Set when `stop()` begins: no process is launched from then on.
    private var stopped = false
    /// Set when `stop()` has run its hooks (which may run commands: `ibus exit`): from then
    /// on no command runs and no folder is made, the directory is about to go.
    private var closed = false
    private var _failed = false
    public var keepArtifacts = ProcessInfo.processInfo.environment["IME_HARNESS_KEEP"] == "1"

    /// Environment variable set in every child; used by `stop()` to find stray descendants.
    public static let markerVariable = "IME_HARNESS_SESSION"

    /// Whether every child runs as the unprivileged session user (`WaylandSession.sessionUID`,
    /// nobody) instead of the test's own uid: for programs that refuse root (mozc_server).
    /// Every process of the session then runs as that user: IBus lets only its own user
    /// connect, and Mozc's engine and server check each other's uid.
    public let unprivileged: Bool

    /// - Parameter unprivileged: run every child as the session user (see `unprivileged`);
    ///   only when the tests run as root (as another user the children run as that user).
    public init(name: String = "session", unprivileged: Bool = false) throws {
        self.unprivileged = unprivileged && getuid() == 0
        let safe = String(name.map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(24))
        var template = Array("\(Self.temporaryRoot)/ime-harness-\(safe)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw HarnessError("mkdtemp failed: errno \(errno)")
        }
        let root = String(cString: made)
        directory = URL(fileURLWithPath: root, isDirectory: true)
        id = (root as NSString).lastPathComponent
        home = directory.appendingPathComponent("home", isDirectory: true)
        configHome = directory.appendingPathComponent("config", isDirectory: true)
        cacheHome = directory.appendingPathComponent("cache", isDirectory: true)
        dataHome = directory.appendingPathComponent("data", isDirectory: true)
        runtimeDir = directory.appendingPathComponent("runtime", isDirectory: true)
        logDirectory = directory.appendingPathComponent("logs", isDirectory: true)
        // Listed before anything is made inside: a Ctrl+C from here on stops this session
        // too, and waits (on `lock`) until its folders are made, so it removes them all.
        Self.registry.withLock { $0[ObjectIdentifier(self)] = WeakSession(session: self) }
        SessionReaper.register(id: id, directory: root)
        _ = Self.interruptHandlers
        try lock.withLock {
            for dir in [home, configHome, cacheHome, dataHome, runtimeDir, logDirectory] {
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            }
        }
        if self.unprivileged { try handOver() }
    }

    /// Gives the session directory tree to the session user (for `unprivileged`; root keeps
    /// access anyway). Files the harness writes as root (engine configuration) are handed
    /// over again before each launch, so the programs may rewrite them.
    func handOver() throws {
        let fm = FileManager.default
        var paths = [directory.path]
        if let walker = fm.enumerator(atPath: directory.path) {
            for case let relative as String in walker {
                paths.append(directory.appendingPathComponent(relative).path)
            }
        }
        // A file the session's programs removed since the listing (mozc_server's
        // `.history.db.tmp`, renamed as it saves) has nothing left to hand over.
        for path in paths where lchown(path, WaylandSession.sessionUID, WaylandSession.sessionGID) != 0 && errno != ENOENT {
            throw HarnessError("chown \(path) to the session user failed: \(String(cString: strerror(errno)))")
        }
    }

    /// The executable and arguments that start `executable arguments` with `environment`:
    /// as they are, or through `setpriv … env -i` as the session user (`unprivileged`).
    private func command(_ executable: String, _ arguments: [String],
                         environment: [String: String]) throws -> (String, [String]) {
        guard unprivileged else { return (executable, arguments) }
        let resolved = try AppProcess.resolve(executable, environment: environment)
        return ("setpriv", WaylandSession.asSessionUser(resolved, arguments, environment: environment))
    }

    private struct WeakSession { weak var session: TestSession? }
    private static let registry = Mutex<[ObjectIdentifier: WeakSession]>([:])

    /// Stops every session of this process that is still running: for a Ctrl+C or SIGTERM
    /// handler, which cannot know which sessions are half-way through being set up.
    public static func stopAll() {
        let live = registry.withLock { sessions in sessions.values.compactMap(\.session) }
        for session in live { session.stop() }
    }

    /// Held by whoever ends the process: the interrupt handler stopping the sessions must
    /// not be cut short by the main thread exiting meanwhile.
    private static let exitLock = NSLock()

    /// Ends the process with `status`, after an interrupt handler that is stopping the
    /// sessions has finished (use instead of `exit` in programs that run sessions).
    public static func exitProcess(_ status: Int32) -> Never {
        exitLock.lock()
        exit(status)
    }

    /// Ctrl+C (SIGINT) and SIGTERM stop every live session, then end the process with
    /// 128 + the signal: its children run in process groups of their own, so the terminal's
    /// Ctrl+C never reaches them. Installed with the first session of a process.
    nonisolated(unsafe) private static let interruptHandlers: [DispatchSourceSignal] = [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            exitLock.lock()
            FileHandle.standardError.write(Data("interrupted: stopping the test sessions\n".utf8))
            stopAll()
            exit(128 + number)
        }
        source.resume()
        return source
    }

    deinit {
        stop()
        let key = ObjectIdentifier(self)
        Self.registry.withLock { _ = $0.removeValue(forKey: key) }
    }

    /// `$TMPDIR` when set (a test can give a run its own, and then check it is empty), else /tmp.
    static var temporaryRoot: String {
        let root = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        return root.isEmpty ? "/tmp" : (root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root)
    }

    // MARK: state

    /// ":N" once an X server was started for this session.
    public var display: String? {
        get { lock.withLock { _display } }
        set { lock.withLock { _display = newValue } }
    }
    public var dbusAddress: String? {
        get { lock.withLock { _dbusAddress } }
        set { lock.withLock { _dbusAddress = newValue } }
    }
    /// Added to (and overriding) `environment`.
    public var extraEnvironment: [String: String] {
        get { lock.withLock { _extraEnvironment } }
        set { lock.withLock { _extraEnvironment = newValue } }
    }
    /// True once a harness error was reported for this session (keeps the directory).
    /// A test that provokes an error on purpose may reset it.
    public var failed: Bool {
        get { lock.withLock { _failed } }
        set { lock.withLock { _failed = newValue } }
    }
    public func markFailed() { lock.withLock { _failed = true } }

    /// The environment for every child process.
    ///
    /// Starts from the test's own environment minus anything that would reach the real
    /// desktop (DISPLAY, WAYLAND_DISPLAY, the real session bus, IM variables), then sets
    /// PATH=/usr/bin:/bin:<original PATH> (the pyenv python3 has no `gi`, which silently
    /// breaks ibus-anthy), GSETTINGS_BACKEND=keyfile, LANG=C.UTF-8, NO_AT_BRIDGE=1, the
    /// private HOME/XDG dirs, DISPLAY and DBUS_SESSION_BUS_ADDRESS when started.
    public var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XAUTHORITY",
                    "GTK_IM_MODULE", "QT_IM_MODULE", "XMODIFIERS", "SDL_IM_MODULE", "IBUS_ADDRESS",
                    "GDK_BACKEND", "LC_ALL", "LANGUAGE", "XDG_SESSION_TYPE",
                    "GTK_MODULES", "DESKTOP_SESSION", "XDG_CURRENT_DESKTOP"] {
            env.removeValue(forKey: key)
        }
        let original = ProcessInfo.processInfo.environment["PATH"] ?? ""
        env["PATH"] = "/usr/bin:/bin" + (original.isEmpty ? "" : ":" + original)
        env["GSETTINGS_BACKEND"] = "keyfile"
        env["LANG"] = "C.UTF-8"
        env["NO_AT_BRIDGE"] = "1"
        env["HOME"] = home.path
        env["XDG_CONFIG_HOME"] = configHome.path
        env["XDG_CACHE_HOME"] = cacheHome.path
        env["XDG_DATA_HOME"] = dataHome.path
        env["XDG_RUNTIME_DIR"] = runtimeDir.path
        env[Self.markerVariable] = id
        let (display, bus, extra) = lock.withLock { (_display, _dbusAddress, _extraEnvironment) }
        if let display { env["DISPLAY"] = display }
        if let bus { env["DBUS_SESSION_BUS_ADDRESS"] = bus }
        env.merge(extra) { _, new in new }
        return env
    }

    // MARK: processes

    /// Starts a long-running child with the session environment (plus `environment`);
    /// it is stopped by `stop()`.
    public func launch(_ name: String, executable: String, arguments: [String] = [],
                       environment extra: [String: String] = [:]) throws -> AppProcess {
        try refuseIfStopped("launch \(name)")
        var env = environment
        env.merge(extra) { _, new in new }
        do {
            if unprivileged { try handOver() }
            let (program, args) = try command(executable, arguments, environment: env)
            return try lock.withLock {
                // Checked and started under the lock `stop()` takes first: a process is
                // either refused or on the list that `stop()` stops, never started between.
                guard !stopped else { throw HarnessError("session \(id) is already stopped; cannot launch \(name)") }
                let process = try AppProcess(name: name, executable: program, arguments: args,
                                             environment: env, logDirectory: logDirectory)
                processes.append(process)
                return process
            }
        } catch {
            markFailed()
            throw error
        }
    }

    private func refuseIfStopped(_ what: String) throws {
        try lock.withLock {
            if stopped { throw HarnessError("session \(id) is already stopped; cannot \(what)") }
        }
    }

    /// Makes `url` (and the folders on its way) inside the session directory, unless the
    /// session is stopped: a folder made after `stop()` removed the directory would bring
    /// the directory back (a Ctrl+C handler stops sessions while their owner goes on).
    public func makeDirectory(_ url: URL) throws {
        try lock.withLock {
            guard !closed else { throw HarnessError("session \(id) is already stopped; cannot make \(url.path)") }
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
    }

    /// Runs a short command to completion with the session environment. Throws on timeout
    /// (killing it) or if it cannot be started; a non-zero status is returned, not thrown.
    @discardableResult
    public func run(_ tool: String, _ arguments: [String] = [],
                    environment extra: [String: String] = [:],
                    timeout: Duration = .seconds(10)) throws -> CommandResult {
        var env = environment
        env.merge(extra) { _, new in new }
        let dir = logDirectory.appendingPathComponent("commands", isDirectory: true)
        let (program, args) = try command(tool, arguments, environment: env)
        let p = try lock.withLock {
            // As in `launch`: a command started before `stop()` ran its hooks carries the
            // session marker and is killed with the stragglers; after, none starts (nor
            // remakes `dir`). The hooks themselves may run commands (`ibus exit`).
            guard !closed else {
                throw HarnessError("session \(id) is already stopped; cannot run \(tool)")
            }
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            return try AppProcess(name: (tool as NSString).lastPathComponent, executable: program,
                                  arguments: args, environment: env, logDirectory: dir)
        }
        do {
            try p.waitForExit(timeout: timeout)
        } catch {
            p.stop(grace: .milliseconds(500))
            markFailed()
            throw HarnessError("command timed out after \(Wait.format(timeout)): \(tool) \(arguments.joined(separator: " "))\n"
                + p.diagnostics())
        }
        let result = CommandResult(status: p.exitStatus ?? -1, stdout: p.stdout, stderr: p.stderr)
        try? FileManager.default.removeItem(at: p.stdoutURL)
        try? FileManager.default.removeItem(at: p.stderrURL)
        return result
    }

    /// Like `run` but throws (with stderr) unless the command exits 0.
    @discardableResult
    public func runChecked(_ tool: String, _ arguments: [String] = [],
                           environment extra: [String: String] = [:],
                           timeout: Duration = .seconds(10)) throws -> CommandResult {
        let r = try run(tool, arguments, environment: extra, timeout: timeout)
        guard r.succeeded else {
            markFailed()
            throw HarnessError("`\(tool) \(arguments.joined(separator: " "))` failed with status \(r.status)\n"
                + "stdout:\n\(indent(r.stdout.isEmpty ? "<empty>" : r.stdout))\n"
                + "stderr:\n\(indent(r.stderr.isEmpty ? "<empty>" : r.stderr))")
        }
        return r
    }

    /// Runs `body` during `stop()`, before the processes are killed (e.g. `ibus exit`).
    public func onStop(_ body: @escaping () -> Void) {
        lock.withLock { stopHooks.append(body) }
    }

    /// Records a failure (keeps the session directory) and returns the error to throw.
    public func failure(_ message: String) -> HarnessError {
        markFailed()
        return HarnessError(message + "\n(session logs: \(Self.failureArtifacts.appendingPathComponent(id).path))")
    }

    /// Stops everything this session started, newest first; idempotent.
    public func stop() {
        let state: ([() -> Void], [AppProcess])? = lock.withLock {
            if stopped { return nil }
            stopped = true
            let r = (stopHooks, processes)
            stopHooks = []; processes = []
            return r
        }
        guard let (hooks, procs) = state else { return }
        // A child that crashed before the session went down: its logs are the evidence
        // (whatever the test made of it), so they are kept.
        if procs.contains(where: \.crashed) { markFailed() }
        for hook in hooks.reversed() { hook() }
        lock.withLock { closed = true }
        for p in procs.reversed() { p.stop() }
        killStragglers()
        if failed { saveLogs() }
        if !keepArtifacts {
            try? FileManager.default.removeItem(at: directory)
        }
        SessionReaper.unregister(id: id)
    }

    /// Where the logs of failed sessions are kept: inside the build directory, not /tmp.
    public static var failureArtifacts: URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".build/harness-failures", isDirectory: true)
    }

    /// Copies the session's logs (children's stdout/stderr) and the files at its top level
    /// (the trace, screenshots) next to the build, for a failure to be read after its
    /// session directory is gone.
    private func saveLogs() {
        let fm = FileManager.default
        guard fm.fileExists(atPath: Self.failureArtifacts.deletingLastPathComponent().path) else { return }
        let target = Self.failureArtifacts.appendingPathComponent(id, isDirectory: true)
        try? fm.createDirectory(at: Self.failureArtifacts, withIntermediateDirectories: true)
        try? fm.removeItem(at: target)
        try? fm.copyItem(at: logDirectory, to: target)
        let topLevel = (try? fm.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.isRegularFileKey])) ?? []
        for file in topLevel where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            try? fm.copyItem(at: file, to: target.appendingPathComponent(file.lastPathComponent))
        }
    }

    /// SIGKILLs any process whose environment carries this session's marker (descendants
    /// that escaped their process group, e.g. D-Bus activated services).
    ///
    /// Scans again until a scan finds none alive: a service being activated while the
    /// session goes down (at-spi2-registryd on the accessibility bus) can be forked after a
    /// scan and would otherwise outlive the session. A killed process drops out of the scan
    /// at once (a zombie has an empty environment).
    private func killStragglers() {
        for _ in 0..<200 {
            let alive = processesCarryingMarker()
            guard !alive.isEmpty else { return }
            for pid in alive { _ = kill(pid, SIGKILL) }
            usleep(10_000)
        }
    }

    /// Live processes (not this one) whose environment carries this session's marker.
    private func processesCarryingMarker() -> [Int32] {
        let marker = Array("\(Self.markerVariable)=\(id)".utf8)
        let me = getpid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), pid != me, pid > 1,
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                  data.split(separator: 0).contains(where: { $0.elementsEqual(marker) }) else { return nil }
            return pid
        }
    }
}

extension TestSession {
    /// Another application owning the CLIPBOARD with `file`'s text, as a terminal or an editor
    /// would (xclip in the foreground), until the session stops or the owner is stopped.
    public func ownClipboard(_ file: URL) throws -> AppProcess {
        try Prerequisites.require(["xclip"])
        let owner = try launch("xclip", executable: "/usr/bin/xclip",
                               arguments: ["-quiet", "-selection", "clipboard", "-i", file.path])
        try Wait.until("the clipboard owned by xclip", timeout: .seconds(60), interval: .milliseconds(100),
                       diagnostics: { owner.diagnostics() }) {
            let targets = try? run("/usr/bin/xclip", ["-o", "-selection", "clipboard", "-t", "TARGETS"], timeout: .seconds(5))
            return targets.map { $0.succeeded && $0.stdout.contains("UTF8_STRING") } ?? false
        }
        return owner
    }
}
