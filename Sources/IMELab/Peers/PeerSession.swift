import Foundation

/// Another application (`PeerApp`) in a private X11 session with an input method, as the
/// composer runs in `ComposerSession`: its own Xvfb, session bus (and with it the
/// accessibility bus), IBus or fcitx5 with the engine, the app's server on the loopback
/// when it has one, and `atspi-watch.py` reading what the app shows into `trace`, the
/// JSON lines the scenarios wait on.
///
/// The app keeps running through the scenarios of one engine: `clear()` empties its input
/// between them (a chat app's start and connection take seconds).
public final class PeerSession: @unchecked Sendable {
    public let peer: PeerApp
    public let kind: InputMethodKind
    public let session: TestSession
    public let ibus: IBus?
    public let fcitx: Fcitx5?
    /// The app's server, when it has one.
    public let server: PeerServer?
    public let app: AppProcess
    /// The AT-SPI watcher (`PeerApp.watcher`), whose standard output is `trace`.
    public let watcher: AppProcess
    public let trace: TraceLog
    public let xdotool: XDoTool
    /// X window id of the app's window (the one with its input).
    public private(set) var window: String
    /// The input method's answers to the app's keys, from its bus (nil for GTK's simple
    /// context, which answers in the app, in order).
    public let keyAnswers: KeyAnswers?
    /// The toolkit's input-method environment the app runs with (GTK_IM_MODULE,
    /// XMODIFIERS, GDK_BACKEND and the `environment` given): another program started in
    /// the session with it talks to the same engine the same way (the composer, measured
    /// beside the app by `app-benchmark --part peers`).
    public let inputEnvironment: [String: String]

    /// Starts the session and the app, and waits until the engine answers keys typed into
    /// the app's input (committing `engine`'s word and clearing it again).
    /// - Parameter environment: on top of the app's own (GSK_RENDERER for a measurement).
    /// - Parameter cursorBlink: false turns GTK's cursor blink off in the session (a
    ///   measurement's: a blink is a paint no key caused), as `BenchSession` does.
    public init(_ peer: PeerApp, engine: MatrixEngine, environment: [String: String] = [:],
                cursorBlink: Bool = true, timeout: Duration = .seconds(60)) throws {
        let kind = engine.kind
        try Prerequisites.require(kind)
        try Prerequisites.require(["/usr/bin/python3", peer.command[0]])
        self.peer = peer
        self.kind = kind
        let session = try TestSession(name: "peer-\(peer.app)-\(kind.slug)", unprivileged: kind.runsUnprivileged)
        self.session = session
        do {
            if !cursorBlink {
                let gtkConfig = session.configHome.appendingPathComponent("gtk-4.0", isDirectory: true)
                try session.makeDirectory(gtkConfig)
                try "[Settings]\ngtk-cursor-blink=false\n".write(to: gtkConfig.appendingPathComponent("settings.ini"),
                                                                  atomically: true, encoding: .utf8)
            }
            _ = try Xvfb.start(in: session)
            _ = try DBusSession.start(in: session)
            if kind.ibusEngine != nil {
                try IBus.configureEngines(session)
                for setting in engine.gsettings {
                    try IBus.gsettingsSet(session, schema: setting.schema, key: setting.key, value: setting.value)
                }
                ibus = try IBus.start(in: session)
            } else {
                ibus = nil
            }
            fcitx = try kind.fcitxInputMethod.map { try Fcitx5.start(in: session, inputMethod: $0) }
            let server = try peer.server.map { try PeerServer.start($0, in: session) }
            self.server = server
            for (path, text) in peer.files ?? [:] {
                let url = try Self.place(path, in: session)
                try session.makeDirectory(url.deletingLastPathComponent())
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
            var input = environment
            input["GTK_IM_MODULE"] = kind.gtkIMModule
            input["GDK_BACKEND"] = "x11"
            if kind.ibusEngine != nil { input["XMODIFIERS"] = "@im=ibus" }
            if kind.fcitxInputMethod != nil { input["XMODIFIERS"] = "@im=fcitx" }
            inputEnvironment = input
            var env = peer.environment ?? [:]
            env.merge(server?.environment ?? [:]) { _, server in server }
            env.merge(input) { _, input in input }
            // The engine is chosen before the app starts: its input context has it from
            // its first key (after, keys are lost until IBus attaches it).
            if let ibus, let name = kind.ibusEngine { try ibus.setEngine(name, timeout: timeout) }
            let arguments = Array(peer.command.dropFirst().map { argument in
                server.map { argument.replacingOccurrences(of: "{server}", with: $0.address) } ?? argument
            })
            if let firstRun = peer.firstRun {
                let first = try session.launch(peer.app, executable: peer.command[0], arguments: arguments, environment: env)
                try session.runChecked(firstRun[0], try firstRun.dropFirst().map { try Self.expand($0, in: session) }, timeout: .seconds(90))
                first.stop(grace: .seconds(5))
            }
            if let prepare = peer.prepare {
                try session.runChecked(prepare[0], try prepare.dropFirst().map { try Self.expand($0, in: session) }, timeout: .seconds(60))
            }
            let app = try session.launch(peer.app, executable: peer.command[0], arguments: arguments, environment: env)
            self.app = app
            xdotool = XDoTool(session: session)
            window = try xdotool.waitForWindow(pid: app.pid, process: app, timeout: timeout)
            try xdotool.focus(window)
            var config = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(peer.accessible)) as? [String: Any] ?? [:]
            if peer.sends == .server {
                guard let receiver = server?.receiver else {
                    throw HarnessError("\(peer.app): its sends are read at the server, and the lab has no receiver for it")
                }
                config["receiver"] = receiver
            }
            let configText = String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self)
            watcher = try session.launch("atspi-watch", executable: "/usr/bin/python3",
                                         arguments: [PeerApp.watcher.path, String(app.pid), configText])
            trace = TraceLog(url: watcher.stdoutURL, watching: watcher, session: session)
            let ready = try trace.waitFor("\(peer.app)'s input, focused, on the accessibility bus", timeout: timeout) {
                $0["ev"]?.stringValue == "ready"
            }
            if config["receiver"] != nil {
                // The other end of the conversation, logged in: the app's sends reach it.
                let receiver = try trace.waitFor("the conversation's other end logged in at the server", timeout: timeout) {
                    $0["ev"]?.stringValue == "receiver"
                }
                guard receiver["ready"] != nil else {
                    throw session.failure("the conversation's other end (\(server?.receiver?.dropFirst().first ?? "?")) ended with status "
                        + "\(receiver["exit"]?.intValue ?? -1): \(receiver["stderr"]?.stringValue ?? "")")
                }
            }
            // The window the input is in (an app may show another first: Polari's input is
            // in the window it opens once the channel is joined): it gets the keyboard.
            if let title = ready["window"]?.stringValue, !title.isEmpty,
               // (Its accessible name may not be the X title: Dino's "DinoUiMainWindow".)
               let inputWindow = try xdotool.optionalWindow(name: "^\(NSRegularExpression.escapedPattern(for: title))$", timeout: .seconds(5)),
               inputWindow != window {
                window = inputWindow
                try xdotool.focus(window)
            }
            keyAnswers = try KeyAnswers.start(kind, in: session)
            try waitUntilEngineAnswers(engine, timeout: timeout)
            try keyAnswers?.waitUntilWatching()
        } catch {
            session.markFailed()
            session.stop()
            throw error
        }
    }

    /// Where a point the watcher gives in window coordinates (`first`: AT-SPI's extents) is
    /// in the app's X window. GTK 4.8 measures AT-SPI extents from the window's content: a
    /// window without a compositor draws a border around it (Adwaita's solid-csd, 5 px in
    /// Dino's window), and one with a compositor a shadow (`_GTK_FRAME_EXTENTS`). A click
    /// at the extents alone landed 5 px left of Dino's first character, outside its input.
    /// - Parameter frame: the window's size as AT-SPI gives it (the watcher's `frame`).
    public func windowPoint(x: Int, y: Int, frame: [Int]) throws -> (x: Int, y: Int) {
        let size = try xdotool.windowSize(window)
        let offset = Self.contentOffset(windowSize: size, frameSize: frame, frameExtents: try xdotool.gtkFrameExtents(window))
        return (x + offset.x, y + offset.y)
    }

    /// How far the window's content is from its X window's corner: the shadow's left and
    /// top when GTK names it, else half of what the X window is larger than the content
    /// (a border is the same on every side), never less than 0.
    public static func contentOffset(windowSize: (width: Int, height: Int), frameSize: [Int], frameExtents: [Int]?) -> (x: Int, y: Int) {
        if let extents = frameExtents, extents.count == 4 { return (max(0, extents[0]), max(0, extents[2])) }
        guard frameSize.count == 2, frameSize[0] > 0, frameSize[1] > 0 else { return (0, 0) }
        return (max(0, (windowSize.width - frameSize[0]) / 2), max(0, (windowSize.height - frameSize[1]) / 2))
    }

    /// The input's text as last read.
    public var text: String { trace.events(named: "text").last?["text"]?.stringValue ?? "" }

    /// The conversation's text as last read ("" for an app without one).
    public var log: String { trace.events(named: "log").last?["text"]?.stringValue ?? "" }

    /// Waits until the input holds `expected`.
    public func waitForText(_ expected: String, timeout: Duration = .seconds(20)) throws {
        _ = try Wait.until("\(peer.app)'s input to hold \(quoted(expected))", timeout: timeout,
                           diagnostics: { "the input holds \(quoted(self.text))\n" + self.trace.diagnostics() }) {
            self.text == expected ? true : nil
        }
    }

    /// Waits until what a scenario that did not pass left in flight has landed: every key
    /// call answered by the input method, then the watcher quiet for `quiet` (nothing read
    /// changed). Dino × ibus-hangul's BackSpace cell (a known failure: Dino sends before
    /// the engine answered BackSpace) had 하 committed into the emptied input half a second
    /// after its send, when the next cell had already typed its first keys ("하한" for 한).
    public func settle(quiet: Duration = .seconds(1), timeout: Duration = .seconds(20)) throws {
        try keyAnswers?.waitUntilNothingPending(timeout: timeout)
        var count = trace.lineCount, since = ContinuousClock.now
        _ = try Wait.until("\(peer.app)'s input to stay unchanged for \(quiet)", timeout: timeout,
                           diagnostics: { self.trace.diagnostics() }) { () -> Bool? in
            let now = trace.lineCount
            if now != count { (count, since) = (now, ContinuousClock.now) }
            return ContinuousClock.now - since >= quiet ? true : nil
        }
    }

    /// Empties the input and waits until it is empty: selects all, waits until the
    /// selection covers the text (IBus's GTK module can pass a key the engine let go after
    /// the next one: Control+A and BackSpace in one burst deleted a new line first and then
    /// selected), then deletes it. A key the engine passed on late (ibus-hangul's Return)
    /// may still change the text meanwhile: then it selects again.
    public func clear() throws {
        for _ in 0..<5 {
            guard !text.isEmpty else { return }
            try xdotool.key(["ctrl+a"])
            let selected = try? Wait.until("\(peer.app)'s text selected", timeout: .seconds(5)) { () -> Bool? in
                guard let last = self.trace.events(named: "text").last, let text = last["text"]?.stringValue else { return nil }
                return last["selection"]?.arrayValue?.compactMap(\.intValue) == [0, text.unicodeScalars.count] ? true : nil
            }
            guard selected != nil else { continue }
            try xdotool.key(["BackSpace"])
            if (try? waitForText("", timeout: .seconds(5))) != nil { return }
        }
        try waitForText("")
    }

    /// Whether keys reach the engine through the app: its word, composed and committed,
    /// arrives whole in the input (or in the conversation, for an app that sends on the
    /// commit key). Keys typed before the engine is attached come through raw (Latin
    /// letters): then the input is emptied and the word typed again. An app that keeps the
    /// commit key from the engine (Dino 0.4.2 and Return, dino/dino#1419: its compose-commit
    /// cell a known failure) shows neither: the engine took the keys, its composition is on
    /// screen; Escape cancels it.
    private func waitUntilEngineAnswers(_ engine: MatrixEngine, timeout: Duration) throws {
        guard kind.framework != .gtkSimple else { return }
        let deadline = ContinuousClock.now + timeout
        // Only where the app's file says so is nothing shown taken for a commit key kept
        // from the engine: an app still busy (Polari joining its channel) showed the commit
        // 3 s after the keys, and the probe's word then stayed in the input.
        let keepsCommitKey = peer.knownFailure(engine: engine.kind.slug, scenario: .composeCommit) != nil
        var seen: [String] = []
        while true {
            try clear()
            let logBefore = log
            try xdotool.key(engine.compose + engine.commitKeys)
            let wait = keepsCommitKey ? .seconds(3) : max(deadline - ContinuousClock.now, .seconds(3))
            let settled = try? Wait.until("the probe's commit", timeout: wait) { () -> String? in
                let now = self.text
                if self.log != logBefore, self.log.contains(engine.committed.trimmingCharacters(in: .whitespaces)) { return engine.committed }
                return now == engine.committed || now.unicodeScalars.contains(where: { $0.isASCII && $0.properties.isAlphabetic }) ? now : nil
            }
            if settled == engine.committed { break }
            if settled == nil, text.isEmpty, keepsCommitKey {
                try xdotool.key(["Escape"])
                break
            }
            seen.append(settled ?? text)
            if ContinuousClock.now > deadline {
                throw session.failure("the \(kind.slug) engine never committed \(quoted(engine.committed)) in \(peer.app) "
                    + "for \(engine.compose.joined(separator: " ")) \(engine.commitKeys.joined(separator: " ")): the input held "
                    + seen.map(quoted).joined(separator: ", "))
            }
        }
        try clear()
    }

    /// Stops the AT-SPI watcher's process (SIGSTOP) until `resumeWatcher()`: while it is
    /// stopped it asks the app nothing, so a measurement of the app's CPU per key is not
    /// charged with answering the lab's reads. The app's events wait on the bus for it.
    public func pauseWatcher() { kill(watcher.pid, SIGSTOP) }

    /// Lets the watcher go on (SIGCONT): it reads the events sent meanwhile, so wait on
    /// `text` (`waitForText`, `clear`) for what they did.
    public func resumeWatcher() { kill(watcher.pid, SIGCONT) }

    /// `$HOME/…`, `$XDG_CONFIG_HOME/…`, `$XDG_DATA_HOME/…` as the session's, `{peers}` as
    /// the peers' folder, in a `first_run` or `prepare` argument.
    static func expand(_ argument: String, in session: TestSession) throws -> String {
        if argument.hasPrefix("$") { return try place(argument, in: session).path }
        return argument.replacingOccurrences(of: "{peers}", with: PeerApp.directory.path)
            .replacingOccurrences(of: "{domain}", with: PeerServer.xmppDomain)
    }

    /// A `PeerApp.files` path in `session`: `$HOME/`, `$XDG_CONFIG_HOME/` or `$XDG_DATA_HOME/`
    /// and a relative path without `..`.
    static func place(_ path: String, in session: TestSession) throws -> URL {
        let roots = ["$HOME/": session.home, "$XDG_CONFIG_HOME/": session.configHome, "$XDG_DATA_HOME/": session.dataHome]
        guard let (prefix, root) = roots.first(where: { path.hasPrefix($0.key) }),
              !path.split(separator: "/").contains("..") else {
            throw HarnessError("the file \(path) is not under $HOME/, $XDG_CONFIG_HOME/ or $XDG_DATA_HOME/")
        }
        return root.appendingPathComponent(String(path.dropFirst(prefix.count)))
    }

    /// Stops everything the session started.
    public func stop() { session.stop() }
}

private func quoted(_ text: String) -> String { "\u{201C}\(text)\u{201D}" }
