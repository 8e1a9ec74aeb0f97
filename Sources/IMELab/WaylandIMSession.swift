import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The Wayland input-method path for one test: a private D-Bus session bus, headless sway
/// 1.7, fcitx5 as the compositor's input method (its `waylandim` addon, input-method-v2)
/// with anthy or hangul active by default, one persistent virtual keyboard and pointer
/// (`vkbd`, built from Tests/Drivers/vkbd.c) and the app with `GDK_BACKEND=wayland GTK_IM_MODULE=wayland`
/// (GTK's text-input-v3 module).
///
///     let wl = try WaylandIMSession.start(name: "anthy", inputMethod: .anthy)
///     defer { wl.stop() }
///     try wl.key(["k", "o", "space", "Return"])
///     try wl.trace.waitFor(event: "commit")
///
/// Why a driver of its own rather than wtype: every wtype call makes a new virtual keyboard;
/// sway 1.7 then re-enters the focused app (wl_keyboard leave/enter), GTK disables and
/// enables its text input, and fcitx5 resets the composition on the deactivate: keys are
/// lost. Destroying a virtual keyboard while fcitx5 re-grabs the keyboard also crashes sway
/// 1.7 (no active keyboard). So vkbd's one keyboard is created before the app maps and
/// lives until the app and fcitx5 are gone.
///
/// Everything runs as `WaylandSession.sessionUID` (sway refuses root), each process in its
/// own process group, with `WaylandSession`'s environment and helpers. Start-up order: bus →
/// sway → fcitx5 (owns `org.fcitx.Fcitx5`, reports the IM) → vkbd (`ready`) → app (`start`,
/// window mapped) → `workspace 2; workspace 1` (sway 1.7 tells the text input about focus
/// only on a focus change) → the text view's `focus` in:true, `ready`, and fcitx5's
/// wayland_v2 input context with focus. Every wait polls a condition.
///
/// `stop()`: SIGTERM to the app, Controller1.Exit to fcitx5, then EOF to vkbd (its keyboard
/// is destroyed only when nothing can grab any more), then every process group, then
/// anything still carrying the session's marker variable.
///
/// On `.kde` the compositor is KWin 5.27 (`HeadlessKWin`), which starts fcitx5 itself as its
/// input method (input-method-v1, as Plasma does once Fcitx5 is its virtual keyboard); vkbd
/// types through KWin's fake input; windows are read and focused through KWin's scripting
/// (`KWinScript`). KWin tells a new window's text input about its focus as it maps: no
/// workspace toggle.
public final class WaylandIMSession: @unchecked Sendable {
    public static let requiredPrograms = ["sway", "swaymsg", "fcitx5", "dbus-daemon", "dbus-send",
                                          "dbus-update-activation-environment", "setpriv", "sh",
                                          "cc", "pkg-config"]

    /// The compositors the session can run: sway (wlroots; fcitx5 over input-method-v2) or
    /// KDE Plasma's KWin (fcitx5 over input-method-v1).
    public enum Desktop: String, Sendable, CaseIterable {
        case sway, kde
        /// GNOME Shell (mutter), which hands text-input-v3 to IBus itself: no fcitx5, no
        /// vkbd; keys, clicks and windows go through the lab's extension (`HeadlessGnomeShell`),
        /// and `inputMethod` names the IBus engine.
        case gnome

        /// The programs a session on this desktop needs.
        public var requiredPrograms: [String] {
            switch self {
            case .sway: WaylandIMSession.requiredPrograms
            case .kde: ["fcitx5", "dbus-daemon", "dbus-send", "setpriv", "sh", "cc", "pkg-config"]
            case .gnome: HeadlessGnomeShell.programs + ["ibus", "sh"]
            }
        }
    }

    public let session: TestSession
    public let desktop: Desktop
    public let inputMethod: Fcitx5.InputMethod
    public let bus: AppProcess
    public let busAddress: String
    /// sway or kwin_wayland.
    public let compositor: AppProcess
    public let waylandDisplay: String
    /// sway's IPC socket (nil on KDE).
    public let swaySocket: String?
    /// fcitx5, when the session started it (sway); KWin starts its own (`kde`).
    public let fcitx5: AppProcess?
    private let kwinScript: KWinScript?
    private let gnomeShell: HeadlessGnomeShell?
    /// A key the engine composes and the key that ends it: on GNOME, proof that the shell
    /// passes the app's keys to IBus (ibus-daemon keeps one current input context, so its
    /// focus says nothing about a new window); on KWin, the session's first key.
    private let probe: InputMethodKind.Probe?
    /// The virtual keyboard driver; commands go to its stdin (a FIFO), replies to its stdout.
    /// None on GNOME (the lab's extension types there).
    public let vkbd: AppProcess?
    /// The app under test (a new one after `restartApp`).
    public private(set) var app: AppProcess
    /// The app's `--trace` file (a new one after `restartApp`); fails fast once the app exited.
    public private(set) var trace: TraceLog
    private let appEnvironment: [String: String]
    /// How long each startup step took, in order.
    public private(set) var startupTimings: [(step: String, duration: Duration)] = []

    private static let commandInterval: Duration = .milliseconds(50)
    /// How long a focused app may go without fcitx5 getting focus before the workspace is
    /// toggled again (it takes a few milliseconds when it works).
    private static let refocusAfter: Duration = .seconds(3)
    /// The headless output's resolution (at 0,0: the whole layout, which the virtual
    /// pointer's absolute motion is relative to).
    public static let outputSize = (width: 720, height: 1280)
    private let lock = NSLock()
    private var stopped = false
    private var initialized = false
    /// The write end of vkbd's stdin FIFO (-1 once closed).
    private var vkbdInput: Int32 = -1
    /// Commands sent to vkbd so far (each gets one reply line).
    private var commandsSent = 0

    // MARK: start

    /// Starts the session and waits until the app's text view has focus with the input
    /// method attached (see the type's documentation).
    ///
    /// - Parameters:
    ///   - appArguments: extra arguments for `ime-composer` (after `--trace PATH`).
    ///   - appEnvironment: added to (and overriding) the app's environment.
    ///   - onScreenKeyboard: on `.gnome`, GNOME Shell's own on-screen keyboard is turned on.
    public static func start(name: String = "wayland-im", desktop: Desktop = .sway, inputMethod: Fcitx5.InputMethod,
                             probe: InputMethodKind.Probe? = nil, appArguments: [String] = [], appEnvironment: [String: String] = [:],
                             onScreenKeyboard: Bool = false, timeout: Duration = .seconds(30)) throws -> WaylandIMSession {
        try Prerequisites.require(desktop.requiredPrograms)
        if desktop == .kde, !FileManager.default.isExecutableFile(atPath: HeadlessKWin.installedPath) {
            throw HarnessError("\(HeadlessKWin.installedPath) is missing: install kwin-wayland (scripts/install-deps.sh)")
        }
        let conf = desktop == .gnome ? "/usr/share/ibus" : "/usr/share/fcitx5/inputmethod/\(inputMethod.rawValue).conf"
        guard FileManager.default.fileExists(atPath: conf) else {
            throw HarnessError("fcitx5 input method '\(inputMethod.rawValue)' is not installed (\(conf) missing). "
                + "Run scripts/install-deps.sh (or `make deps`) to install fcitx5-\(inputMethod.rawValue).")
        }
        let driver = desktop == .gnome ? "" : try vkbdBinary()
        let session = try TestSession(name: (desktop == .sway ? "wlim-" : desktop.rawValue + "-") + name)
        do {
            return try WaylandIMSession(session: session, desktop: desktop, inputMethod: inputMethod, probe: probe, driver: driver,
                                        appArguments: appArguments, appEnvironment: appEnvironment,
                                        onScreenKeyboard: onScreenKeyboard, timeout: timeout)
        } catch {
            session.markFailed()
            session.stop()
            throw HarnessError("\(error)\n(session logs: \(TestSession.failureArtifacts.appendingPathComponent(session.id).path))")
        }
    }

    private init(session: TestSession, desktop: Desktop, inputMethod: Fcitx5.InputMethod, probe: InputMethodKind.Probe?, driver: String,
                 appArguments: [String], appEnvironment: [String: String], onScreenKeyboard: Bool, timeout: Duration) throws {
        self.session = session
        self.desktop = desktop
        self.inputMethod = inputMethod
        self.probe = probe
        let clock = ContinuousClock()
        var timings: [(step: String, duration: Duration)] = []
        var mark = clock.now
        func lap(_ step: String) {
            let now = clock.now
            timings.append((step, now - mark))
            mark = now
        }

        // fcitx5's profile and config (ActiveByDefault=True: no trigger key), then the
        // whole session directory goes to the session user.
        if desktop == .gnome {
            try HeadlessGnomeShell.configure(session, ibusEngine: inputMethod.rawValue, onScreenKeyboard: onScreenKeyboard)
        } else {
            try Fcitx5.writeConfiguration(session, inputMethod: inputMethod)
        }
        try WaylandSession.handOver(session)

        // 1. The session bus, 2. the compositor, headless (`HeadlessSway`, as WaylandSession's,
        // or `HeadlessKWin`, which starts fcitx5 itself).
        let started: any HeadlessCompositor
        switch desktop {
        case .sway:
            let sway = try HeadlessSway.start(in: session, outputSize: Self.outputSize, timeout: timeout, lap: lap)
            started = sway
            swaySocket = sway.swaySocket
            kwinScript = nil
            gnomeShell = nil
        case .gnome:
            let shell = try HeadlessGnomeShell.start(in: session, outputSize: Self.outputSize, timeout: timeout, lap: lap)
            started = shell
            swaySocket = nil
            kwinScript = nil
            gnomeShell = shell
        case .kde:
            let fcitx5 = try AppProcess.resolve("fcitx5", environment: ["PATH": "/usr/bin:/bin"])
            let kwin = try HeadlessKWin.start(in: session, outputSize: Self.outputSize,
                                              inputMethodCommand: "\(fcitx5) --disable=\(Fcitx5.disabledAddons)",
                                              timeout: timeout, lap: lap)
            started = kwin
            swaySocket = nil
            kwinScript = KWinScript(session: session, kwin: kwin.kwin, environment: kwin.clientEnvironment)
            gnomeShell = nil
        }
        bus = started.bus
        busAddress = started.busAddress
        waylandDisplay = started.waylandDisplay
        let client = started.clientEnvironment
        let compositorProcess = started.process
        let imAlive: () throws -> Void
        self.compositor = compositorProcess
        func run(_ tool: String, _ arguments: [String]) throws -> CommandResult {
            try WaylandSession.run(in: session, environment: client, tool, arguments, timeout: .seconds(10))
        }

        // 3. fcitx5 as the compositor's input method (no DISPLAY: only its Wayland frontends).
        let activation = try run("dbus-update-activation-environment",
                                 ["HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR",
                                  "PATH", "LANG", "WAYLAND_DISPLAY", TestSession.markerVariable])
        guard activation.succeeded else {
            throw session.failure("dbus-update-activation-environment failed: \(activation.stderr)")
        }
        let imProcess: AppProcess
        switch desktop {
        case .sway:
            let im = try WaylandSession.launch(in: session, "fcitx5", "fcitx5",
                                               ["--replace", "--disable=\(Fcitx5.disabledAddons)"], environment: client)
            fcitx5 = im
            imProcess = im
            imAlive = { try WaylandSession.requireRunning(im, "during startup") }
        case .kde:
            // KWin's child: its output is in KWin's log; KWin outliving it is what we can check.
            fcitx5 = nil
            imProcess = compositorProcess
            imAlive = { try WaylandSession.requireRunning(compositorProcess, "during startup") }
        case .gnome:
            // The shell starts ibus-daemon itself and sets its engine from the input sources.
            fcitx5 = nil
            imProcess = compositorProcess
            imAlive = { try WaylandSession.requireRunning(compositorProcess, "during startup") }
        }
        let imDiagnostics = { imProcess.diagnostics() }
        if desktop == .gnome {
            var engine = ""
            try Wait.until("ibus-daemon (started by the shell) to have the engine '\(inputMethod.rawValue)'", timeout: timeout,
                           interval: Self.commandInterval, diagnostics: { "last `ibus engine`: '\(engine)'\n" + imDiagnostics() },
                           failFast: imAlive) {
                engine = (try? run("ibus", ["engine"]))?.output ?? ""
                return engine == inputMethod.rawValue
            }
            lap("ibus-daemon")
        } else {
            func controller(_ method: String) throws -> CommandResult {
                try run("dbus-send", ["--session", "--print-reply=literal", "--dest=\(Fcitx5.busName)",
                                      Fcitx5.controllerPath, "\(Fcitx5.controllerInterface).\(method)"])
            }
            try Wait.until("fcitx5 to own the bus name \(Fcitx5.busName)", timeout: timeout,
                           interval: Self.commandInterval, diagnostics: imDiagnostics, failFast: imAlive) {
                try WaylandSession.nameHasOwner(Fcitx5.busName, in: session, environment: client)
            }
            var current = ""
            try Wait.until("fcitx5 to report '\(inputMethod.rawValue)' as its current input method", timeout: timeout,
                           interval: Self.commandInterval,
                           diagnostics: { "last CurrentInputMethod: '\(current)'\n" + imDiagnostics() },
                           failFast: imAlive) {
                current = (try? controller("CurrentInputMethod"))?.output ?? ""
                return current == inputMethod.rawValue
            }
            lap("fcitx5")
        }

        if desktop == .gnome {
            vkbd = nil
        } else {
            // 4. The virtual keyboard, before the app maps: its stdin is a FIFO we keep open.
            let fifo = session.directory.appendingPathComponent("vkbd.in")
            guard mkfifo(fifo.path, 0o600) == 0 else {
                throw session.failure("mkfifo \(fifo.path): \(String(cString: strerror(errno)))")
            }
            _ = chown(fifo.path, WaylandSession.sessionUID, WaylandSession.sessionGID)
            // O_RDWR: never blocks, and vkbd sees EOF only when we close it.
            let input = open(fifo.path, O_RDWR | O_CLOEXEC)
            guard input >= 0 else {
                throw session.failure("open \(fifo.path): \(String(cString: strerror(errno)))")
            }
            let keyboard: AppProcess
            do {
                let binary = try Self.forSessionUser(driver, in: session)
                keyboard = try WaylandSession.launch(in: session, "vkbd", "sh",
                                                     ["-c", "exec \"$0\" < \"$1\"", binary, fifo.path],
                                                     environment: client)
                try Wait.until("vkbd to print ready", timeout: timeout, diagnostics: { keyboard.diagnostics() },
                               failFast: { try WaylandSession.requireRunning(keyboard, "during startup") }) {
                    keyboard.stdout.hasPrefix("ready\n")
                }
            } catch {
                close(input)  // deinit does not run for a partly initialized object
                throw error
            }
            vkbd = keyboard
            vkbdInput = input
            lap("vkbd")
        }

        // 5. The app, then 6. its focus (see `launchApp` and `waitForAppFocus`).
        self.appEnvironment = appEnvironment
        (app, trace) = try Self.launchApp(session: session, client: client, arguments: appArguments,
                                          environment: appEnvironment)
        // From here on every stored property is set: stop in this order (hooks run first).
        session.onStop { [weak self] in self?.shutDownInputChain() }
        try waitForAppFocus(timeout: timeout)
        startupTimings = timings + startupTimings
        initialized = true
    }

    // MARK: the app

    /// The app, on Wayland with GTK's text-input-v3 module, tracing to a new file.
    private static func launchApp(session: TestSession, client: [String: String], arguments: [String],
                                  environment: [String: String]) throws -> (AppProcess, TraceLog) {
        let appBinary = try WaylandSession.binaryForSessionUser(session)
        var env = client
        env["GDK_BACKEND"] = "wayland"
        env["GTK_IM_MODULE"] = "wayland"
        env.merge(ComposerSession.fatalGLibProblems) { _, fatal in fatal }
        env.merge(environment) { _, new in new }
        var traceURL = session.directory.appendingPathComponent("trace.jsonl")
        var n = 1
        while FileManager.default.fileExists(atPath: traceURL.path) {
            n += 1
            traceURL = session.directory.appendingPathComponent("trace-\(n).jsonl")
        }
        let appProcess = try WaylandSession.launch(in: session, "ime-composer", appBinary,
                                                   ["--trace", traceURL.path] + arguments, environment: env)
        return (appProcess, TraceLog(url: traceURL, watching: appProcess, session: session))
    }

    /// Waits for the app's `start` (on Wayland) and its window in sway's tree; then switches
    /// to workspace 2 and back (sway 1.7 tells a text input about focus only on a focus
    /// change) and waits for the text view's `focus` in:true, `ready`, and a focused
    /// wayland_v2 input context in fcitx5.
    private func waitForAppFocus(timeout: Duration) throws {
        let clock = ContinuousClock()
        var mark = clock.now
        func lap(_ step: String) {
            let now = clock.now
            startupTimings.append((step, now - mark))
            mark = now
        }
        let appProcess = app
        let started = try trace.waitFor(event: "start", timeout: timeout)
        guard started["backend"]?.stringValue == "wayland" else {
            throw session.failure("the app did not start on Wayland: \(started)\n" + appProcess.diagnostics())
        }
        lap("app start event")
        try Wait.until("the app's window to be mapped in \(desktop == .kde ? "KWin's window list" : "sway's tree")",
                       timeout: timeout, interval: Self.commandInterval, diagnostics: { self.trace.diagnostics() },
                       failFast: { try WaylandSession.requireRunning(appProcess, "before its window mapped") }) {
            try self.windowRect(pid: appProcess.pid) != nil
        }
        lap("window mapped")
        // sway tells a text input about focus only on a focus change: switch workspaces.
        // KWin focuses a new window as it maps; making it active again is its focus change.
        func toggleFocus() throws {
            if desktop != .sway {
                try focus(pid: appProcess.pid)
                return
            }
            for command in ["workspace 2", "workspace 1"] {
                let r = try run("swaymsg", [command])
                guard r.succeeded else { throw session.failure("swaymsg \(command) failed: \(r.output) \(r.stderr)") }
            }
        }
        let before = trace.entries.count
        // KWin focuses a window as it maps; GNOME Shell's window starts behind the overview.
        if desktop != .kde { try toggleFocus() }
        var toggled = clock.now
        // KWin focused the window as it mapped, maybe before it was listed: its first trace lines.
        try trace.waitFor(event: "focus", timeout: timeout, from: desktop == .sway ? before : 0) { $0["in"]?.boolValue == true }
        try trace.waitFor(event: "ready", timeout: timeout)
        var info = ""
        try Wait.until(desktop == .gnome ? "ibus-daemon to have a focused input context (CurrentInputContext)"
                                         : "fcitx5 to list a focused Wayland input context (Controller1.DebugInfo)",
                       timeout: timeout, interval: Self.commandInterval,
                       diagnostics: { "last answer:\n" + indent(info) + "\n" + self.diagnostics() },
                       failFast: { try WaylandSession.requireRunning(self.fcitx5 ?? self.compositor, "before the app was focused") }) {
            if try inputMethodHasFocus(answer: &info) { return true }
            // Seen once in about 40 restarts: the toggle came while the new window was still
            // being configured (before its first tiled layout), and no text-input enable
            // followed, so fcitx5 never got focus. Another focus change tells it again.
            if clock.now - toggled > Self.refocusAfter {
                try toggleFocus()
                toggled = clock.now
            }
            return false
        }
        // On KWin too: fcitx5-pinyin's first key after the session started came twice in 2
        // of 6 runs (n → "n n"); the probe takes the first key there, as X11 sessions do.
        if desktop != .sway, let probe {
            try composeProbe(probe, timeout: timeout)
            let cancel = trace.entries.count
            try key([probe.cancelKey])
            try trace.waitFor("the probe's composition to end", from: cancel) { $0["ev"]?.stringValue == "preedit-end" }
        }
        lap(desktop == .sway ? "workspace toggle + focus" : "focus")
    }

    /// Types the probe key until the engine composes it. ibus-daemon has the engine and a
    /// focused input context before the engine is attached to that context: on GNOME the
    /// probe key once came in as a plain "r" (run 56 of #31, a loaded machine). A key that
    /// came in as is is taken back (BackSpace, until the text is what it was) and the probe
    /// is typed again, as the X11 sessions do.
    private func composeProbe(_ probe: InputMethodKind.Probe, timeout: Duration) throws {
        let textBefore = trace.events(named: "text").last?["text"]?.stringValue ?? ""
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var attempts = 0
        while true {
            let from = trace.entries.count
            try key([probe.key])
            attempts += 1
            let composed = trace.poll("the engine to compose the probe key \(probe.key)", timeout: .seconds(3), from: from) {
                $0["ev"]?.stringValue == "preedit" && !($0["text"]?.stringValue ?? "").isEmpty
                    && (probe.preedit.isEmpty || ($0["text"]?.stringValue ?? "").contains(probe.preedit))
            }
            if composed != nil { return }
            guard clock.now < deadline else {
                throw session.failure("the engine never composed the probe key \(probe.key) (\(attempts) tries in "
                    + "\(timeout))\n" + trace.diagnostics())
            }
            // Still composing something else (an answer later than the poll): end it first.
            if trace.entries.isComposing {
                let cancel = trace.entries.count
                try key([probe.cancelKey])
                try trace.waitFor("the late probe composition to end", from: cancel) { $0["ev"]?.stringValue == "preedit-end" }
            }
            let current = trace.events(named: "text").last?["text"]?.stringValue ?? ""
            let extra = current.unicodeScalars.count - textBefore.unicodeScalars.count
            guard extra >= 0, current.hasPrefix(textBefore) else {
                throw session.failure("the engine probe changed the text from \(textBefore.debugDescription) to "
                    + "\(current.debugDescription)")
            }
            if extra > 0 {
                let back = trace.entries.count
                try key(Array(repeating: "BackSpace", count: extra))
                try trace.waitFor("the text to be back to \(textBefore.debugDescription) after the probe", from: back) {
                    $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == textBefore
                }
            }
        }
    }

    /// Whether the input method has the focused app's input context: fcitx5's DebugInfo lists
    /// a focused Wayland context, or ibus-daemon (GNOME) has a current input context.
    /// `answer` gets what was read, for diagnostics.
    func inputMethodHasFocus(answer: inout String) throws -> Bool {
        guard desktop == .gnome else {
            answer = (try? fcitxController("DebugInfo")) ?? answer
            return Self.hasFocusedWaylandContext(answer)
        }
        let address = try run("ibus", ["address"]).output
        guard !address.isEmpty, !address.hasPrefix("(null)") else {
            answer = "no ibus address"
            return false
        }
        let r = try run("gdbus", ["call", "--address", address, "--dest", "org.freedesktop.IBus", "--object-path",
                                  "/org/freedesktop/IBus", "--method", "org.freedesktop.DBus.Properties.Get",
                                  "org.freedesktop.IBus", "CurrentInputContext"])
        answer = r.output + r.stderr
        return r.succeeded && r.output.contains("InputContext_")
    }

    /// Waits until the input method has the app's focus again (after focus came back): keys
    /// sent before it grabs them again are lost or reach the app raw.
    public func waitForInputMethodFocus(timeout: Duration = .seconds(20)) throws {
        var answer = ""
        try Wait.until("the input method's input context to have focus", timeout: timeout, interval: Self.commandInterval,
                       diagnostics: { "last answer:\n" + indent(answer) + "\n" + self.trace.diagnostics(lastLines: 12) }) {
            try inputMethodHasFocus(answer: &answer)
        }
    }

    /// An input context of fcitx5's Wayland frontends with focus: `wayland_v2`
    /// (input-method-v2, sway) or `wayland` (input-method-v1, KWin).
    public static func hasFocusedWaylandContext(_ debugInfo: String) -> Bool {
        debugInfo.split(separator: "\n").contains {
            ($0.contains("frontend:wayland_v2 ") || $0.contains("frontend:wayland ")) && $0.contains("focus:1")
        }
    }

    /// Ends the app (SIGTERM), waits until fcitx5 no longer has a focused Wayland input
    /// context, and starts it again with `arguments` (its own new trace), focused as at
    /// start-up. The virtual keyboard and fcitx5 stay.
    public func restartApp(arguments: [String], timeout: Duration = .seconds(30)) throws {
        _ = try terminateApp()
        var info = ""
        // ibus-daemon keeps GNOME Shell's one input context current: the probe proves the new app's.
        if desktop != .gnome {
            try Wait.until("the input method's input context to lose focus after the app exited", timeout: timeout,
                           interval: Self.commandInterval, diagnostics: { "last answer:\n" + indent(info) }) {
                let focused = try inputMethodHasFocus(answer: &info)
                return !info.isEmpty && !focused
            }
        }
        (app, trace) = try Self.launchApp(session: session, client: sessionEnvironment, arguments: arguments,
                                          environment: appEnvironment)
        try waitForAppFocus(timeout: timeout)
    }

    // MARK: windows and the pointer

    /// Where a client's window is on the output, by its pid in sway's tree (`default_border
    /// none`: the container is the window) or KWin's window list (its frame: GTK draws its
    /// own decorations there), or nil while it is not mapped.
    public func windowRect(pid: Int32) throws -> (x: Int, y: Int, width: Int, height: Int)? {
        if let kwinScript {
            return try kwinScript.windows().first { $0.pid == pid }.map { ($0.x, $0.y, $0.width, $0.height) }
        }
        if let gnomeShell {
            return try gnomeShell.windows(in: session).first { $0.pid == pid }.map { ($0.x, $0.y, $0.width, $0.height) }
        }
        let r = try run("swaymsg", ["--raw", "-t", "get_tree"])
        guard r.succeeded, let tree = try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)),
              let node = Self.window(in: tree, pid: Int(pid)),
              let rect = node["rect"] as? [String: Any], let x = rect["x"] as? Int, let y = rect["y"] as? Int,
              let width = rect["width"] as? Int, let height = rect["height"] as? Int else { return nil }
        return (x, y, width, height)
    }

    /// A second client window: another composer process (the app is NON_UNIQUE) with its
    /// own profile and trace, to take keyboard focus away from the app the way switching
    /// windows does; returned once sway has mapped it. sway focuses a window as it maps;
    /// `focus(pid:)` gives focus back. The caller terminates it.
    public func launchOtherWindow() throws -> (process: AppProcess, trace: TraceLog) {
        let profile = session.directory.appendingPathComponent("other-profile").path
        let (other, otherTrace) = try Self.launchApp(session: session, client: sessionEnvironment,
                                                     arguments: ["--text", "", "--profile", profile],
                                                     environment: appEnvironment)
        try Wait.until("the second window to be mapped in sway's tree", timeout: .seconds(30),
                       interval: Self.commandInterval, diagnostics: { otherTrace.diagnostics() },
                       failFast: { try WaylandSession.requireRunning(other, "before its window mapped") }) {
            try self.windowRect(pid: other.pid) != nil
        }
        return (other, otherTrace)
    }

    /// Gives the window of process `pid` keyboard focus (`swaymsg [pid=N] focus`, or KWin's
    /// `workspace.activeClient`); the clients hear of it asynchronously (wait for their
    /// `focus` trace events).
    public func focus(pid: Int32) throws {
        if let kwinScript {
            guard try kwinScript.activate(pid: pid) else { throw session.failure("KWin has no window of pid \(pid)") }
            return
        }
        if let gnomeShell {
            guard try gnomeShell.call(in: session, "Activate", [String(pid)]).contains("true") else {
                throw session.failure("GNOME Shell has no window of pid \(pid)")
            }
            return
        }
        let r = try run("swaymsg", ["[pid=\(pid)] focus"])
        guard r.succeeded else { throw session.failure("swaymsg [pid=\(pid)] focus failed: \(r.output) \(r.stderr)") }
    }

    /// Moves vkbd's virtual pointer to `x`,`y` on the output and clicks the left button;
    /// returns once sway has processed it (wait for the app's reaction in the trace).
    public func click(x: Int, y: Int) throws {
        if let gnomeShell {
            _ = try gnomeShell.call(in: session, "Click", [String(x), String(y)])
            return
        }
        try command("motion_absolute \(x) \(y) \(Self.outputSize.width) \(Self.outputSize.height)")
        try command("click")
    }

    // MARK: GNOME Shell's on-screen keyboard

    /// GNOME Shell's on-screen keyboard (a session started with `onScreenKeyboard`).
    public func gnomeKeyboard() throws -> GnomeKeyboard {
        guard let gnomeShell else { throw HarnessError("GNOME's on-screen keyboard in a \(desktop.rawValue) session") }
        return try gnomeShell.keyboard(in: session)
    }

    /// Asks GNOME Shell to close its on-screen keyboard (`Main.keyboard.close()`).
    public func closeGnomeKeyboard() throws {
        guard let gnomeShell else { throw HarnessError("GNOME's on-screen keyboard in a \(desktop.rawValue) session") }
        _ = try gnomeShell.call(in: session, "CloseKeyboard", [])
    }

    /// Puts the frame of process `pid`'s window at `x`, `y`, as a user dragging it there.
    public func moveWindow(pid: Int32, x: Int, y: Int) throws {
        guard let gnomeShell else { throw HarnessError("moving a window in a \(desktop.rawValue) session") }
        guard try gnomeShell.call(in: session, "Move", [String(pid), String(x), String(y)]).contains("true") else {
            throw session.failure("GNOME Shell has no window of pid \(pid)")
        }
    }

    // MARK: vkbd

    /// Sends `key NAME` for each name (an xkb keysym name, optionally with modifiers:
    /// `ctrl+space`) and waits for vkbd's `ok` after each: sway has then processed the
    /// press and release (not yet fcitx5 or the app: wait for those in the trace).
    public func key(_ names: [String], timeout: Duration = .seconds(10)) throws {
        if let gnomeShell {
            // One call per key, as vkbd's one round trip per key: the shell has queued it.
            for name in names { _ = try gnomeShell.call(in: session, "Keys", ["['\(name)']"]) }
            return
        }
        for name in names {
            try command("key \(name)", timeout: timeout)
        }
    }

    /// One vkbd command line; waits for its reply and throws on `error …`.
    public func command(_ line: String, timeout: Duration = .seconds(10)) throws {
        let (fd, expected) = lock.withLock { () -> (Int32, Int) in
            commandsSent += 1
            return (vkbdInput, commandsSent)
        }
        guard fd >= 0 else { throw HarnessError("vkbd's input is closed (session stopped)") }
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw session.failure("writing `\(line)` to vkbd failed: \(String(cString: strerror(errno)))")
        }
        guard let keyboard = vkbd else { throw HarnessError("no vkbd in a \(desktop.rawValue) session") }
        let reply: String = try Wait.until("vkbd to answer `\(line)`", timeout: timeout,
                                           diagnostics: { keyboard.diagnostics() + "\n" + self.trace.diagnostics() },
                                           failFast: { try WaylandSession.requireRunning(keyboard, "") }) {
            let replies = Array(keyboard.stdout.split(separator: "\n").dropFirst())  // after "ready"
            return replies.count >= expected ? String(replies[expected - 1]) : nil
        }
        guard reply == "ok" else {
            throw session.failure("vkbd answered `\(reply)` to `\(line)`\n" + keyboard.diagnostics())
        }
    }

    // MARK: fcitx5

    /// `Controller1.<method>` (`DebugInfo`, `State`, `CurrentInputMethod`, …): the reply text.
    public func fcitxController(_ method: String) throws -> String {
        let r = try run("dbus-send", ["--session", "--print-reply=literal", "--dest=\(Fcitx5.busName)",
                                      Fcitx5.controllerPath, "\(Fcitx5.controllerInterface).\(method)"])
        guard r.succeeded else {
            throw HarnessError("Controller1.\(method) failed with status \(r.status): \(r.stderr)")
        }
        return r.stdout
    }

    // MARK: processes

    /// The environment of session clients (`swaymsg`, `dbus-send`).
    public var sessionEnvironment: [String: String] {
        var env = WaylandSession.baseEnvironment(session)
        env["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        env["WAYLAND_DISPLAY"] = waylandDisplay
        if let swaySocket { env["SWAYSOCK"] = swaySocket }
        return env
    }

    /// Runs a session client as the session user; a non-zero status is returned, not thrown.
    @discardableResult
    public func run(_ tool: String, _ arguments: [String], timeout: Duration = .seconds(10)) throws -> CommandResult {
        try WaylandSession.run(in: session, environment: sessionEnvironment, tool, arguments, timeout: timeout)
    }

    /// SIGTERM to the app; waits for it to exit and returns its exit status (its trace ends
    /// with `exit`).
    @discardableResult
    public func terminateApp(timeout: Duration = .seconds(10)) throws -> Int32 {
        app.terminate()
        return try app.waitForExit(timeout: timeout)
    }

    /// State of every process and the last trace lines, for error messages.
    public func diagnostics() -> String {
        let processes: [AppProcess?] = [app, vkbd, fcitx5, compositor, gnomeShell?.systemBus, bus]
        return processes.compactMap { $0 }.map { $0.diagnostics(lines: 8) }.joined(separator: "\n")
            + "\n" + trace.diagnostics(lastLines: 12)
    }

    /// Processes still carrying this session's marker (none after `stop()`).
    public func leftoverProcesses() -> [Int32] {
        WaylandSession.processes(withMarker: session.id)
    }

    /// Stops everything (see the type's documentation) and removes the session directory
    /// (kept under .build/harness-failures when a harness error was reported). Idempotent.
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
        let fd = lock.withLock { () -> Int32 in defer { vkbdInput = -1 }; return vkbdInput }
        if fd >= 0 { close(fd) }
    }

    /// The app first, then fcitx5 (no more keyboard grabs), then vkbd's EOF: its keyboard is
    /// destroyed only when nothing can grab it (sway 1.7 crashes otherwise).
    private func shutDownInputChain() {
        if app.isRunning {
            app.terminate()
            _ = try? app.waitForExit(timeout: .seconds(5))
        }
        if let fcitx5 {
            if fcitx5.isRunning {
                _ = try? fcitxController("Exit")
                _ = try? fcitx5.waitForExit(timeout: .seconds(3))
            }
        } else if desktop == .kde, compositor.isRunning {
            // KWin's fcitx5: gone once it no longer owns its bus name.
            _ = try? fcitxController("Exit")
            _ = try? Wait.until("fcitx5 to leave the bus", timeout: .seconds(3), interval: Self.commandInterval) {
                !(try WaylandSession.nameHasOwner(Fcitx5.busName, in: session, environment: sessionEnvironment))
            }
        }
        let fd = lock.withLock { () -> Int32 in defer { vkbdInput = -1 }; return vkbdInput }
        if fd >= 0 { close(fd) }
        _ = try? vkbd?.waitForExit(timeout: .seconds(3))
    }

    /// The window node of process `pid` in sway's tree (by pid alone: a second composer
    /// window, `launchOtherWindow`, has the same app_id).
    private static func window(in tree: Any, pid: Int) -> [String: Any]? {
        var stack: [Any] = [tree]
        while let next = stack.popLast() {
            guard let node = next as? [String: Any] else { continue }
            if node["type"] as? String == "con" || node["type"] as? String == "floating_con", node["pid"] as? Int == pid {
                return node
            }
            stack.append(contentsOf: node["nodes"] as? [Any] ?? [])
            stack.append(contentsOf: node["floating_nodes"] as? [Any] ?? [])
        }
        return nil
    }

    // MARK: the driver binary

    /// Tests/Drivers/vkbd.c, compiled with `cc` into `<IME_TEST_TOOLS_DIR or
    /// <package>/.build/test-tools>/vkbd` when missing or older than the source.
    static func vkbdBinary() throws -> String {
        let root = ComposerBinary.packageRoot
        let source = root.appendingPathComponent("Tests/Drivers/vkbd.c")
        let dirPath = ProcessInfo.processInfo.environment["IME_TEST_TOOLS_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? root.appendingPathComponent(".build/test-tools").path
        let dir = URL(fileURLWithPath: dirPath, isDirectory: true)
        let binary = dir.appendingPathComponent("vkbd")
        let fm = FileManager.default
        func modified(_ url: URL) -> Date? {
            (try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
        }
        guard let sourceDate = modified(source) else { throw HarnessError("\(source.path) is missing") }
        if let built = modified(binary), built >= sourceDate, fm.isExecutableFile(atPath: binary.path) {
            return binary.path
        }
        try fm.createDirectory(at: dir, withIntermediateDirectories: true)
        let build = try TestSession(name: "vkbd-build")
        defer { build.stop() }
        let flags = try build.run("pkg-config", ["--cflags", "--libs", "wayland-client", "xkbcommon"])
        guard flags.succeeded else {
            throw HarnessError("pkg-config wayland-client xkbcommon failed (install libwayland-dev libxkbcommon-dev): "
                + flags.stderr)
        }
        let temporary = dir.appendingPathComponent("vkbd.\(getpid()).tmp")
        let cc = try build.run("cc", ["-O2", "-Wall", "-Wextra", "-Werror", source.path, "-o", temporary.path]
            + flags.output.split(whereSeparator: \.isWhitespace).map(String.init), timeout: .seconds(60))
        guard cc.succeeded else {
            try? fm.removeItem(at: temporary)
            throw HarnessError("compiling \(source.path) failed:\n" + indent(cc.stdout + cc.stderr))
        }
        _ = chmod(temporary.path, 0o755)
        guard rename(temporary.path, binary.path) == 0 else {
            throw HarnessError("rename \(temporary.path) → \(binary.path): \(String(cString: strerror(errno)))")
        }
        return binary.path
    }

    /// `path`, or a copy in the session directory when the session user cannot run it there.
    private static func forSessionUser(_ path: String, in session: TestSession) throws -> String {
        if WaylandSession.executableBySessionUser(path) { return path }
        let dir = session.directory.appendingPathComponent("bin", isDirectory: true)
        try session.makeDirectory(dir)
        let copy = dir.appendingPathComponent((path as NSString).lastPathComponent)
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy.path)
        _ = chmod(dir.path, 0o755)
        _ = chmod(copy.path, 0o755)
        return copy.path
    }
}
