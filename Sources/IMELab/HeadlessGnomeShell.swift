import Foundation

/// GNOME's compositor for one session: GNOME Shell 43 headless (`gnome-shell --headless
/// --wayland --virtual-monitor 720x1280`, mutter inside), which starts ibus-daemon itself
/// (`--panel disable`: the shell is IBus's panel) and passes Wayland clients' text-input-v3
/// to IBus, with the engine chosen from GNOME's input sources — the way GNOME on Wayland works.
///
/// What a private session needs besides its own session bus:
/// - A stand-in system bus (a second `dbus-daemon`, session configuration, at
///   `$XDG_RUNTIME_DIR/system_bus_socket`). Without one the shell dies at start in
///   `loginManager.js` (`haveSystemd()` sees `/run/systemd/seats` and the proxy for logind
///   then cannot connect).
/// - The lab's extension (`data/lab/gnome-shell/imelab@ime-composer`), installed in the
///   session's HOME and enabled in its keyfile settings: Clutter virtual devices for keys and
///   the pointer (they go through the shell's input method like a keyboard's keys), the
///   windows with their process and frame, activation, and closing the overview, which the
///   shell starts in and which holds the keyboard. Mutter offers no other way to type into a
///   headless session from outside but its RemoteDesktop API, which needs a long-lived D-Bus
///   client per session.
struct HeadlessGnomeShell: HeadlessCompositor {
    static let programs = ["gnome-shell", "dbus-daemon", "dbus-send", "gdbus", "gsettings", "setpriv"]
    static let extensionUUID = "imelab@ime-composer"
    static let busName = "org.imecomposer.Lab"
    static let objectPath = "/org/imecomposer/Lab"

    let bus: AppProcess
    let busAddress: String
    let systemBus: AppProcess
    let shell: AppProcess
    var process: AppProcess { shell }
    let waylandDisplay: String
    let clientEnvironment: [String: String]

    /// Settings written before the shell starts (keyfile GSettings in the session's config).
    /// - Parameter onScreenKeyboard: turns GNOME's on-screen keyboard on (the accessibility
    ///   setting a tablet user turns on; headless there is no touchscreen to turn it on).
    static func configure(_ session: TestSession, ibusEngine: String, onScreenKeyboard: Bool = false) throws {
        let extensions = session.dataHome.appendingPathComponent("gnome-shell/extensions/\(extensionUUID)", isDirectory: true)
        try session.makeDirectory(extensions)
        for file in ["metadata.json", "extension.js"] {
            let target = extensions.appendingPathComponent(file)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: extensionDirectory.appendingPathComponent(file), to: target)
        }
        for (schema, key, value) in [
            ("org.gnome.shell", "enabled-extensions", "['\(extensionUUID)']"),
            ("org.gnome.shell", "disable-user-extensions", "false"),
            ("org.gnome.shell", "welcome-dialog-last-shown-version", "'999'"),
            ("org.gnome.desktop.input-sources", "sources", "[('ibus', '\(ibusEngine)')]"),
            ("org.gnome.desktop.a11y.applications", "screen-keyboard-enabled", onScreenKeyboard ? "true" : "false"),
        ] {
            try IBus.gsettingsSet(session, schema: schema, key: key, value: value)
        }
        // The engines' own start-up modes (anthy in hiragana, hangul in Hangul), as on X11.
        try IBus.configureEngines(session)
    }

    static func start(in session: TestSession, outputSize: (width: Int, height: Int), timeout: Duration,
                      lap: (String) -> Void) throws -> HeadlessGnomeShell {
        let (busProcess, busAddress) = try HeadlessSway.startBus(in: session, timeout: timeout)
        let socket = session.runtimeDir.appendingPathComponent("system_bus_socket").path
        let systemBus = try WaylandSession.launch(
            in: session, "dbus-daemon-system", "dbus-daemon",
            ["--config-file=/usr/share/dbus-1/session.conf", "--nofork", "--nopidfile", "--address=unix:path=\(socket)"],
            environment: WaylandSession.baseEnvironment(session))
        try Wait.until("the stand-in system bus at \(socket)", timeout: timeout, interval: WaylandSession.commandInterval,
                       diagnostics: { systemBus.diagnostics() },
                       failFast: { try WaylandSession.requireRunning(systemBus, "during startup") }) {
            FileManager.default.fileExists(atPath: socket)
        }
        lap("dbus-daemon ×2")

        let display = "wayland-gnome"
        var environment = WaylandSession.baseEnvironment(session)
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(socket)"
        environment["XDG_SESSION_TYPE"] = "wayland"
        environment["XDG_CURRENT_DESKTOP"] = "GNOME"
        let shell = try WaylandSession.launch(
            in: session, "gnome-shell", "gnome-shell",
            ["--headless", "--wayland", "--no-x11", "--wayland-display=\(display)",
             "--virtual-monitor", "\(outputSize.width)x\(outputSize.height)"],
            environment: environment)
        var client = WaylandSession.baseEnvironment(session)
        client["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        client["WAYLAND_DISPLAY"] = display
        client["XDG_CURRENT_DESKTOP"] = "GNOME"
        let clientEnvironment = client
        let gnome = HeadlessGnomeShell(bus: busProcess, busAddress: busAddress, systemBus: systemBus, shell: shell,
                                       waylandDisplay: display, clientEnvironment: clientEnvironment)
        try Wait.until("GNOME Shell's Wayland socket and the lab's extension on the bus (\(busName))", timeout: timeout,
                       interval: WaylandSession.commandInterval, diagnostics: { shell.diagnostics() },
                       failFast: { try WaylandSession.requireRunning(shell, "during startup") }) {
            guard FileManager.default.fileExists(atPath: session.runtimeDir.appendingPathComponent(display).path) else {
                return false
            }
            return try WaylandSession.nameHasOwner(busName, in: session, environment: clientEnvironment)
        }
        var visible = ""
        try Wait.until("the overview to close", timeout: timeout, interval: WaylandSession.commandInterval,
                       diagnostics: { "HideOverview said \(visible)\n" + shell.diagnostics() },
                       failFast: { try WaylandSession.requireRunning(shell, "during startup") }) {
            visible = try gnome.call(in: session, "HideOverview", [])
            return visible.contains("false")
        }
        lap("gnome-shell")
        return gnome
    }

    /// `gdbus call` to the lab's extension; the reply text.
    func call(in session: TestSession, _ method: String, _ arguments: [String]) throws -> String {
        let r = try WaylandSession.run(in: session, environment: clientEnvironment, "gdbus",
                                       ["call", "--session", "--dest", Self.busName, "--object-path", Self.objectPath,
                                        "--method", "\(Self.busName).\(method)"] + arguments, timeout: .seconds(10))
        guard r.succeeded else {
            throw HarnessError("the lab's GNOME Shell extension: \(method) failed with status \(r.status): \(r.stderr)")
        }
        return r.output
    }

    /// Every window: pid, frame, whether it has focus.
    func windows(in session: TestSession) throws -> [CompositorWindow] {
        let reply = try call(in: session, "Windows", [])
        // ('[{"pid":1,...}]',)
        guard let start = reply.firstIndex(of: "["), let end = reply.lastIndex(of: "]"),
              let list = try JSONSerialization.jsonObject(with: Data(reply[start...end].utf8)) as? [[String: Any]] else {
            throw HarnessError("the lab's GNOME Shell extension: Windows answered \(reply)")
        }
        return list.compactMap { w in
            guard let pid = w["pid"] as? Int, let x = w["x"] as? Int, let y = w["y"] as? Int,
                  let width = w["width"] as? Int, let height = w["height"] as? Int else { return nil }
            return CompositorWindow(pid: Int32(pid), x: x, y: y, width: width, height: height,
                                     active: w["focused"] as? Bool ?? false)
        }
    }

    /// GNOME's on-screen keyboard: whether it shows, and the box it fills at the bottom of
    /// the monitor (its top edge on the output, the monitor's bottom while hidden, and its height).
    func keyboard(in session: TestSession) throws -> GnomeKeyboard {
        let reply = try call(in: session, "Keyboard", [])
        guard let start = reply.firstIndex(of: "{"), let end = reply.lastIndex(of: "}"),
              let object = try JSONSerialization.jsonObject(with: Data(reply[start...end].utf8)) as? [String: Any],
              let visible = object["visible"] as? Bool, let top = object["top"] as? Int, let height = object["height"] as? Int else {
            throw HarnessError("the lab's GNOME Shell extension: Keyboard answered \(reply)")
        }
        return GnomeKeyboard(visible: visible, top: top, height: height)
    }

    /// The extension's files (`LabData`: installed, or the source tree's).
    static var extensionDirectory: URL { LabData.directory("gnome-shell/\(extensionUUID)") }
}

/// GNOME Shell's on-screen keyboard as the lab reads it (`HeadlessGnomeShell.keyboard`).
public struct GnomeKeyboard: Equatable, Sendable {
    public var visible: Bool
    /// The top edge of the keyboard's box on the output, and its height (px).
    public var top: Int, height: Int
}
