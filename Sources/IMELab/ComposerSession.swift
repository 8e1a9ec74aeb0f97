import Foundation
import ComposerCore

/// Which input method the app gets.
public enum InputMethodKind: String, Sendable, CaseIterable {
    /// ibus-daemon with ibus-anthy in hiragana mode (`GTK_IM_MODULE=ibus`).
    case ibusAnthy
    /// ibus-daemon with ibus-hangul in Hangul mode (`GTK_IM_MODULE=ibus`).
    case ibusHangul
    /// GTK's built-in simple context (`GTK_IM_MODULE=gtk-im-context-simple`), no daemon.
    case gtkSimple
    /// fcitx5 with fcitx5-anthy (hiragana) as its input method (`GTK_IM_MODULE=fcitx`).
    case fcitxAnthy
    /// fcitx5 with fcitx5-hangul (Dubeolsik) as its input method (`GTK_IM_MODULE=fcitx`).
    case fcitxHangul
    /// ibus-libpinyin (Chinese pinyin; `nihao` Space → 你好).
    case ibusLibpinyin
    /// ibus-chewing (Chinese Zhuyin, standard layout; `s u 3` → 你).
    case ibusChewing
    /// ibus-table's Cangjie 5 (`o n f` Space → 你).
    case ibusCangjie
    /// ibus-unikey (Vietnamese Telex in a preedit; `tieengs` → tiếng).
    case ibusUnikey
    /// ibus-m17n `vi-telex` (Vietnamese; reads surrounding text on every key).
    case ibusViTelex
    /// ibus-m17n `hi-inscript` (Hindi, Devanagari InScript: graphemes of several scalars).
    case ibusHiInscript
    /// fcitx5-chinese-addons pinyin.
    case fcitxPinyin
    /// fcitx5-chewing (Zhuyin).
    case fcitxChewing
    /// fcitx5-unikey (Vietnamese Telex).
    case fcitxUnikey
    /// ibus-mozc (Japanese), started in hiragana (`IBus.configureEngines`). Its conversion
    /// server refuses root: the whole session runs as an unprivileged user.
    case ibusMozc
    /// fcitx5-mozc (Japanese; hiragana once fcitx5 activates it), unprivileged likewise.
    case fcitxMozc
    /// fcitx5-anthy as sway's input method (input-method-v2), GTK's `wayland` module
    /// (text-input-v3): `WaylandIMSession`, not `ComposerSession`.
    case waylandFcitxAnthy
    /// fcitx5-hangul the same way.
    case waylandFcitxHangul

    var gtkIMModule: String {
        if ibusEngine != nil { return "ibus" }
        if fcitxInputMethod != nil { return "fcitx" }
        if self == .waylandFcitxAnthy || self == .waylandFcitxHangul { return "wayland" }
        return "gtk-im-context-simple"
    }

    /// The name tests, transcripts and docs/ime-matrix.md use (the Debian package's name,
    /// plus the m17n table where one package has many).
    public var slug: String {
        switch self {
        case .ibusAnthy: "ibus-anthy"
        case .ibusHangul: "ibus-hangul"
        case .gtkSimple: "gtk-simple"
        case .fcitxAnthy: "fcitx5-anthy"
        case .fcitxHangul: "fcitx5-hangul"
        case .ibusLibpinyin: "ibus-libpinyin"
        case .ibusChewing: "ibus-chewing"
        case .ibusCangjie: "ibus-table-cangjie5"
        case .ibusUnikey: "ibus-unikey"
        case .ibusViTelex: "ibus-m17n-vi-telex"
        case .ibusHiInscript: "ibus-m17n-hi-inscript"
        case .fcitxPinyin: "fcitx5-pinyin"
        case .fcitxChewing: "fcitx5-chewing"
        case .fcitxUnikey: "fcitx5-unikey"
        case .ibusMozc: "ibus-mozc"
        case .fcitxMozc: "fcitx5-mozc"
        case .waylandFcitxAnthy: "wayland-fcitx5-anthy"
        case .waylandFcitxHangul: "wayland-fcitx5-hangul"
        }
    }

    /// A key the engine composes into a preedit containing `preedit` (any preedit when
    /// empty), and the key that empties the preedit again without committing: used to
    /// prove the engine is attached.
    var probe: (key: String, preedit: String, cancelKey: String)? {
        switch self {
        case .ibusAnthy, .fcitxAnthy, .waylandFcitxAnthy, .ibusMozc, .fcitxMozc: return ("a", "あ", "Escape")
        case .ibusHangul, .fcitxHangul, .waylandFcitxHangul: return ("r", "ㄱ", "BackSpace")
        case .gtkSimple: return nil
        case .ibusLibpinyin: return ("n", "", "Escape")
        case .fcitxPinyin: return ("n", "n", "Escape")
        case .ibusChewing, .fcitxChewing: return ("s", "ㄋ", "BackSpace")
        case .ibusCangjie: return ("o", "人", "Escape")
        case .ibusUnikey, .fcitxUnikey, .ibusViTelex: return ("a", "a", "BackSpace")
        case .ibusHiInscript: return ("d", "\u{94D}", "BackSpace")
        }
    }

    /// The IBus engine name (`ibus engine NAME`).
    var ibusEngine: String? {
        switch self {
        case .ibusAnthy: "anthy"
        case .ibusHangul: "hangul"
        case .ibusLibpinyin: "libpinyin"
        case .ibusChewing: "chewing"
        case .ibusCangjie: "table:cangjie5"
        case .ibusUnikey: "Unikey"
        case .ibusViTelex: "m17n:vi:telex"
        case .ibusHiInscript: "m17n:hi:inscript"
        case .ibusMozc: "mozc-jp"
        case .gtkSimple, .fcitxAnthy, .fcitxHangul, .fcitxPinyin, .fcitxChewing, .fcitxUnikey, .fcitxMozc,
             .waylandFcitxAnthy, .waylandFcitxHangul: nil
        }
    }

    /// The IBus component file (`/usr/share/ibus/component/NAME.xml`) that provides it.
    var ibusComponent: String? {
        switch self {
        case .ibusAnthy: "anthy"
        case .ibusHangul: "hangul"
        case .ibusLibpinyin: "libpinyin"
        case .ibusChewing: "chewing"
        case .ibusCangjie: "table"
        case .ibusUnikey: "unikey"
        case .ibusViTelex, .ibusHiInscript: "m17n"
        case .ibusMozc: "mozc"
        default: nil
        }
    }

    var fcitxInputMethod: Fcitx5.InputMethod? {
        switch self {
        case .fcitxAnthy: .anthy
        case .fcitxHangul: .hangul
        case .fcitxPinyin: .pinyin
        case .fcitxChewing: .chewing
        case .fcitxUnikey: .unikey
        case .fcitxMozc: .mozc
        default: nil
        }
    }

    /// Whether the session must run as an unprivileged user (`TestSession.unprivileged`):
    /// mozc_server exits at once under root.
    var runsUnprivileged: Bool { self == .ibusMozc || self == .fcitxMozc }
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
    ///   - beforeLaunch: runs once the session bus is up, before the app starts (a service
    ///     the app looks for at start-up, such as a session manager).
    public init(_ kind: InputMethodKind, arguments: [String] = [], environment: [String: String] = [:],
                binary: String? = nil, name: String? = nil, timeout: Duration = .seconds(30),
                beforeLaunch: ((TestSession) throws -> Void)? = nil) throws {
        try Prerequisites.require(Prerequisites.x11 + (kind.ibusEngine != nil ? Prerequisites.ibus : []))
        if let component = kind.ibusComponent { try Prerequisites.requireIBusEngine(component) }
        self.kind = kind
        let session = try TestSession(name: name ?? kind.rawValue, unprivileged: kind.runsUnprivileged)
        self.session = session
        do {
            // The session user may not reach the build directory: it gets a copy then.
            let binary = try binary ?? (session.unprivileged ? WaylandSession.binaryForSessionUser(session)
                                                              : ComposerBinary.path)
            xvfb = try Xvfb.start(in: session)
            dbus = try DBusSession.start(in: session)
            if kind.ibusEngine != nil {
                try IBus.configureEngines(session)
                ibus = try IBus.start(in: session)
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
    public func restartApp(arguments: [String]) throws {
        let status = try terminateApp()
        guard status == 0 else { throw session.failure("the app exited with status \(status) before a restart") }
        launches += 1
        // `app` and `trace` are the new app's at once: a failed start-up is examined there.
        (app, trace) = try Self.launchApp(in: session, binary: binary, arguments: arguments,
                                          environment: appEnvironment, traceName: "trace-\(launches).jsonl")
        window = try Self.awaitWindow(app, trace, xdotool: xdotool, timeout: startTimeout)
        probeEndIndex = 0
        try attachInputMethod(selectEngine: false)
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
        }
        guard answered else {
            throw session.failure("the \(kind.rawValue) engine never answered the probe key \(probe.key)")
        }
        let cancelFrom = trace.entries.count
        try xdotool.key([probe.cancelKey])
        try trace.waitFor("the probe preedit to end", from: cancelFrom) {
            $0["ev"]?.stringValue == "preedit-end"
        }
        try restoreText(textBefore)
        probeEndIndex = trace.entries.count
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

    /// Sends `signal` to the app and waits for it to exit; returns its exit status.
    @discardableResult
    public func terminateApp(signal sig: Int32 = SIGTERM, timeout: Duration = .seconds(10)) throws -> Int32 {
        app.terminate(signal: sig)
        return try app.waitForExit(timeout: timeout)
    }

    /// Stops the app and every helper; safe to call twice.
    public func stop() { session.stop() }
}
