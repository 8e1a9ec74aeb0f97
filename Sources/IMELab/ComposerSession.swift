import Foundation
import ComposerCore

/// Which input method the app gets: a framework (IBus, Fcitx5, GTK's simple context, or
/// fcitx5 as a Wayland compositor's input method) and, for IBus and Fcitx5, the engine.
/// The lab's known engines are the static members (each with an engine file in
/// `data/lab/engines/`); `ibus(_:)` and `fcitx5(_:)` name any other installed engine
/// (`ime-composer matrix --engine ibus:NAME`), which the matrix judges by invariants.
public struct InputMethodKind: Hashable, Sendable, CustomStringConvertible {
    public enum Framework: String, Sendable {
        case ibus, fcitx5
        case gtkSimple = "gtk-simple"
        /// fcitx5 as sway's input method (input-method-v2), GTK's `wayland` module
        /// (text-input-v3): `WaylandIMSession`, not `ComposerSession`.
        case waylandFcitx5 = "wayland-fcitx5"
        /// fcitx5 as KDE Plasma's KWin's input method (input-method-v1, KWin starts it),
        /// GTK's `wayland` module: `WaylandIMSession` with `desktop: .kde`.
        case kdeFcitx5 = "kde-fcitx5"
        /// IBus through GNOME Shell (the shell passes text-input-v3 to ibus-daemon), GTK's
        /// `wayland` module: `WaylandIMSession` with `desktop: .gnome`.
        case gnomeIBus = "gnome-ibus"
    }

    /// A key the engine composes into a preedit containing `preedit` (any preedit when
    /// empty), and the key that empties the preedit again: proves the engine is attached.
    public struct Probe: Hashable, Sendable {
        public let key: String
        public let preedit: String
        public let cancelKey: String
        public init(key: String, preedit: String, cancelKey: String) {
            self.key = key
            self.preedit = preedit
            self.cancelKey = cancelKey
        }
    }

    /// The name tests, transcripts and the matrix use (the Debian package's name, plus the
    /// m17n table where one package has many; `ibus:NAME` / `fcitx5:NAME` for the others).
    public let slug: String
    public let framework: Framework
    /// The IBus engine (`ibus engine NAME`) or the fcitx5 input method's name.
    public let engineName: String?
    /// The IBus component (`/usr/share/ibus/component/NAME.xml`) that provides the engine.
    public let ibusComponent: String?
    public let probe: Probe?
    /// Whether the session must run as an unprivileged user (`TestSession.unprivileged`):
    /// mozc_server exits at once under root.
    public let runsUnprivileged: Bool

    public init(slug: String, framework: Framework, engineName: String? = nil, ibusComponent: String? = nil,
                probe: Probe?, runsUnprivileged: Bool = false) {
        self.slug = slug
        self.framework = framework
        self.engineName = engineName
        self.ibusComponent = ibusComponent
        self.probe = probe
        self.runsUnprivileged = runsUnprivileged
    }

    public var description: String { slug }

    var gtkIMModule: String {
        switch framework {
        case .ibus: "ibus"
        case .fcitx5: "fcitx"
        case .waylandFcitx5, .kdeFcitx5, .gnomeIBus: "wayland"
        case .gtkSimple: "gtk-im-context-simple"
        }
    }

    /// The IBus engine name (`ibus engine NAME`).
    public var ibusEngine: String? { framework == .ibus ? engineName : nil }

    public var fcitxInputMethod: Fcitx5.InputMethod? {
        framework == .fcitx5 ? engineName.map(Fcitx5.InputMethod.init(rawValue:)) : nil
    }

    private static func probe(_ key: String, _ preedit: String, _ cancel: String) -> Probe {
        Probe(key: key, preedit: preedit, cancelKey: cancel)
    }

    /// ibus-daemon with ibus-anthy in hiragana mode (`GTK_IM_MODULE=ibus`).
    public static let ibusAnthy = Self(slug: "ibus-anthy", framework: .ibus, engineName: "anthy", ibusComponent: "anthy",
                                       probe: probe("a", "あ", "Escape"))
    /// ibus-daemon with ibus-hangul in Hangul mode (`GTK_IM_MODULE=ibus`).
    public static let ibusHangul = Self(slug: "ibus-hangul", framework: .ibus, engineName: "hangul", ibusComponent: "hangul",
                                        probe: probe("r", "ㄱ", "BackSpace"))
    /// GTK's built-in simple context (`GTK_IM_MODULE=gtk-im-context-simple`), no daemon.
    public static let gtkSimple = Self(slug: "gtk-simple", framework: .gtkSimple, probe: nil)
    /// fcitx5 with fcitx5-anthy (hiragana) as its input method (`GTK_IM_MODULE=fcitx`).
    public static let fcitxAnthy = Self(slug: "fcitx5-anthy", framework: .fcitx5, engineName: "anthy",
                                        probe: probe("a", "あ", "Escape"))
    /// fcitx5 with fcitx5-hangul (Dubeolsik) as its input method (`GTK_IM_MODULE=fcitx`).
    public static let fcitxHangul = Self(slug: "fcitx5-hangul", framework: .fcitx5, engineName: "hangul",
                                         probe: probe("r", "ㄱ", "BackSpace"))
    /// ibus-libpinyin (Chinese pinyin; `nihao` Space → 你好).
    public static let ibusLibpinyin = Self(slug: "ibus-libpinyin", framework: .ibus, engineName: "libpinyin",
                                           ibusComponent: "libpinyin", probe: probe("n", "", "Escape"))
    /// ibus-chewing (Chinese Zhuyin, standard layout; `s u 3` → 你).
    public static let ibusChewing = Self(slug: "ibus-chewing", framework: .ibus, engineName: "chewing",
                                         ibusComponent: "chewing", probe: probe("s", "ㄋ", "BackSpace"))
    /// ibus-table's Cangjie 5 (`o n f` Space → 你).
    public static let ibusCangjie = Self(slug: "ibus-table-cangjie5", framework: .ibus, engineName: "table:cangjie5",
                                         ibusComponent: "table", probe: probe("o", "人", "Escape"))
    /// ibus-unikey (Vietnamese Telex in a preedit; `tieengs` → tiếng).
    public static let ibusUnikey = Self(slug: "ibus-unikey", framework: .ibus, engineName: "Unikey",
                                        ibusComponent: "unikey", probe: probe("a", "a", "BackSpace"))
    /// ibus-m17n `vi-telex` (Vietnamese; reads surrounding text on every key).
    public static let ibusViTelex = Self(slug: "ibus-m17n-vi-telex", framework: .ibus, engineName: "m17n:vi:telex",
                                         ibusComponent: "m17n", probe: probe("a", "a", "BackSpace"))
    /// ibus-m17n `hi-inscript` (Hindi, Devanagari InScript: graphemes of several scalars).
    public static let ibusHiInscript = Self(slug: "ibus-m17n-hi-inscript", framework: .ibus, engineName: "m17n:hi:inscript",
                                            ibusComponent: "m17n", probe: probe("d", "\u{94D}", "BackSpace"))
    /// fcitx5-chinese-addons pinyin.
    public static let fcitxPinyin = Self(slug: "fcitx5-pinyin", framework: .fcitx5, engineName: "pinyin",
                                         probe: probe("n", "n", "Escape"))
    /// fcitx5-chewing (Zhuyin).
    public static let fcitxChewing = Self(slug: "fcitx5-chewing", framework: .fcitx5, engineName: "chewing",
                                          probe: probe("s", "ㄋ", "BackSpace"))
    /// fcitx5-unikey (Vietnamese Telex).
    public static let fcitxUnikey = Self(slug: "fcitx5-unikey", framework: .fcitx5, engineName: "unikey",
                                         probe: probe("a", "a", "BackSpace"))
    /// ibus-mozc (Japanese), started in hiragana (`IBus.configureEngines`). Its conversion
    /// server refuses root: the whole session runs as an unprivileged user.
    public static let ibusMozc = Self(slug: "ibus-mozc", framework: .ibus, engineName: "mozc-jp", ibusComponent: "mozc",
                                      probe: probe("a", "あ", "Escape"), runsUnprivileged: true)
    /// fcitx5-mozc (Japanese; hiragana once fcitx5 activates it), unprivileged likewise.
    public static let fcitxMozc = Self(slug: "fcitx5-mozc", framework: .fcitx5, engineName: "mozc",
                                       probe: probe("a", "あ", "Escape"), runsUnprivileged: true)
    /// fcitx5-anthy as sway's input method, GTK's `wayland` module: `WaylandIMSession`.
    public static let waylandFcitxAnthy = Self(slug: "wayland-fcitx5-anthy", framework: .waylandFcitx5,
                                               engineName: "anthy", probe: probe("a", "あ", "Escape"))
    /// fcitx5-hangul the same way.
    public static let waylandFcitxHangul = Self(slug: "wayland-fcitx5-hangul", framework: .waylandFcitx5,
                                                engineName: "hangul", probe: probe("r", "ㄱ", "BackSpace"))
    /// fcitx5-anthy as KWin's input method (KDE Plasma), GTK's `wayland` module.
    public static let kdeFcitxAnthy = Self(slug: "kde-fcitx5-anthy", framework: .kdeFcitx5,
                                           engineName: "anthy", probe: probe("a", "あ", "Escape"))
    /// fcitx5-hangul the same way.
    public static let kdeFcitxHangul = Self(slug: "kde-fcitx5-hangul", framework: .kdeFcitx5,
                                            engineName: "hangul", probe: probe("r", "ㄱ", "BackSpace"))
    /// fcitx5's pinyin (fcitx5-chinese-addons) the same way.
    public static let kdeFcitxPinyin = Self(slug: "kde-fcitx5-pinyin", framework: .kdeFcitx5,
                                            engineName: "pinyin", probe: probe("n", "n", "Escape"))

    /// ibus-hangul through GNOME Shell, GTK's `wayland` module.
    public static let gnomeIBusHangul = Self(slug: "gnome-ibus-hangul", framework: .gnomeIBus,
                                             engineName: "hangul", probe: probe("r", "ㄱ", "BackSpace"))
    /// ibus-libpinyin the same way.
    public static let gnomeIBusLibpinyin = Self(slug: "gnome-ibus-libpinyin", framework: .gnomeIBus,
                                                engineName: "libpinyin", probe: probe("n", "", "Escape"))
    /// ibus-anthy the same way.
    public static let gnomeIBusAnthy = Self(slug: "gnome-ibus-anthy", framework: .gnomeIBus,
                                            engineName: "anthy", probe: probe("a", "あ", "Escape"))

    /// The lab's known engines, in the matrix's order.
    public static let allCases: [InputMethodKind] = [
        .ibusAnthy, .ibusHangul, .gtkSimple, .fcitxAnthy, .fcitxHangul, .ibusLibpinyin, .ibusChewing, .ibusCangjie,
        .ibusUnikey, .ibusViTelex, .ibusHiInscript, .fcitxPinyin, .fcitxChewing, .fcitxUnikey, .ibusMozc, .fcitxMozc,
        .waylandFcitxAnthy, .waylandFcitxHangul, .kdeFcitxAnthy, .kdeFcitxHangul, .kdeFcitxPinyin,
        .gnomeIBusAnthy, .gnomeIBusHangul, .gnomeIBusLibpinyin,
    ]

    /// An IBus engine the lab has no file for, by its IBus name (`m17n:hi:itrans`): its
    /// component is found among the installed ones (`IBus.component(providing:)`), and it
    /// is proven attached by `probeKey` showing any preedit (Escape ends it).
    public static func ibus(_ name: String, probeKey: String) -> InputMethodKind {
        Self(slug: "ibus:" + name, framework: .ibus, engineName: name, ibusComponent: IBus.component(providing: name),
             probe: probe(probeKey, "", "Escape"), runsUnprivileged: name.hasPrefix("mozc"))
    }

    /// An fcitx5 input method the lab has no file for, by its name (its
    /// `/usr/share/fcitx5/inputmethod/NAME.conf`).
    public static func fcitx5(_ name: String, probeKey: String) -> InputMethodKind {
        Self(slug: "fcitx5:" + name, framework: .fcitx5, engineName: name,
             probe: probe(probeKey, "", "Escape"), runsUnprivileged: name.hasPrefix("mozc"))
    }
}

/// The whole end-to-end setup in one call: Xvfb, D-Bus, IBus (for IBus kinds), then
/// `ime-composer --trace <session>/trace.jsonl <extra args>` with the IM module set, its
/// window found and focused (`windowfocus --sync`), the trace's `{"ev":"ready"}` seen and,
/// for IBus, the engine selected (after focus, as the recipe requires).
///
///     let cs = try ComposerSession(.ibusAnthy)
///     defer { cs.stop() }
///     try cs.xdotool.key(["k", "o"])
///     let commit = try cs.trace.waitFor(event: "commit")
public final class ComposerSession: @unchecked Sendable {
    public static let windowTitle = "IME Composer"
    /// The app under test runs with GLib warnings and criticals fatal (as `g_test_init`
    /// makes them in GNOME's tests): one aborts the app, and the test waiting on it fails
    /// with the app's stderr, which names the message. The app's own switch, not
    /// G_DEBUG=fatal-warnings, so that the exact upstream bugs of `UpstreamProblem.known`
    /// (also checked there) are let through.
    public static let fatalGLibProblems = ["IME_COMPOSER_FATAL_WARNINGS": "1"]

    public let kind: InputMethodKind
    public let session: TestSession
    public let xvfb: Xvfb
    public let dbus: DBusSession
    public let ibus: IBus?
    /// The private fcitx5, for the Fcitx5 kinds.
    public let fcitx: Fcitx5?
    /// The app under test (a new one after `restartApp`).
    public private(set) var app: AppProcess
    public private(set) var trace: TraceLog
    public let xdotool: XDoTool
    /// X window id of the composer window.
    public private(set) var window: String
    /// The app's executable and environment (kept for `restartApp`).
    private let binary: String
    private let appEnvironment: [String: String]
    private let startTimeout: Duration
    private var launches = 0
    public var traceURL: URL { trace.url }

    /// - Parameters:
    ///   - arguments: extra `ime-composer` arguments (e.g. `["--text", "abc", "--caret", "1"]`).
    ///   - environment: extra environment for the app only.
    ///   - binary: the executable (default `ComposerBinary.path`).
    ///   - ibusPanel: IBus's own panel runs (its candidate window on the display).
    ///   - beforeLaunch: runs once the session bus is up, before the app starts (a service
    ///     the app looks for at start-up, such as a session manager).
    public init(_ kind: InputMethodKind, arguments: [String] = [], environment: [String: String] = [:],
                binary: String? = nil, name: String? = nil, timeout: Duration = .seconds(30),
                ibusPanel: Bool = false, beforeLaunch: ((TestSession) throws -> Void)? = nil) throws {
        try Prerequisites.require(kind)
        self.kind = kind
        let session = try TestSession(name: name ?? kind.slug, unprivileged: kind.runsUnprivileged)
        self.session = session
        do {
            // The session user may not reach the build directory: it gets a copy then.
            let binary = try binary ?? (session.unprivileged ? WaylandSession.binaryForSessionUser(session)
                                                              : ComposerBinary.path)
            xvfb = try Xvfb.start(in: session)
            dbus = try DBusSession.start(in: session)
            if kind.ibusEngine != nil {
                try IBus.configureEngines(session)
                ibus = try IBus.start(in: session, panel: ibusPanel)
            } else {
                ibus = nil
            }
            fcitx = try kind.fcitxInputMethod.map { try Fcitx5.start(in: session, inputMethod: $0) }
            try beforeLaunch?(session)
            var env = environment
            env["GTK_IM_MODULE"] = kind.gtkIMModule
            env["GDK_BACKEND"] = env["GDK_BACKEND"] ?? "x11"
            env.merge(ComposerSession.fatalGLibProblems) { mine, _ in mine }
            if kind.ibusEngine != nil { env["XMODIFIERS"] = env["XMODIFIERS"] ?? "@im=ibus" }
            if kind.fcitxInputMethod != nil { env["XMODIFIERS"] = env["XMODIFIERS"] ?? "@im=fcitx" }
            self.binary = binary
            appEnvironment = env
            startTimeout = timeout
            xdotool = XDoTool(session: session)
            (app, trace) = try Self.launchApp(in: session, binary: binary, arguments: arguments,
                                              environment: env, traceName: "trace.jsonl")
            window = try Self.awaitWindow(app, trace, xdotool: xdotool, timeout: timeout)
            try attachInputMethod(selectEngine: true)
        } catch {
            session.markFailed()
            session.stop()
            throw error
        }
    }

    /// Starts `binary --trace <session>/<traceName> arguments` (see `awaitWindow`).
    private static func launchApp(in session: TestSession, binary: String, arguments: [String],
                                  environment: [String: String], traceName: String) throws -> (AppProcess, TraceLog) {
        let traceURL = session.directory.appendingPathComponent(traceName)
        let app = try session.launch("ime-composer", executable: binary,
                                     arguments: ["--trace", traceURL.path] + arguments, environment: environment)
        return (app, TraceLog(url: traceURL, watching: app, session: session))
    }

    /// Finds and focuses the app's window and waits for the trace's `ready`.
    private static func awaitWindow(_ app: AppProcess, _ trace: TraceLog, xdotool: XDoTool, timeout: Duration) throws -> String {
        let window = try xdotool.waitForWindow(pid: app.pid, name: windowTitle, process: app, timeout: timeout)
        try xdotool.focus(window)
        try trace.waitFor(event: "ready", timeout: timeout)
        return window
    }

    /// Makes sure the engine answers the app's (new) input context: selects the IBus
    /// engine (after focus, as the recipe requires) or waits for fcitx5's context, then
    /// probes.
    private func attachInputMethod(selectEngine: Bool) throws {
        if let ibus, let engine = kind.ibusEngine {
            if selectEngine { try ibus.setEngine(engine, timeout: startTimeout) }
            try waitUntilEngineAnswers()
        }
        if let fcitx {
            // The input context exists but stays focus:0 until a key reaches it (see
            // Fcitx5.waitForFocus): the probe proves the engine answers, then DebugInfo
            // must show the app's context focused.
            let program = (binary as NSString).lastPathComponent
            try fcitx.waitForInputContext(program: program, timeout: startTimeout)
            try waitUntilEngineAnswers()
            try fcitx.waitForFocus(program: program, timeout: startTimeout)
        }
    }

    /// Ends the app (SIGTERM; its status must be 0) and starts a new one in the same
    /// session (same X server, bus and input method) with other arguments: the scenarios
    /// of one engine share the session's start-up. The new trace is `trace-N.jsonl`;
    /// `trace`, `app`, `window` and `probeEndIndex` then refer to the new app.
    ///
    /// - Parameter probing: whether to wait until the engine answers the probe key. An app
    ///   started so that the engine must not compose (`--input-purpose password`) cannot
    ///   be probed: then the test itself must show the engine was there (the same start
    ///   without the setting composing at once).
    public func restartApp(arguments: [String], probing: Bool = true) throws {
        let status = try terminateApp()
        guard status == 0 else { throw session.failure("the app exited with status \(status) before a restart") }
        launches += 1
        // `app` and `trace` are the new app's at once: a failed start-up is examined there.
        (app, trace) = try Self.launchApp(in: session, binary: binary, arguments: arguments,
                                          environment: appEnvironment, traceName: "trace-\(launches).jsonl")
        window = try Self.awaitWindow(app, trace, xdotool: xdotool, timeout: startTimeout)
        probeEndIndex = 0
        if probing { try attachInputMethod(selectEngine: false) } else { probeEndIndex = trace.entries.count }
    }

    /// Types the kind's probe key until the engine shows its preedit, then cancels it.
    ///
    /// `ibus engine X` returns before the engine is attached to the app's input context;
    /// keys sent in between are lost or reordered (seen here: こねこ became おね…). The only
    /// reliable sign that the engine is attached is the engine answering, so ask it.
    /// Fails if the probe committed anything: the test would start from dirty text.
    private func waitUntilEngineAnswers(_ kind: InputMethodKind? = nil) throws {
        let kind = kind ?? self.kind
        guard let probe = kind.probe else { return }
        // What the input holds before the probe (the app's `--text` or saved draft at start,
        // whatever the test typed or sent before a `switchEngine`): the probe must leave it so.
        let textBefore = trace.events(named: "text").last?["text"]?.stringValue ?? ""
        var answered = false
        for _ in 0..<8 where !answered {
            let start = trace.entries.count
            try xdotool.key([probe.key])
            answered = trace.poll("the engine's probe preedit \(probe.preedit)",
                                  timeout: .milliseconds(1500), from: start, where: {
                guard $0["ev"]?.stringValue == "preedit", let text = $0["text"]?.stringValue, !text.isEmpty else { return false }
                return probe.preedit.isEmpty || text.contains(probe.preedit)
            }) != nil
            // An engine still being activated may answer and then reset itself: fcitx5-mozc
            // showed あ and emptied it 1 ms later, with no key (run 17 of #31). Then the
            // cancel key has no composition to end: probe again once it is gone.
            if answered, !isComposing(since: start) {
                answered = false
                try restoreText(textBefore)
            }
        }
        guard answered else {
            throw session.failure("the \(kind.slug) engine never answered the probe key \(probe.key)"
                + (probe.preedit.isEmpty ? " with a preedit (an engine the lab has no file for is probed with the first of its keys: --keys)" : ""))
        }
        let cancelFrom = trace.entries.count
        try xdotool.key([probe.cancelKey])
        // The composition is over (ended by the cancel key, or, should the engine reset it
        // just before, by then: the key is still traced).
        _ = try Wait.until("the probe preedit to end", timeout: .seconds(20), diagnostics: { self.trace.diagnostics() }) { () -> Bool? in
            let entries = self.trace.entries
            let keyIn = entries.dropFirst(cancelFrom).contains { $0.name == "key" && $0.value["keyval"]?.stringValue == probe.cancelKey }
            return keyIn && !self.isComposing(since: 0) ? true : nil
        }
        try restoreText(textBefore)
        probeEndIndex = trace.entries.count
    }

    /// Whether a composition is on screen (the trace's entries from index `since`, which
    /// must be before the composition began).
    private func isComposing(since: Int) -> Bool { trace.entries.dropFirst(since).isComposing }

    /// A second X client (xev) to take keyboard focus away from the app, as switching
    /// windows does, and its window once mapped; `xdotool.focus` moves the focus between
    /// them. The caller terminates it.
    public func launchOtherWindow() throws -> (process: AppProcess, window: String) {
        let other = try session.launch("xev", executable: "xev", arguments: ["-event", "focus"])
        return (other, try xdotool.waitForWindow(pid: other.pid, name: "Event Tester", process: other))
    }

    /// Clicks in the input bar, `x` px from the window's left edge and `fromBottom` px above
    /// the panel's bottom (default: the input's middle), from the trace's last `layout` line.
    public func clickInTheInput(x: Int = 10, fromBottom: Int? = nil) throws {
        guard let layout = trace.events(named: "layout").last, let height = layout["panel"]?.arrayValue?.last?.intValue,
              let input = layout["input"]?.intValue, let keyboard = layout["keyboard"]?.intValue else {
            throw session.failure("no layout line to click by\n" + trace.diagnostics())
        }
        let y = height - (fromBottom ?? keyboard + input / 2)
        try session.runChecked("xdotool", ["mousemove", "--window", window, String(x), String(y), "click", "1"])
    }

    /// Keys sent before the engine was attached come back unconsumed and GTK types them
    /// raw ("a"): delete them again so the test goes on from the text it had, `before`
    /// (the text just before the probe, not the app's first: after a `switchEngine` the
    /// test may have typed or sent since, and that is not the probe's to undo).
    private func restoreText(_ before: String) throws {
        guard let current = trace.events(named: "text").last?["text"]?.stringValue, current != before else { return }
        let extra = current.unicodeScalars.count - before.unicodeScalars.count
        guard extra > 0 else {
            throw session.failure("the engine probe changed the text from \(before) to \(current)")
        }
        let from = trace.entries.count
        try xdotool.key(Array(repeating: "BackSpace", count: extra))
        try trace.waitFor("the text to be back to \(before) after the probe", from: from) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == before
        }
    }

    /// Switches an IBus session to another IBus engine (both are configured at start) and
    /// waits until that engine answers. Updates `probeEndIndex`.
    public func switchEngine(to other: InputMethodKind, timeout: Duration = .seconds(30)) throws {
        guard let ibus, let engine = other.ibusEngine else {
            throw session.failure("switchEngine(to: \(other)) needs an IBus session and an IBus engine")
        }
        try ibus.setEngine(engine, timeout: timeout)
        try waitUntilEngineAnswers(other)
    }

    /// Trace entries before this index belong to the engine probe, not to the test.
    public private(set) var probeEndIndex = 0

    /// Screenshot of the display into the session directory (kept if the session fails).
    @discardableResult
    public func screenshot(_ name: String = "screen") throws -> URL {
        try Screenshot.capture(session: session, path: session.directory.appendingPathComponent(name + ".png"))
    }

    /// Screenshot of the composer window alone, to `path`, once what is drawn has caught
    /// up with the trace: GTK paints on its next frame, so a picture taken right after an
    /// event can still show the state before it. Captures until two in a row are identical.
    @discardableResult
    public func screenshotWindow(to path: URL, timeout: Duration = .seconds(10)) throws -> URL {
        var previous: Data?
        return try Wait.until("the window's picture to stop changing", timeout: timeout) { () -> URL? in
            try Screenshot.capture(session: session, window: window, path: path)
            let current = try Data(contentsOf: path)
            defer { previous = current }
            return current == previous ? path : nil
        }
    }

    /// Types `romaji`, waits for `kana` in the preedit, presses Space, waits until the engine
    /// shows its conversion (a preedit other than `kana`), then presses Return: what a person
    /// does, who confirms the conversion they see. Returns the conversion shown; the commit
    /// it causes follows in the trace.
    ///
    /// Return sent in the same burst as Space is other input: ibus-anthy 1.5.14 computes the
    /// converted text in a low-priority idle after Space, and a Return handled before that
    /// idle ran commits "" (engine.py's `__on_key_return` commits `__convert_chars`, still
    /// empty): the composition is gone. A loaded machine made it happen in a test
    /// (`KnownBugEndToEndTests` makes it happen on purpose).
    @discardableResult
    public func typeConvertAndConfirm(romaji: String, kana: String, timeout: Duration = .seconds(20)) throws -> String {
        let from = trace.entries.count
        try xdotool.key(romaji.map { String($0) })
        try trace.waitFor("“\(kana)” composing", timeout: timeout, from: from) {
            $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == kana
        }
        let spaceFrom = trace.lastMatchIndex + 1
        try xdotool.key(["space"])
        let shown = try trace.waitFor("the conversion of “\(kana)” shown", timeout: timeout, from: spaceFrom) {
            guard $0["ev"]?.stringValue == "preedit", let text = $0["text"]?.stringValue else { return false }
            return !text.isEmpty && text != kana
        }
        try xdotool.key(["Return"])
        return shown["text"]?.stringValue ?? ""
    }

    /// Sends `signal` to the app and waits for it to exit; returns its exit status.
    @discardableResult
    public func terminateApp(signal sig: Int32 = SIGTERM, timeout: Duration = .seconds(10)) throws -> Int32 {
        app.terminate(signal: sig)
        return try app.waitForExit(timeout: timeout)
    }

    /// Stops the app and every helper; safe to call twice.
    public func stop() { session.stop() }
}
