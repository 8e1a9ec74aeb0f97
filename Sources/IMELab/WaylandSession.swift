import Foundation
import ComposerCore
#if canImport(Glibc)
import Glibc
#endif

/// A real Wayland desktop with an on-screen keyboard, for one test: a private D-Bus session
/// bus, headless sway (wlroots, pixman renderer, one 720x1280 output), squeekboard (the
/// `sm.puri.OSK0` keyboard, shown through text-input-v3 / input-method-v2) and the app with
/// `GDK_BACKEND=wayland GTK_IM_MODULE=wayland`.
///
///     let wl = try WaylandSession.start(name: "osk")
///     defer { wl.stop() }
///     try wl.waitForOSK(visible: true)
///     let (w, h) = try wl.windowSize()
///
/// sway refuses to run as root, so every process of the session runs as an unprivileged
/// uid (`sessionUID`, nobody) from the root test process: each is spawned as
/// `setpriv --reuid --regid --clear-groups env -i <session env> program …` (setpriv and env
/// exec, so the `AppProcess` pid is the program's own pid and its process group). Commands
/// that talk to the session (`swaymsg`, `gdbus`, `gsettings`, `wtype`, `grim`) run the same
/// way, with `WAYLAND_DISPLAY`, `SWAYSOCK` and `DBUS_SESSION_BUS_ADDRESS` set.
///
/// The session directory (a `TestSession`: home, XDG dirs, runtime dir, logs) is owned by
/// that uid; XDG_RUNTIME_DIR is 0700. The app's trace is `<session>/trace.jsonl`.
/// `stop()` SIGTERMs the app (its trace ends with `exit`), then squeekboard, sway and the
/// bus, each by process group, then SIGKILLs anything still carrying the session's marker
/// variable (D-Bus activated helpers such as the AT-SPI bus). Every wait polls a condition.
public final class WaylandSession: @unchecked Sendable {
    /// The unprivileged user the session runs as (nobody/nogroup on Debian).
    public static let sessionUID: UInt32 = 65534
    public static let sessionGID: UInt32 = 65534
    /// Programs the session needs (Debian: sway, squeekboard, grim, wtype, libglib2.0-bin,
    /// util-linux, dbus).
    public static let requiredPrograms = ["sway", "swaymsg", "squeekboard", "grim", "wtype",
                                          "gdbus", "gsettings", "setpriv", "dbus-daemon"]
    /// The app's Wayland app_id (its GApplication id) and window title.
    public static let appID = "io.github.imecomposer.ImeComposer"
    public static let windowTitle = "IME Composer"

    public let session: TestSession
    public let bus: AppProcess
    public let busAddress: String
    public let sway: AppProcess
    /// e.g. "wayland-1" (a socket in the session's XDG_RUNTIME_DIR).
    public let waylandDisplay: String
    /// sway's IPC socket (what `swaymsg` needs).
    public let swaySocket: String
    public let squeekboard: AppProcess
    public let app: AppProcess
    /// The app's `--trace` file; fails fast once the app exited.
    public let trace: TraceLog
    /// The headless output's size in pixels.
    public let outputSize: (width: Int, height: Int)
    /// How long each startup step took, in order (for reports and slow-run diagnosis).
    public private(set) var startupTimings: [(step: String, duration: Duration)] = []

    static let commandInterval: Duration = .milliseconds(100)
    private let lock = NSLock()
    private var stopped = false
    /// Set at the end of init. A throwing init of a fully initialized object still runs
    /// deinit: then `start` (not deinit) stops the session, after marking it failed, so
    /// its directory is kept for diagnosis.
    private var initialized = false

    // MARK: start

    /// Starts bus, sway, squeekboard and the app, and waits until the app's window is mapped
    /// in sway's tree. With `activate` (the default) it then switches to workspace 2 and
    /// back (sway 1.7 only tells a text input about focus on a focus change; without this
    /// the keyboard often never appears), waits for the text view's `focus` in:true that
    /// follows, and for the app's `ready` trace event.
    ///
    /// - Parameters:
    ///   - appArguments: extra arguments for `ime-composer` (after `--trace PATH`).
    ///   - appEnvironment: added to (and overriding) the app's environment
    ///     (`GDK_BACKEND=wayland`, `GTK_IM_MODULE=wayland`, the session variables).
    ///   - outputSize: the headless output's resolution.
    public static func start(name: String = "wayland", appArguments: [String] = [],
                             appEnvironment: [String: String] = [:],
                             outputSize: (width: Int, height: Int) = (720, 1280),
                             activate: Bool = true,
                             timeout: Duration = .seconds(60)) throws -> WaylandSession {
        try Prerequisites.require(requiredPrograms)
        let session = try TestSession(name: "wl-" + name)
        do {
            return try WaylandSession(session: session, appArguments: appArguments,
                                      appEnvironment: appEnvironment, outputSize: outputSize,
                                      activate: activate, timeout: timeout)
        } catch {
            session.markFailed()
            session.stop()
            throw HarnessError("\(error)\n(session logs: \(TestSession.failureArtifacts.appendingPathComponent(session.id).path))")
        }
    }

    private init(session: TestSession, appArguments: [String], appEnvironment: [String: String],
                 outputSize: (width: Int, height: Int), activate: Bool, timeout: Duration) throws {
        self.session = session
        self.outputSize = outputSize
        let clock = ContinuousClock()
        var timings: [(step: String, duration: Duration)] = []
        var mark = clock.now
        func lap(_ step: String) {
            let now = clock.now
            timings.append((step, now - mark))
            mark = now
        }

        // The session directory belongs to the session user; the runtime dir stays 0700.
        try Self.handOver(session)

        // 1. The session bus, 2. sway, headless (`HeadlessSway`).
        let compositor = try HeadlessSway.start(in: session, outputSize: outputSize, timeout: .seconds(20), lap: lap)
        bus = compositor.bus
        busAddress = compositor.busAddress
        sway = compositor.sway
        waylandDisplay = compositor.waylandDisplay
        swaySocket = compositor.swaySocket
        let client = compositor.clientEnvironment
        func run(_ tool: String, _ arguments: [String]) throws -> CommandResult {
            try Self.run(in: session, environment: client, tool, arguments, timeout: .seconds(10))
        }

        // 3. squeekboard, enabled through GSettings (keyfile backend) before it starts.
        let gsettings = try run("gsettings", ["set", "org.gnome.desktop.a11y.applications",
                                              "screen-keyboard-enabled", "true"])
        guard gsettings.succeeded else {
            throw HarnessError("gsettings set … screen-keyboard-enabled true failed: \(gsettings.stderr)")
        }
        let osk = try Self.launch(in: session, "squeekboard", "squeekboard", [], environment: client)
        squeekboard = osk
        try Wait.until("squeekboard to own the bus name sm.puri.OSK0", timeout: .seconds(20),
                       interval: Self.commandInterval,
                       diagnostics: { osk.diagnostics() },
                       failFast: { try Self.requireRunning(osk, "during startup") }) {
            let r = try run("gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus",
                                      "--object-path", "/org/freedesktop/DBus",
                                      "--method", "org.freedesktop.DBus.NameHasOwner", "sm.puri.OSK0"])
            return r.succeeded && r.output.contains("true")
        }
        lap("squeekboard")

        // 4. The app.
        let binary = try Self.binaryForSessionUser(session)
        var env = client
        env["GDK_BACKEND"] = "wayland"
        env["GTK_IM_MODULE"] = "wayland"
        env.merge(ComposerSession.fatalGLibProblems) { _, fatal in fatal }
        env.merge(appEnvironment) { _, new in new }
        let traceURL = session.directory.appendingPathComponent("trace.jsonl")
        let appProcess = try Self.launch(in: session, "ime-composer", binary,
                                         ["--trace", traceURL.path] + appArguments, environment: env)
        app = appProcess
        trace = TraceLog(url: traceURL, watching: appProcess, session: session)
        // From here on every stored property is set.
        let started = try trace.waitFor(event: "start", timeout: .seconds(30))
        guard started["backend"]?.stringValue == "wayland" else {
            throw session.failure("the app did not start on Wayland: \(started)\n" + appProcess.diagnostics())
        }
        lap("app start event")
        try Wait.until("the app's window (\(Self.windowTitle)) to be mapped in sway's tree",
                       timeout: .seconds(30), interval: Self.commandInterval,
                       diagnostics: { trace.diagnostics() },
                       failFast: { try Self.requireRunning(appProcess, "before its window mapped") }) {
            try window() != nil
        }
        lap("window mapped")

        if activate {
            // The toggle takes focus away (focus in:false, if the window had it) and gives
            // it back: wait for the focus in:true that follows it, and for ready.
            let before = trace.entries.count
            try toggleWorkspace()
            try trace.waitFor(event: "focus", timeout: .seconds(30), from: before) { $0["in"]?.boolValue == true }
            try trace.waitFor(event: "ready", timeout: .seconds(30))
            lap("workspace toggle + ready")
        }
        startupTimings = timings
        initialized = true
    }

    /// Hands the session directory tree to the session user (root keeps access anyway).
    static func handOver(_ session: TestSession) throws {
        let fm = FileManager.default
        var paths = [session.directory.path]
        if let walker = fm.enumerator(atPath: session.directory.path) {
            for case let relative as String in walker {
                paths.append(session.directory.appendingPathComponent(relative).path)
            }
        }
        for path in paths where chown(path, sessionUID, sessionGID) != 0 {
            throw HarnessError("chown \(path) to \(sessionUID):\(sessionGID) failed: \(String(cString: strerror(errno)))")
        }
        // The runtime dir must be 0700 and owned by the user (wlroots and GLib check it).
        _ = chmod(session.runtimeDir.path, 0o700)
    }

    /// The app binary, or a copy in the session directory if the session user cannot
    /// reach it (a directory on the way that it may not search, or no execute bit).
    static func binaryForSessionUser(_ session: TestSession) throws -> String {
        let path = try ComposerBinary.path
        if executableBySessionUser(path) { return path }
        let dir = session.directory.appendingPathComponent("bin", isDirectory: true)
        try session.makeDirectory(dir)
        let copy = dir.appendingPathComponent(ComposerBinary.executableName)
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy.path)
        _ = chmod(dir.path, 0o755)
        _ = chmod(copy.path, 0o755)
        return copy.path
    }

    /// Whether uid/gid 65534 (no supplementary groups) may search every directory up to
    /// `path` and execute it.
    static func executableBySessionUser(_ path: String) -> Bool {
        func allows(_ st: stat, _ bit: mode_t) -> Bool {
            // bit is the "other" bit; shift for owner (6) and group (3).
            if st.st_uid == sessionUID { return st.st_mode & (bit << 6) != 0 }
            if st.st_gid == sessionGID { return st.st_mode & (bit << 3) != 0 }
            return st.st_mode & bit != 0
        }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var st = stat()
        guard stat(resolved, &st) == 0, allows(st, S_IXOTH) else { return false }
        var dir = (resolved as NSString).deletingLastPathComponent
        while true {
            guard stat(dir, &st) == 0, allows(st, S_IXOTH) else { return false }
            if dir == "/" || dir.isEmpty { return true }
            dir = (dir as NSString).deletingLastPathComponent
        }
    }

    // MARK: environment and processes

    /// What every session process gets (and nothing else: `env -i`).
    static func baseEnvironment(_ session: TestSession) -> [String: String] {
        [
            "HOME": session.home.path,
            "PATH": "/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": session.runtimeDir.path,
            "XDG_CONFIG_HOME": session.configHome.path,
            "XDG_CACHE_HOME": session.cacheHome.path,
            "XDG_DATA_HOME": session.dataHome.path,
            "GSETTINGS_BACKEND": "keyfile",
            "NO_AT_BRIDGE": "1",
            // Lets TestSession.stop() find helpers that left their process group.
            TestSession.markerVariable: session.id,
        ]
    }

    /// The environment of session clients: the base plus bus, Wayland display and sway IPC.
    public var sessionEnvironment: [String: String] {
        var env = Self.baseEnvironment(session)
        env["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        env["WAYLAND_DISPLAY"] = waylandDisplay
        env["SWAYSOCK"] = swaySocket
        return env
    }

    /// `setpriv … env -i K=V … program args`: the program runs as the session user with
    /// exactly `environment`.
    static func asSessionUser(_ program: String, _ arguments: [String],
                                      environment: [String: String]) -> [String] {
        ["--reuid=\(sessionUID)", "--regid=\(sessionGID)", "--clear-groups", "env", "-i"]
            + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + [program] + arguments
    }

    static func launch(in session: TestSession, _ name: String, _ program: String,
                               _ arguments: [String], environment: [String: String]) throws -> AppProcess {
        let resolved = try AppProcess.resolve(program, environment: ["PATH": "/usr/bin:/bin"])
        return try session.launch(name, executable: "setpriv",
                                  arguments: asSessionUser(resolved, arguments, environment: environment))
    }

    /// Whether some connection owns `name` on the session bus of `environment`.
    static func nameHasOwner(_ name: String, in session: TestSession, environment: [String: String]) throws -> Bool {
        let r = try run(in: session, environment: environment, "dbus-send",
                        ["--session", "--print-reply=literal", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                         "org.freedesktop.DBus.NameHasOwner", "string:\(name)"], timeout: .seconds(10))
        return r.succeeded && r.output.hasSuffix("true")
    }

    static func requireRunning(_ p: AppProcess, _ when: String) throws {
        if !p.isRunning { throw HarnessError("\(p.name) exited \(when)\n" + p.diagnostics()) }
    }

    /// Runs a session client (`swaymsg`, `gdbus`, …) as the session user with
    /// `sessionEnvironment` (plus `environment`). A non-zero status is returned, not thrown.
    @discardableResult
    public func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:],
                    timeout: Duration = .seconds(10)) throws -> CommandResult {
        var env = sessionEnvironment
        env.merge(environment) { _, new in new }
        return try Self.run(in: session, environment: env, tool, arguments, timeout: timeout)
    }

    static func run(in session: TestSession, environment: [String: String], _ tool: String,
                            _ arguments: [String], timeout: Duration) throws -> CommandResult {
        let resolved = try AppProcess.resolve(tool, environment: ["PATH": "/usr/bin:/bin"])
        return try session.run("setpriv", asSessionUser(resolved, arguments, environment: environment),
                               timeout: timeout)
    }

    /// `run`, throwing (with stdout and stderr) unless it exits 0.
    @discardableResult
    public func runChecked(_ tool: String, _ arguments: [String], environment: [String: String] = [:],
                           timeout: Duration = .seconds(10)) throws -> CommandResult {
        let r = try run(tool, arguments, environment: environment, timeout: timeout)
        guard r.succeeded else {
            throw session.failure("`\(tool) \(arguments.joined(separator: " "))` failed with status \(r.status)\n"
                + "stdout:\n\(indent(r.stdout.isEmpty ? "<empty>" : r.stdout))\n"
                + "stderr:\n\(indent(r.stderr.isEmpty ? "<empty>" : r.stderr))")
        }
        return r
    }

    // MARK: sway

    /// `swaymsg args…`, its JSON reply parsed (Foundation types: sway's tree has floats).
    @discardableResult
    public func swaymsg(_ arguments: [String]) throws -> Any {
        let r = try runChecked("swaymsg", ["--raw"] + arguments)
        do {
            return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        } catch {
            throw session.failure("swaymsg \(arguments.joined(separator: " ")) printed no JSON: \(r.stdout)")
        }
    }

    /// Runs a sway command (`swaymsg <command>`), throwing unless sway reports success.
    public func swayCommand(_ command: String) throws {
        let reply = try swaymsg([command])
        let results = reply as? [[String: Any]] ?? []
        guard !results.isEmpty, results.allSatisfy({ $0["success"] as? Bool == true }) else {
            throw session.failure("sway command `\(command)` failed: \(reply)")
        }
    }

    /// Switches to workspace 2 and back: a focus change, after which sway 1.7 tells the
    /// app's text input that it has focus (and the keyboard can appear).
    public func toggleWorkspace() throws {
        try swayCommand("workspace 2")
        try swayCommand("workspace 1")
    }

    /// The app's window in sway's tree (matched by pid, else app_id or title).
    public struct Window: Sendable, Equatable {
        public var x: Int, y: Int, width: Int, height: Int
        public var focused: Bool
    }

    public func window() throws -> Window? {
        let tree = try swaymsg(["-t", "get_tree"])
        var stack: [Any] = [tree]
        let pid = Int(app.pid)
        let isApp: ([String: Any]) -> Bool = { node in
            if let p = node["pid"] as? Int, p == pid { return true }
            return node["app_id"] as? String == Self.appID || node["name"] as? String == Self.windowTitle
        }
        while let next = stack.popLast() {
            guard let node = next as? [String: Any] else { continue }
            if node["type"] as? String == "con" || node["type"] as? String == "floating_con", isApp(node),
               let rect = node["rect"] as? [String: Any],
               let x = rect["x"] as? Int, let y = rect["y"] as? Int,
               let w = rect["width"] as? Int, let h = rect["height"] as? Int {
                return Window(x: x, y: y, width: w, height: h, focused: node["focused"] as? Bool ?? false)
            }
            stack.append(contentsOf: node["nodes"] as? [Any] ?? [])
            stack.append(contentsOf: node["floating_nodes"] as? [Any] ?? [])
        }
        return nil
    }

    /// The app window's size as sway laid it out.
    public func windowSize() throws -> (width: Int, height: Int) {
        guard let w = try window() else {
            throw session.failure("the app's window is not in sway's tree\n" + trace.diagnostics())
        }
        return (w.width, w.height)
    }

    /// Waits until the window's size satisfies `condition`; returns that size.
    @discardableResult
    public func waitForWindowSize(_ description: String, timeout: Duration = .seconds(15),
                                  _ condition: (_ width: Int, _ height: Int) -> Bool) throws -> (width: Int, height: Int) {
        var last: (Int, Int)?
        return try keepingLogsOnFailure {
            try Wait.until("the window size to be \(description)", timeout: timeout, interval: Self.commandInterval,
                           diagnostics: { "last window size: \(last.map { "\($0.0)x\($0.1)" } ?? "none")\n" + self.diagnostics() },
                           failFast: { try Self.requireRunning(app, "") }) {
                guard let w = try window() else { return nil }
                last = (w.width, w.height)
                return condition(w.width, w.height) ? (w.width, w.height) : nil
            }
        }
    }

    /// Runs a wait; a wait that fails marks the session failed, so that its logs and the
    /// app's whole trace are kept (`.build/harness-failures`), not only the error's last lines.
    private func keepingLogsOnFailure<T>(_ wait: () throws -> T) throws -> T {
        do {
            return try wait()
        } catch {
            session.markFailed()
            throw error
        }
    }

    // MARK: the on-screen keyboard (sm.puri.OSK0)

    /// squeekboard's `Visible` property.
    public func oskVisible() throws -> Bool {
        let r = try runChecked("gdbus", ["call", "--session", "--dest", "sm.puri.OSK0",
                                         "--object-path", "/sm/puri/OSK0",
                                         "--method", "org.freedesktop.DBus.Properties.Get",
                                         "sm.puri.OSK0", "Visible"])
        // "(<true>,)"
        if r.output.contains("<true>") { return true }
        if r.output.contains("<false>") { return false }
        throw session.failure("unexpected reply to Get sm.puri.OSK0.Visible: \(r.output)")
    }

    /// `SetVisible(visible)` on /sm/puri/OSK0 (what a shell does to force the keyboard).
    public func setOSKVisible(_ visible: Bool) throws {
        try runChecked("gdbus", ["call", "--session", "--dest", "sm.puri.OSK0",
                                 "--object-path", "/sm/puri/OSK0",
                                 "--method", "sm.puri.OSK0.SetVisible", visible ? "true" : "false"])
    }

    /// Waits until `Visible` is `visible`.
    public func waitForOSK(visible: Bool, timeout: Duration = .seconds(15)) throws {
        try keepingLogsOnFailure {
            try Wait.until("the on-screen keyboard's Visible property to be \(visible)", timeout: timeout,
                           interval: Self.commandInterval, diagnostics: { self.diagnostics() },
                           failFast: { try Self.requireRunning(squeekboard, "") }) {
                try oskVisible() == visible
            }
        }
    }

    // MARK: input and focus

    /// Types `text` through a virtual keyboard (`wtype`), to the focused window.
    public func type(_ text: String) throws {
        try runChecked("wtype", ["--", text])
    }

    /// Presses and releases a key by its XKB keysym name (`wtype -k Tab`).
    public func key(_ name: String) throws {
        try runChecked("wtype", ["-k", name])
    }

    /// Presses a key with modifiers held (`wtype -M ctrl -M alt -k Left -m alt -m ctrl`).
    public func key(_ name: String, modifiers: [String]) throws {
        try runChecked("wtype", modifiers.flatMap { ["-M", $0] } + ["-k", name] + modifiers.reversed().flatMap { ["-m", $0] })
    }

    /// Whether the text view has focus, according to the last `focus` trace event.
    public var inputHasFocus: Bool? {
        trace.events(named: "focus").last?["in"]?.boolValue
    }

    /// Moves keyboard focus into the text view (Tab through the window's focus chain, one
    /// Tab at a time, each time reading where that Tab took the focus).
    public func focusInput(maxTabs: Int = 6) throws { try moveFocus(toInput: true, maxTabs: maxTabs) }

    /// Moves keyboard focus off the text view to the next focusable widget.
    public func focusButton(maxTabs: Int = 6) throws { try moveFocus(toInput: false, maxTabs: maxTabs) }

    /// Every `wtype` run makes sway re-enter the focused window (its new virtual keyboard:
    /// wl_keyboard leave and enter), so the text view, when it has the focus, traces a
    /// `focus` in:false then in:true before the Tab arrives. Any focus line after the Tab
    /// was sent is therefore no answer: a Tab sent again on one such blip went to the
    /// widget the first Tab had reached and wrapped the focus back into the text view
    /// (run 13 of #31). With the text view focused the Tab itself is traced (`key`), and
    /// the focus line after it is where it went; from another widget the Tab is not traced,
    /// and only one that lands in the text view shows (in:true).
    private func moveFocus(toInput: Bool, maxTabs: Int) throws {
        for _ in 0..<maxTabs {
            if inputHasFocus == toInput { return }
            let from = trace.entries.count
            let fromInput = inputHasFocus == true
            try key("Tab")
            if fromInput {
                _ = try Wait.until("the Tab's key line and the focus line after it", timeout: .seconds(10),
                                   diagnostics: { self.trace.diagnostics() }) { () -> Bool? in
                    Self.focusAfterTab(self.trace.events.dropFirst(from))
                }
            } else {
                _ = trace.poll("the focus entering the text view", timeout: .seconds(2), from: from) {
                    $0["ev"]?.stringValue == "focus" && $0["in"]?.boolValue == true
                }
            }
        }
        if inputHasFocus != toInput {
            throw session.failure("could not move focus \(toInput ? "into" : "off") the text view with Tab\n"
                + trace.diagnostics())
        }
    }

    /// Where a Tab sent with the text view focused took the focus, from the trace lines
    /// since it was sent: the first `focus` line after the Tab's own `key` line (nil until
    /// both are there). The focus lines before the key are the window's re-entry.
    public static func focusAfterTab<Lines: Collection>(_ lines: Lines) -> Bool? where Lines.Element == JSONValue {
        guard let key = lines.firstIndex(where: { $0["ev"]?.stringValue == "key" && $0["keyval"]?.stringValue == "Tab" })
        else { return nil }
        return lines[lines.index(after: key)...].first { $0["ev"]?.stringValue == "focus" }?["in"]?.boolValue
    }

    // MARK: screenshots

    /// Saves a screenshot of the whole output (grim) to `url` (its directory is created).
    @discardableResult
    public func screenshot(to url: URL) throws -> URL {
        let dir = session.directory.appendingPathComponent("shots", isDirectory: true)
        if !FileManager.default.fileExists(atPath: dir.path) {
            try session.makeDirectory(dir)
            _ = chown(dir.path, Self.sessionUID, Self.sessionGID)
        }
        let shot = dir.appendingPathComponent(UUID().uuidString + ".png")
        try runChecked("grim", [shot.path])
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.moveItem(at: shot, to: url)
        _ = chown(url.path, getuid(), getgid())
        return url
    }

    // MARK: teardown

    /// State of every process and the last trace lines, for error messages.
    public func diagnostics() -> String {
        [app, squeekboard, sway, bus].map { $0.diagnostics(lines: 8) }.joined(separator: "\n")
            + "\n" + trace.diagnostics(lastLines: 8)
    }

    /// Processes still carrying this session's marker (none after `stop()`).
    public func leftoverProcesses() -> [Int32] {
        Self.processes(withMarker: session.id)
    }

    static func processes(withMarker id: String) -> [Int32] {
        let marker = Array("\(TestSession.markerVariable)=\(id)".utf8)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), pid > 1, pid != getpid(),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { return nil }
            // Zombies have an empty environ: they are already dead.
            return data.split(separator: 0).contains { $0.elementsEqual(marker) } ? pid : nil
        }
    }

    /// Stops the app (SIGTERM: its trace ends with `exit`), squeekboard, sway and the bus,
    /// and anything they left behind; removes the session directory (its logs are kept
    /// under .build when a harness error was reported; IME_HARNESS_KEEP=1 keeps it all).
    /// Idempotent.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        session.stop()
    }

    deinit {
        if lock.withLock({ initialized }) { stop() }
    }
}

/// The start-up both Wayland sessions share: a session bus, then sway, headless, with its
/// Wayland and IPC sockets found and sway answering on IPC once its config is applied.
/// What every headless compositor of the lab gives a session: its private bus, the
/// compositor's process, its Wayland display, and its clients' environment.
protocol HeadlessCompositor {
    var bus: AppProcess { get }
    var busAddress: String { get }
    var process: AppProcess { get }
    var waylandDisplay: String { get }
    var clientEnvironment: [String: String] { get }
}

struct HeadlessSway: HeadlessCompositor {
    /// A private session bus for the session user; returns it with its address.
    static func startBus(in session: TestSession, timeout: Duration) throws -> (AppProcess, String) {
        let busProcess = try WaylandSession.launch(
            in: session, "dbus-daemon", "dbus-daemon",
            ["--session", "--nofork", "--print-address=1", "--address=unix:tmpdir=\(session.runtimeDir.path)"],
            environment: WaylandSession.baseEnvironment(session))
        let busAddress = try Wait.until("dbus-daemon to print its address", timeout: timeout,
                                        diagnostics: { busProcess.diagnostics() },
                                        failFast: { try WaylandSession.requireRunning(busProcess, "during startup") }) { () -> String? in
            let out = busProcess.stdout
            guard let nl = out.firstIndex(of: "\n") else { return nil }
            let line = out[..<nl].trimmingCharacters(in: .whitespaces)
            return line.isEmpty ? nil : line
        }
        return (busProcess, busAddress)
    }

    let bus: AppProcess
    let busAddress: String
    let sway: AppProcess
    var process: AppProcess { sway }
    let waylandDisplay: String
    let swaySocket: String
    /// The environment of the session's clients: the bus, the display, sway's socket.
    let clientEnvironment: [String: String]

    static func start(in session: TestSession, outputSize: (width: Int, height: Int), timeout: Duration,
                      lap: (String) -> Void) throws -> HeadlessSway {
        let (busProcess, busAddress) = try startBus(in: session, timeout: timeout)
        lap("dbus-daemon")

        let config = session.directory.appendingPathComponent("sway.cfg")
        try """
            output HEADLESS-1 resolution \(outputSize.width)x\(outputSize.height) position 0 0
            default_border none
            bar {
                mode invisible
            }
            seat seat0 fallback true
            xwayland disable

            """.write(to: config, atomically: true, encoding: .utf8)
        _ = chmod(config.path, 0o644)
        var swayEnvironment = WaylandSession.baseEnvironment(session)
        swayEnvironment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        swayEnvironment["WLR_BACKENDS"] = "headless"
        swayEnvironment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        swayEnvironment["WLR_RENDERER"] = "pixman"
        swayEnvironment["WLR_HEADLESS_OUTPUTS"] = "1"
        let swayProcess = try WaylandSession.launch(in: session, "sway", "sway", ["-c", config.path],
                                                    environment: swayEnvironment)
        let runtime = session.runtimeDir
        let sockets: (String, String) = try Wait.until(
            "sway's Wayland and IPC sockets in \(runtime.path)", timeout: timeout,
            diagnostics: { swayProcess.diagnostics() },
            failFast: { try WaylandSession.requireRunning(swayProcess, "during startup") }) {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []
                guard let display = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
                      let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") })
                else { return nil }
                return (display, runtime.appendingPathComponent(ipc).path)
            }
        var client = WaylandSession.baseEnvironment(session)
        client["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        client["WAYLAND_DISPLAY"] = sockets.0
        client["SWAYSOCK"] = sockets.1
        let clientEnvironment = client
        try Wait.until("sway to answer on its IPC socket", timeout: timeout, interval: WaylandSession.commandInterval,
                       diagnostics: { swayProcess.diagnostics() },
                       failFast: { try WaylandSession.requireRunning(swayProcess, "during startup") }) {
            try WaylandSession.run(in: session, environment: clientEnvironment, "swaymsg", ["-t", "get_outputs"],
                                   timeout: .seconds(10)).succeeded
        }
        lap("sway")
        return HeadlessSway(bus: busProcess, busAddress: busAddress, sway: swayProcess, waylandDisplay: sockets.0,
                            swaySocket: sockets.1, clientEnvironment: clientEnvironment)
    }
}
