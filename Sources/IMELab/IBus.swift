import Foundation

/// A private ibus-daemon for one session (requires Xvfb and DBusSession already started:
/// `--xim` starts ibus-x11, which needs DISPLAY).
///
/// Engine options are GSettings keys; with GSETTINGS_BACKEND=keyfile and the session's
/// XDG_CONFIG_HOME they land in a private keyfile. Set them with `gsettingsSet` *before*
/// `start` — engines read them when they start.
public final class IBus: @unchecked Sendable {
    public let session: TestSession
    public let process: AppProcess

    /// `gsettings set SCHEMA KEY VALUE` in the session environment. VALUE is GVariant text,
    /// e.g. "0", "'hangul'", "false".
    public static func gsettingsSet(_ session: TestSession, schema: String, key: String, value: String) throws {
        try session.runChecked("gsettings", ["set", schema, key, value])
    }

    /// `gsettings get SCHEMA KEY` in the session environment.
    public static func gsettingsGet(_ session: TestSession, schema: String, key: String) throws -> String {
        try session.runChecked("gsettings", ["get", schema, key]).output
    }

    /// Starts `ibus-daemon --panel=disable --xim -r --cache=refresh` (not daemonized: the
    /// harness keeps the process) and waits until `ibus engine` can talk to it. With
    /// `panel`, IBus's own panel (ibus-ui-gtk3) runs too: its candidate window shows on
    /// the session's display (for reading where it goes).
    public static func start(in session: TestSession, panel: Bool = false, timeout: Duration = .seconds(30)) throws -> IBus {
        guard session.display != nil else {
            throw session.failure("IBus.start: start Xvfb first (ibus-daemon --xim needs DISPLAY)")
        }
        let p = try session.launch("ibus-daemon", executable: "ibus-daemon",
                                   arguments: (panel ? [] : ["--panel=disable"]) + ["--xim", "-r", "--cache=refresh"])
        let ibus = IBus(session: session, process: p)
        // Graceful shutdown first (lets ibus stop its engines), then the process group.
        session.onStop { [weak ibus] in
            guard let ibus, ibus.process.isRunning else { return }
            _ = try? session.run("ibus", ["exit"], timeout: .seconds(3))
            _ = try? ibus.process.waitForExit(timeout: .seconds(3))
        }
        do {
            try Wait.until("ibus-daemon to answer `ibus engine`", timeout: timeout,
                           interval: .milliseconds(50),
                           diagnostics: { ibus.diagnostics() },
                           failFast: { try ibus.checkRunning("startup") }) {
                let r = try session.run("ibus", ["engine"], timeout: .seconds(5))
                // Before an engine is chosen `ibus engine` exits 1 with "No engine is set.":
                // that already proves the daemon answers.
                return r.succeeded || (r.stdout + r.stderr).contains("No engine is set")
            }
        } catch {
            session.markFailed()
            throw error
        }
        return ibus
    }

    private init(session: TestSession, process: AppProcess) {
        self.session = session
        self.process = process
    }

    /// The current global engine name, or nil if none is set.
    public func currentEngine() throws -> String? {
        let r = try session.run("ibus", ["engine"], timeout: .seconds(5))
        guard r.succeeded else { return nil }
        let name = r.output.split(separator: "\n").last.map(String.init) ?? ""
        return name.isEmpty ? nil : name
    }

    /// `ibus engine NAME`, retried until `ibus engine` prints NAME (an engine such as the
    /// Python anthy one may need a moment to register).
    public func setEngine(_ name: String, timeout: Duration = .seconds(20)) throws {
        let clock = ContinuousClock()
        var lastSet = clock.now.advanced(by: .seconds(-10))
        var lastResult: CommandResult?
        do {
            try Wait.until("`ibus engine` to report engine '\(name)'", timeout: timeout,
                           diagnostics: {
                               var s = ""
                               if let r = lastResult {
                                   s += "last `ibus engine \(name)`: status \(r.status), stderr: \(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))\n"
                               }
                               return s + self.diagnostics()
                           },
                           failFast: { try self.checkRunning("setEngine(\(name))") }) {
                if try currentEngine() == name { return true }
                if clock.now - lastSet >= .milliseconds(500) {
                    lastResult = try session.run("ibus", ["engine", name], timeout: .seconds(5))
                    lastSet = clock.now
                }
                return try currentEngine() == name
            }
        } catch {
            session.markFailed()
            throw error
        }
    }

    /// Stops the daemon (`ibus exit`, then the process group).
    public func stop() {
        if process.isRunning {
            _ = try? session.run("ibus", ["exit"], timeout: .seconds(3))
            _ = try? process.waitForExit(timeout: .seconds(3))
        }
        process.stop()
    }

    public func diagnostics() -> String { process.diagnostics() }

    private func checkRunning(_ phase: String) throws {
        if !process.isRunning {
            throw session.failure("ibus-daemon exited during \(phase)\n" + diagnostics())
        }
    }

    // MARK: engines

    /// Engine settings must be written before the daemon (and so the engines) start:
    /// anthy in hiragana (`input-mode 0`; the default 3 is Latin); hangul in Hangul mode and
    /// not forwarding unused keys (`use-event-forwarding false`: with forwarding, GTK4 may
    /// lose Return/Tab/arrows). Both are set, so one daemon can switch between them.
    public static func configureEngines(_ session: TestSession) throws {
        try gsettingsSet(session, schema: "org.freedesktop.ibus.engine.anthy.common", key: "input-mode", value: "0")
        try gsettingsSet(session, schema: "org.freedesktop.ibus.engine.hangul", key: "initial-input-mode", value: "'hangul'")
        try gsettingsSet(session, schema: "org.freedesktop.ibus.engine.hangul", key: "use-event-forwarding", value: "false")
        try writeMozcConfiguration(session)
    }

    /// ibus-mozc starts in direct input (Latin) unless its own configuration file says
    /// `active_on_launch: True` (read from `$XDG_CONFIG_HOME/mozc/ibus_config.textproto`
    /// when the engine starts; the file replaces the built-in one, so it lists the engine too).
    static func writeMozcConfiguration(_ session: TestSession) throws {
        let dir = session.configHome.appendingPathComponent("mozc", isDirectory: true)
        try session.makeDirectory(dir)
        let config = """
            engines {
              name : "mozc-jp"
              longname : "Mozc"
              layout : "default"
              layout_variant : ""
              layout_option : ""
              rank : 80
            }
            active_on_launch: True

            """
        try config.write(to: dir.appendingPathComponent("ibus_config.textproto"), atomically: true, encoding: .utf8)
    }

    /// Configures the engines, starts the daemon and, if `selectEngine`, selects anthy.
    public static func startAnthy(_ session: TestSession, selectEngine: Bool = true) throws -> IBus {
        try configureEngines(session)
        let ibus = try start(in: session)
        if selectEngine { try ibus.setEngine("anthy") }
        return ibus
    }

    /// Configures the engines, starts the daemon and, if `selectEngine`, selects hangul.
    public static func startHangul(_ session: TestSession, selectEngine: Bool = true) throws -> IBus {
        try configureEngines(session)
        let ibus = try start(in: session)
        if selectEngine { try ibus.setEngine("hangul") }
        return ibus
    }
}

extension IBus {
    /// The installed IBus component that provides the engine `name`, if one does: m17n's
    /// `m17n:LANG:NAME` (its `LANG-NAME.mim` in `m17nDirectory`), ibus-table's `table:NAME`
    /// (its table database), else the component file in `components` that lists
    /// `<name>NAME</name>`.
    public static func component(providing name: String,
                                 components: URL = URL(fileURLWithPath: "/usr/share/ibus/component", isDirectory: true),
                                 m17nDirectory: URL = URL(fileURLWithPath: "/usr/share/m17n", isDirectory: true),
                                 tables: URL = URL(fileURLWithPath: "/usr/share/ibus-table/tables", isDirectory: true)) -> String? {
        let fm = FileManager.default
        let parts = name.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3, parts[0] == "m17n" {
            let mim = m17nDirectory.appendingPathComponent("\(parts[1])-\(parts[2]).mim")
            return fm.fileExists(atPath: components.appendingPathComponent("m17n.xml").path)
                && fm.fileExists(atPath: mim.path) ? "m17n" : nil
        }
        if parts.count == 2, parts[0] == "table" {
            return fm.fileExists(atPath: components.appendingPathComponent("table.xml").path)
                && fm.fileExists(atPath: tables.appendingPathComponent(parts[1] + ".db").path) ? "table" : nil
        }
        guard let files = try? fm.contentsOfDirectory(at: components, includingPropertiesForKeys: nil) else { return nil }
        for file in files.sorted(by: { $0.path < $1.path }) where file.pathExtension == "xml" {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            if text.contains("<name>\(name)</name>") { return file.deletingPathExtension().lastPathComponent }
        }
        return nil
    }
}
