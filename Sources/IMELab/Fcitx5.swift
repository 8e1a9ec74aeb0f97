import Foundation

/// A private fcitx5 for one session (requires Xvfb and DBusSession already started).
///
/// The recipe every X11 Fcitx5 end-to-end test runs through:
/// the session's private XDG_CONFIG_HOME gets `fcitx5/profile` (one group: keyboard-us and
/// the chosen input method, which is the group's DefaultIM) and `fcitx5/config`
/// (`ActiveByDefault=True`, so the IM is active in a new input context, and
/// `ShareInputState=All`); the bus's activation environment is updated first (otherwise a
/// D-Bus activated second fcitx5 could start with the real HOME); then
/// `fcitx5 --replace --disable=notificationitem,kimpanel`, and the harness waits until the
/// bus name `org.fcitx.Fcitx5` has an owner and the controller reports the chosen IM.
///
///     let fcitx = try Fcitx5.start(in: session, inputMethod: .hangul)
///     // … start the app with GTK_IM_MODULE=fcitx XMODIFIERS=@im=fcitx, focus it …
///     try fcitx.waitForFocus(program: "ime-composer")
public final class Fcitx5: @unchecked Sendable {
    /// Input methods this harness configures (fcitx5 addon names).
    /// An fcitx5 input method, by the name of its `/usr/share/fcitx5/inputmethod/NAME.conf`:
    /// the lab's known ones below, or any other (`ime-composer matrix --engine fcitx5:NAME`).
    public struct InputMethod: RawRepresentable, Hashable, Sendable, Decodable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// fcitx5-anthy; starts in hiragana.
        public static let anthy = InputMethod(rawValue: "anthy")
        /// fcitx5-hangul; Dubeolsik layout by default (`g k s r m f` → 한글).
        public static let hangul = InputMethod(rawValue: "hangul")
        /// fcitx5-chinese-addons pinyin (`nihao` Space → 你好).
        public static let pinyin = InputMethod(rawValue: "pinyin")
        /// fcitx5-chewing (Zhuyin, standard layout).
        public static let chewing = InputMethod(rawValue: "chewing")
        /// fcitx5-unikey (Vietnamese Telex).
        public static let unikey = InputMethod(rawValue: "unikey")
        /// fcitx5-mozc (Japanese; hiragana when activated). mozc_server refuses root.
        public static let mozc = InputMethod(rawValue: "mozc")
    }

    public static let busName = "org.fcitx.Fcitx5"
    /// Addons left off: the tray and panel (no desktop to show them) and cloud pinyin (it
    /// would ask a server on the network for candidates: results must not depend on one).
    static let disabledAddons = "notificationitem,kimpanel,cloudpinyin"
    static let controllerPath = "/controller"
    static let controllerInterface = "org.fcitx.Fcitx.Controller1"

    public let session: TestSession
    public let process: AppProcess
    public let inputMethod: InputMethod

    /// Writes the profile and config, starts fcitx5 and waits until it owns its bus name
    /// and reports `inputMethod` as the current input method.
    public static func start(in session: TestSession, inputMethod: InputMethod,
                             timeout: Duration = .seconds(30)) throws -> Fcitx5 {
        guard session.display != nil, session.dbusAddress != nil else {
            throw session.failure("Fcitx5.start: start Xvfb and DBusSession first")
        }
        try Prerequisites.require(Prerequisites.fcitx5)
        try Prerequisites.requireFcitx5InputMethod(inputMethod.rawValue)
        try writeConfiguration(session, inputMethod: inputMethod)

        // D-Bus activated services (fcitx5 itself, if something asks for it before it owns
        // the name, and the helpers it activates) must get the private session, not the
        // real one; the marker variable lets TestSession.stop() find them.
        try session.runChecked("dbus-update-activation-environment",
                               ["DISPLAY", "HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME",
                                "XDG_RUNTIME_DIR", "PATH", "LANG", TestSession.markerVariable])

        let p = try session.launch("fcitx5", executable: "fcitx5",
                                   arguments: ["--replace", "--disable=\(disabledAddons)"])
        let fcitx = Fcitx5(session: session, process: p, inputMethod: inputMethod)
        // Graceful shutdown first (Controller1.Exit; SIGTERM makes fcitx5 print a crash
        // backtrace), then TestSession.stop() takes down the process group.
        session.onStop { [weak fcitx] in fcitx?.exitGracefully() }
        do {
            try Wait.until("fcitx5 to own the bus name \(busName)", timeout: timeout,
                           interval: .milliseconds(50),
                           diagnostics: { fcitx.diagnostics() },
                           failFast: { try fcitx.checkRunning("startup") }) {
                try fcitx.nameHasOwner()
            }
            var last = ""
            try Wait.until("fcitx5 to report '\(inputMethod.rawValue)' as its current input method",
                           timeout: timeout, interval: .milliseconds(50),
                           diagnostics: { "last CurrentInputMethod: '\(last)'\n" + fcitx.diagnostics() },
                           failFast: { try fcitx.checkRunning("startup") }) {
                last = (try? fcitx.currentInputMethod()) ?? ""
                return last == inputMethod.rawValue
            }
        } catch {
            session.markFailed()
            throw error
        }
        return fcitx
    }

    /// `$XDG_CONFIG_HOME/fcitx5/profile` and `…/config` for one group with keyboard-us and
    /// `inputMethod` (the DefaultIM).
    static func writeConfiguration(_ session: TestSession, inputMethod: InputMethod) throws {
        let dir = session.configHome.appendingPathComponent("fcitx5", isDirectory: true)
        try session.makeDirectory(dir)
        let profile = """
            [Groups/0]
            Name=Default
            Default Layout=us
            DefaultIM=\(inputMethod.rawValue)

            [Groups/0/Items/0]
            Name=keyboard-us
            Layout=

            [Groups/0/Items/1]
            Name=\(inputMethod.rawValue)
            Layout=

            [GroupOrder]
            0=Default

            """
        let config = """
            [Behavior]
            ActiveByDefault=True
            ShareInputState=All

            """
        try profile.write(to: dir.appendingPathComponent("profile"), atomically: true, encoding: .utf8)
        try config.write(to: dir.appendingPathComponent("config"), atomically: true, encoding: .utf8)
    }

    private init(session: TestSession, process: AppProcess, inputMethod: InputMethod) {
        self.session = session
        self.process = process
        self.inputMethod = inputMethod
    }

    // MARK: D-Bus

    /// `dbus-send --print-reply=literal` to the controller; returns the reply text.
    /// A failed call throws without marking the session failed: callers poll with it.
    private func controller(_ method: String, _ arguments: [String] = []) throws -> String {
        let r = try session.run("dbus-send",
                                ["--session", "--print-reply=literal", "--dest=\(Self.busName)",
                                 Self.controllerPath, "\(Self.controllerInterface).\(method)"] + arguments,
                                timeout: .seconds(5))
        guard r.succeeded else {
            throw HarnessError("Controller1.\(method) failed with status \(r.status): "
                + r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return r.stdout
    }

    /// True once some connection owns `org.fcitx.Fcitx5`.
    public func nameHasOwner() throws -> Bool {
        let r = try session.run("dbus-send",
                                ["--session", "--print-reply=literal", "--dest=org.freedesktop.DBus",
                                 "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                                 "string:\(Self.busName)"], timeout: .seconds(5))
        return r.succeeded && r.output.hasSuffix("true")
    }

    /// `Controller1.CurrentInputMethod`: the IM of the focused input context (or the
    /// default group's IM when none is focused).
    public func currentInputMethod() throws -> String {
        try controller("CurrentInputMethod").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `Controller1.SetCurrentIM`; waits until `currentInputMethod()` reports it.
    /// The IM must be in the profile's group (only keyboard-us and `inputMethod` are).
    public func setCurrentInputMethod(_ name: String, timeout: Duration = .seconds(10)) throws {
        _ = try controller("SetCurrentIM", ["string:\(name)"])
        try Wait.until("fcitx5 to report '\(name)' as its current input method", timeout: timeout,
                       interval: .milliseconds(50), diagnostics: { self.diagnostics() }) {
            try currentInputMethod() == name
        }
    }

    /// `Controller1.DebugInfo`: the groups and their input contexts, one per line, e.g.
    /// `IC [8df8…] program:ime-composer frontend:dbus cap:4000000052 focus:1`.
    public func debugInfo() throws -> String { try controller("DebugInfo") }

    /// The DebugInfo lines of input contexts whose program is `program`.
    public func inputContexts(program: String) throws -> [String] {
        try debugInfo().split(separator: "\n").map(String.init)
            .filter { $0.contains("program:\(program) ") || $0.hasSuffix("program:\(program)") }
    }

    /// Waits until fcitx5 has an input context for `program` (its GTK IM module connected).
    public func waitForInputContext(program: String, timeout: Duration = .seconds(20)) throws {
        var last = ""
        do {
            try Wait.until("fcitx5 to list an input context of program:\(program) (Controller1.DebugInfo)",
                           timeout: timeout, interval: .milliseconds(50),
                           diagnostics: { "last DebugInfo:\n" + indent(last) + "\n" + self.diagnostics() },
                           failFast: { try self.checkRunning("waitForInputContext") }) {
                last = (try? debugInfo()) ?? last
                return try !inputContexts(program: program).isEmpty
            }
        } catch {
            session.markFailed()
            throw error
        }
    }

    /// Waits until an input context of `program` has `focus:1` in `Controller1.DebugInfo`.
    ///
    /// Observed with ime-composer (fcitx5 5.0.21, fcitx5-gtk4): the context is listed with
    /// `focus:0` after the window is focused, and only turns `focus:1` (and gains the
    /// surrounding-text capability, cap …12 → …52) once the first key reaches it; so a caller
    /// may first need to send a key (ComposerSession sends a probe key and cancels it).
    public func waitForFocus(program: String, timeout: Duration = .seconds(20)) throws {
        var last = ""
        do {
            try Wait.until("fcitx5's input context of program:\(program) to have focus:1 (Controller1.DebugInfo)",
                           timeout: timeout, interval: .milliseconds(50),
                           diagnostics: { "last DebugInfo:\n" + indent(last) + "\n" + self.diagnostics() },
                           failFast: { try self.checkRunning("waitForFocus") }) {
                last = (try? debugInfo()) ?? last
                return try hasFocus(program: program)
            }
        } catch {
            session.markFailed()
            throw error
        }
    }

    /// True if an input context of `program` is listed with `focus:1`.
    public func hasFocus(program: String) throws -> Bool {
        try inputContexts(program: program).contains { $0.contains("focus:1") }
    }

    // MARK: lifecycle

    /// Stops fcitx5: Controller1.Exit, then SIGTERM to its process group, then SIGKILL.
    public func stop() {
        exitGracefully()
        process.stop()
    }

    private func exitGracefully() {
        guard process.isRunning else { return }
        _ = try? controller("Exit")
        _ = try? process.waitForExit(timeout: .seconds(3))
    }

    public func diagnostics() -> String { process.diagnostics() }

    private func checkRunning(_ phase: String) throws {
        if !process.isRunning {
            throw session.failure("fcitx5 exited during \(phase)\n" + diagnostics())
        }
    }
}

extension Prerequisites {
    public static let fcitx5 = ["fcitx5", "dbus-send", "dbus-update-activation-environment"]

    /// Checks that a fcitx5 input method addon (e.g. "anthy", "hangul") and the GTK 4
    /// fcitx5 IM module are installed.
    public static func requireFcitx5InputMethod(_ name: String) throws {
        let conf = "/usr/share/fcitx5/inputmethod/\(name).conf"
        if !FileManager.default.fileExists(atPath: conf) {
            // One of the lab's engines: install-deps.sh installs it.
            let known = ((try? MatrixEngine.load()) ?? []).contains {
                $0.kind.fcitxInputMethod?.rawValue == name || $0.wayland?.inputMethod.rawValue == name
            }
            throw HarnessError("fcitx5 input method '\(name)' is not installed (\(conf) missing). "
                + (known ? "Run scripts/install-deps.sh (or `make deps`) to install the lab's engines."
                         : "The lab drives an input method an addon installs there (not fcitx5's built-in keyboard layouts)."))
        }
        // /usr/lib/<multiarch>/gtk-4.0/4.0.0/immodules/libim-fcitx5.so
        let lib = URL(fileURLWithPath: "/usr/lib", isDirectory: true)
        let dirs = ((try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []).map { lib.path + "/" + $0 }
            + [lib.path]
        if !dirs.contains(where: { FileManager.default.fileExists(atPath: $0 + "/gtk-4.0/4.0.0/immodules/libim-fcitx5.so") }) {
            throw HarnessError("the GTK 4 fcitx5 IM module (libim-fcitx5.so) is not installed. "
                + "Run scripts/install-deps.sh (or `make deps`) to install fcitx5-frontend-gtk4.")
        }
    }
}
