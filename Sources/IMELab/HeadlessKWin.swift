import Foundation

/// KDE Plasma's compositor for one session: a private session bus and KWin 5.27
/// (`kwin_wayland --virtual`, one 720x1280 output) that starts fcitx5 as its input method
/// (`--inputmethod`: KWin offers input-method-v1 only to the process it starts, on a socket
/// of its own), the way Plasma does once Fcitx5 is chosen as the virtual keyboard.
///
/// Two things differ from a Plasma desktop, both because the lab runs unprivileged in a
/// container:
/// - `/usr/bin/kwin_wayland` carries the file capability `cap_sys_resource=ep` (to raise its
///   RLIMIT_NICE), which a container's bounding set may lack: exec then fails with "Operation
///   not permitted", even for root. The session runs a copy, which has no capability.
/// - KWin offers `org_kde_kwin_fake_input` (vkbd's keys and pointer) only to clients it
///   trusts through their desktop file; `KWIN_WAYLAND_NO_PERMISSION_CHECKS=1` trusts all the
///   session's clients (KWin's own test setting).
///
/// Key repeat is off (`kcminputrc`): the lab's keys are taps.
///
/// KWin composites with QPainter (`KWIN_COMPOSE=Q`): no GL on a machine without a GPU.
/// Windows are read and focused through KWin's scripting (`KWinScript`).
struct HeadlessKWin: HeadlessCompositor {
    static let programs = ["kwin_wayland", "fcitx5", "dbus-daemon", "dbus-send", "setpriv"]
    static let installedPath = "/usr/bin/kwin_wayland"

    let bus: AppProcess
    let busAddress: String
    let kwin: AppProcess
    var process: AppProcess { kwin }
    let waylandDisplay: String
    /// The environment of the session's clients: the bus and the display.
    let clientEnvironment: [String: String]

    static func start(in session: TestSession, outputSize: (width: Int, height: Int), inputMethodCommand: String,
                      timeout: Duration, lap: (String) -> Void) throws -> HeadlessKWin {
        let (busProcess, busAddress) = try HeadlessSway.startBus(in: session, timeout: timeout)
        lap("dbus-daemon")

        // The lab's keys are taps: no key repeat (KWin's own, and the rate it tells clients
        // and fcitx5's keyboard grab), so a tap held up by a loaded machine never types twice.
        let config = session.configHome
        try session.makeDirectory(config)
        let inputConfig = config.appendingPathComponent("kcminputrc")
        try "[Keyboard]\nKeyRepeat=nothing\n".write(to: inputConfig, atomically: true, encoding: .utf8)
        _ = chown(inputConfig.path, WaylandSession.sessionUID, WaylandSession.sessionGID)
        let binary = try copyWithoutCapabilities(in: session)
        let display = "wayland-kwin"
        var environment = WaylandSession.baseEnvironment(session)
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment["KWIN_WAYLAND_NO_PERMISSION_CHECKS"] = "1"
        environment["KWIN_COMPOSE"] = "Q"
        let kwinProcess = try WaylandSession.launch(
            in: session, "kwin_wayland", binary,
            ["--virtual", "--width", String(outputSize.width), "--height", String(outputSize.height),
             "--socket", display, "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities",
             "--inputmethod", inputMethodCommand],
            environment: environment)
        var client = WaylandSession.baseEnvironment(session)
        client["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        client["WAYLAND_DISPLAY"] = display
        let clientEnvironment = client
        let socket = session.runtimeDir.appendingPathComponent(display).path
        try Wait.until("KWin's Wayland socket \(socket) and its D-Bus name org.kde.KWin", timeout: timeout,
                       interval: WaylandSession.commandInterval, diagnostics: { kwinProcess.diagnostics() },
                       failFast: { try WaylandSession.requireRunning(kwinProcess, "during startup") }) {
            guard FileManager.default.fileExists(atPath: socket) else { return false }
            return try WaylandSession.nameHasOwner("org.kde.KWin", in: session, environment: clientEnvironment)
        }
        lap("kwin_wayland")
        return HeadlessKWin(bus: busProcess, busAddress: busAddress, kwin: kwinProcess, waylandDisplay: display,
                            clientEnvironment: clientEnvironment)
    }

    /// A copy of kwin_wayland in the session directory: `cp` drops its file capability.
    private static func copyWithoutCapabilities(in session: TestSession) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: installedPath) else {
            throw HarnessError("\(installedPath) is missing: install kwin-wayland (scripts/install-deps.sh)")
        }
        let dir = session.directory.appendingPathComponent("bin", isDirectory: true)
        try session.makeDirectory(dir)
        let copy = dir.appendingPathComponent("kwin_wayland")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(atPath: installedPath, toPath: copy.path)
        _ = chmod(dir.path, 0o755)
        _ = chmod(copy.path, 0o755)
        return copy.path
    }
}

/// One window as a compositor lists it: its client's process, its frame on the output, and
/// whether it has keyboard focus.
struct CompositorWindow: Equatable {
    var pid: Int32
    var x: Int, y: Int, width: Int, height: Int
    var active: Bool
}

/// KWin's scripting over D-Bus (`org.kde.kwin.Scripting`): a script is loaded from a file,
/// run, and prints its answer (`print`, on KWin's standard error as `js: …`), then unloaded.
/// KWin has no other interface that lists windows with their process and geometry.
struct KWinScript {
    let session: TestSession
    let kwin: AppProcess
    let environment: [String: String]
    private static let counter = Counter()

    /// Every normal window (no panels, no input-method surfaces).
    func windows() throws -> [CompositorWindow] {
        let lines = try run("""
            const cs = workspace.clientList();
            for (let i = 0; i < cs.length; i++) {
                const c = cs[i], g = c.frameGeometry;
                if (c.normalWindow) print(TOKEN + " " + [c.pid, g.x, g.y, g.width, g.height, workspace.activeClient === c ? 1 : 0].join(" "));
            }
            """)
        return lines.compactMap { line in
            let f = line.split(separator: " ").compactMap { Int($0) }
            guard f.count == 6 else { return nil }
            return CompositorWindow(pid: Int32(f[0]), x: f[1], y: f[2], width: f[3], height: f[4], active: f[5] == 1)
        }
    }

    /// Makes the window of `pid` the active one (keyboard focus); false when there is none.
    func activate(pid: Int32) throws -> Bool {
        let lines = try run("""
            const cs = workspace.clientList();
            for (let i = 0; i < cs.length; i++) {
                if (cs[i].pid === \(pid) && cs[i].normalWindow) { workspace.activeClient = cs[i]; print(TOKEN + " activated"); }
            }
            """)
        return lines.contains("activated")
    }

    /// Runs `body` (JavaScript with `TOKEN` defined) and returns the text after the token on
    /// each line it printed.
    private func run(_ body: String) throws -> [String] {
        let n = Self.counter.next()
        let token = "ime-lab-\(session.id)-\(n)"
        let dir = session.directory.appendingPathComponent("kwin-scripts", isDirectory: true)
        try session.makeDirectory(dir)
        _ = chmod(dir.path, 0o755)
        let file = dir.appendingPathComponent("q\(n).js")
        try """
            const TOKEN = "\(token)";
            \(body)
            print(TOKEN + " end");

            """.write(to: file, atomically: true, encoding: .utf8)
        _ = chmod(file.path, 0o644)
        func call(_ method: String, _ arguments: [String]) throws -> CommandResult {
            let r = try WaylandSession.run(in: session, environment: environment, "dbus-send",
                                           ["--session", "--print-reply=literal", "--dest=org.kde.KWin", "/Scripting",
                                            "org.kde.kwin.Scripting.\(method)"] + arguments, timeout: .seconds(10))
            guard r.succeeded else {
                throw HarnessError("KWin Scripting.\(method) failed with status \(r.status): \(r.stderr)")
            }
            return r
        }
        let name = "ime-lab-q\(n)"
        _ = try call("loadScript", ["string:\(file.path)", "string:\(name)"])
        defer { _ = try? call("unloadScript", ["string:\(name)"]) }
        _ = try call("start", [])
        let kwin = self.kwin
        let prefix = "js: \(token) "
        return try Wait.until("KWin to run script \(file.lastPathComponent)", timeout: .seconds(10),
                              interval: WaylandSession.commandInterval, diagnostics: { kwin.diagnostics() },
                              failFast: { try WaylandSession.requireRunning(kwin, "while running a script") }) { () -> [String]? in
            let lines = (kwin.stderr + kwin.stdout).split(separator: "\n").filter { $0.hasPrefix(prefix) }
                .map { String($0.dropFirst(prefix.count)) }
            return lines.last == "end" ? Array(lines.dropLast()) : nil
        }
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int { lock.withLock { value += 1; return value } }
    }
}
