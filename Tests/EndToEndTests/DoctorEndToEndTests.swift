import ComposerCore
import Foundation
import Testing
import TestHarness

/// `ime-composer doctor`, the real binary, in private sessions: against a real ibus-daemon
/// (anthy) and a real fcitx5 (anthy), up and then down, and against crafted environments
/// (the variables the doctor reads; nothing connects to their displays).
///
/// Every run gets the session's environment (private HOME and XDG directories, GSettings
/// keyfile, its own D-Bus bus; no IM variables) plus what the test sets. Waits are on the
/// doctor's own answer, never on time.
@Suite(.serialized)
struct DoctorEndToEndTests {
    /// The doctor with the session's environment plus `environment`; fails if it runs 60 s.
    func doctor(_ session: TestSession, _ arguments: [String] = [], environment: [String: String]) throws -> CommandResult {
        try session.run(try ComposerBinary.path, ["doctor"] + arguments, environment: environment, timeout: .seconds(60))
    }

    /// `doctor --json`, parsed; its exit status must be the one the JSON states.
    func report(_ session: TestSession, environment: [String: String]) throws -> JSONValue {
        let result = try doctor(session, ["--json"], environment: environment)
        let json = try JSONValue.parse(result.output)
        #expect(json["exit_status"] == .int(Int(result.status)), "exit status \(result.status) vs \(result.output)")
        return json
    }

    /// The finding with `id` in a `--json` report.
    func finding(_ json: JSONValue, _ id: String) -> JSONValue? {
        json["findings"]?.arrayValue?.first { $0["id"] == .string(id) }
    }

    func severity(_ json: JSONValue, _ id: String) -> String? { finding(json, id)?["severity"]?.stringValue }

    /// A session with its own bus (and an X server when the daemon needs one).
    func session(_ name: String, x11: Bool) throws -> TestSession {
        try Prerequisites.require(["dbus-daemon", "dbus-send", "gsettings"] + (x11 ? Prerequisites.x11 : []))
        let session = try TestSession(name: name)
        if x11 { _ = try Xvfb.start(in: session) }
        _ = try DBusSession.start(in: session)
        return session
    }

    // MARK: (a) no daemons

    @Test(.timeLimit(.minutes(2)))
    func noDaemonWithGtkImModuleIBusIsAProblem() throws {
        let session = try session("doctor-none", x11: false)
        defer { session.stop() }
        let env = ["GTK_IM_MODULE": "ibus", "XMODIFIERS": "@im=ibus", "DISPLAY": ":99"]
        let result = try doctor(session, environment: env)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("ibus-daemon is not answering on D-Bus"), "\(result.stdout)")
        #expect(result.stdout.contains("  PROBLEM  ") && result.stdout.contains("[ibus-not-answering]"))
        #expect(result.stdout.contains("fix: Start ibus-daemon (ibus-daemon -drx"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("needs fixing (exit status 1).\n"), "\(result.stdout)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    // MARK: (b) ibus-daemon with anthy, (d) then stopped, (e) a crafted XMODIFIERS, (f) --json, (h) ibus-hangul beside it

    @Test(.timeLimit(.minutes(2)))
    func ibusWithAnthyIsNamedThenStoppingItIsAProblem() throws {
        try Prerequisites.require(Prerequisites.ibus)
        try Prerequisites.requireIBusEngine("anthy")
        let session = try session("doctor-ibus", x11: true)
        defer { session.stop() }
        // Also switches ibus-hangul's event forwarding off and starts both engines in their script.
        let ibus = try IBus.startAnthy(session)
        let env = ["GTK_IM_MODULE": "ibus", "XMODIFIERS": "@im=ibus", "QT_IM_MODULE": "ibus"]

        let healthy = try doctor(session, environment: env)
        #expect(healthy.status == 0, "\(healthy.stdout)")
        #expect(healthy.stdout.hasPrefix("ime-composer doctor: GTK 4 will use the ibus input method module (X11 session)."))
        #expect(healthy.stdout.contains("ibus-daemon answers on D-Bus; its global engine is anthy  [ibus-daemon]"),
                "\(healthy.stdout)")
        #expect(healthy.stdout.contains("ibus-hangul's event forwarding is off"), "read from the session's GSettings")
        #expect(healthy.stdout.hasSuffix("Healthy: nothing needs fixing (exit status 0).\n"))

        // (f) --json: one object with the findings and the facts.
        let json = try report(session, environment: env)
        #expect(json["healthy"] == .bool(true))
        #expect(json["module"]?["name"] == .string("ibus") && json["module"]?["source"] == .string("GTK_IM_MODULE"))
        let findings = try #require(json["findings"]?.arrayValue)
        #expect(!findings.isEmpty)
        for item in findings {
            #expect(item.objectMembers?.map(\.0) == ["id", "severity", "topic", "summary", "fix"], "\(item)")
        }
        #expect(severity(json, "ibus-daemon") == "ok")
        #expect(json["facts"]?["ibus"]?["answering"] == .bool(true))
        #expect(json["facts"]?["ibus"]?["engine"] == .string("anthy"))
        #expect(json["facts"]?["environment"]?["GTK_IM_MODULE"] == .string("ibus"))
        #expect(json["facts"]?["ibus_components"]?.arrayValue?.contains(.string("anthy")) == true)
        #expect(json["facts"]?["ibus_preload_engines"] == .array([]), "read from the session's GSettings: none set")
        #expect(json["facts"]?["installed_modules"]?.arrayValue?.contains(.string("ibus")) == true)
        // The installed IBus release, and ibus/ibus#2522 named for the releases before its fix
        // (KnownBugEndToEndTests shows this machine's 1.5.27 affected).
        let printed = try session.runChecked("ibus", ["version"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let version = try #require(json["facts"]?["ibus_version"]?.stringValue)
        #expect(printed == "IBus \(version)")
        if version.hasPrefix("1.5."), let patch = Int(version.dropFirst(4).prefix { $0.isNumber }), patch < 29 {
            #expect(severity(json, "ibus-candidate-window-position") == "info", "IBus \(version)")
            #expect(healthy.stdout.contains("(ibus/ibus#2522, fixed in IBus 1.5.29)"), "\(healthy.stdout)")
        } else {
            #expect(finding(json, "ibus-candidate-window-position") == nil, "IBus \(version)")
        }

        // (e) XMODIFIERS naming fcitx while GTK uses ibus.
        let mismatch = try report(session, environment: env.merging(["XMODIFIERS": "@im=fcitx"]) { $1 })
        #expect(severity(mismatch, "xmodifiers-mismatch") == "warning")
        #expect(mismatch["exit_status"] == .int(1))

        // (h) ibus-hangul installed with its event forwarding on (its default) while anthy is
        // typed with: a note, exit 0 (issue #31, item 5); a warning once hangul is one switch
        // away in IBus's preload-engines, or the engine itself.
        try Prerequisites.requireIBusEngine("hangul")
        try IBus.gsettingsSet(session, schema: "org.freedesktop.ibus.engine.hangul", key: "use-event-forwarding", value: "true")
        try IBus.gsettingsSet(session, schema: "org.freedesktop.ibus.general", key: "preload-engines", value: "['anthy']")
        let installedOnly = try report(session, environment: env)
        #expect(severity(installedOnly, "ibus-hangul-event-forwarding") == "info", "\(installedOnly.serialized())")
        #expect(installedOnly["exit_status"] == .int(0))
        #expect(installedOnly["facts"]?["ibus_preload_engines"] == .array([.string("anthy")]))
        let installedText = try doctor(session, environment: env)
        #expect(installedText.status == 0 && installedText.stdout.contains(
            "ibus-hangul (installed, neither IBus's engine nor in its preload-engines) forwards keys"), "\(installedText.stdout)")
        try IBus.gsettingsSet(session, schema: "org.freedesktop.ibus.general", key: "preload-engines", value: "['anthy', 'hangul']")
        let preloaded = try report(session, environment: env)
        #expect(severity(preloaded, "ibus-hangul-event-forwarding") == "warning")
        #expect(preloaded["exit_status"] == .int(1))
        try IBus.gsettingsSet(session, schema: "org.freedesktop.ibus.general", key: "preload-engines", value: "['anthy']")
        try ibus.setEngine("hangul")
        let current = try report(session, environment: env)
        #expect(severity(current, "ibus-hangul-event-forwarding") == "warning", "\(current.serialized())")
        #expect(current["facts"]?["ibus"]?["engine"] == .string("hangul"))
        #expect(current["exit_status"] == .int(1))

        // (d) The daemon goes away: the doctor says so as soon as the bus does.
        ibus.stop()
        var last: CommandResult?
        try Wait.until("the doctor to report ibus-daemon not answering", timeout: .seconds(30),
                       interval: .milliseconds(100), diagnostics: { last?.stdout ?? "" }) {
            last = try doctor(session, environment: env)
            return last?.status == 1 && last?.stdout.contains("[ibus-not-answering]") == true
        }
        #expect(last?.stdout.contains("ibus-daemon is not answering on D-Bus") == true)
    }

    // MARK: (c) fcitx5 with anthy, (e) crafted Wayland, (d) then stopped

    @Test(.timeLimit(.minutes(2)))
    func fcitx5WithAnthyIsNamedThenStoppingItIsAProblem() throws {
        let session = try session("doctor-fcitx5", x11: true)
        defer { session.stop() }
        let fcitx = try Fcitx5.start(in: session, inputMethod: .anthy)
        let env = ["GTK_IM_MODULE": "fcitx", "XMODIFIERS": "@im=fcitx", "QT_IM_MODULE": "fcitx"]

        let healthy = try doctor(session, environment: env)
        #expect(healthy.status == 0, "\(healthy.stdout)")
        #expect(healthy.stdout.hasPrefix("ime-composer doctor: GTK 4 will use the fcitx input method module (X11 session)."))
        #expect(healthy.stdout.contains("fcitx5 answers on D-Bus; its current input method is anthy  [fcitx5]"),
                "\(healthy.stdout)")

        // fcitx5's IBus frontend takes org.freedesktop.IBus: GTK's ibus module reaches fcitx5.
        var served: JSONValue?
        try Wait.until("the doctor to see fcitx5 serving IBus clients", timeout: .seconds(30),
                       interval: .milliseconds(100), diagnostics: { served?.serialized() ?? "" }) {
            served = try report(session, environment: env.merging(["GTK_IM_MODULE": "ibus"]) { $1 })
            return served?["facts"]?["ibus_served_by_fcitx5"] == .bool(true)
        }
        #expect(severity(try #require(served), "ibus-served-by-fcitx5") == "info")
        #expect(served?["exit_status"] == .int(0))
        // The profile the harness wrote (Fcitx5.writeConfiguration): the input methods one switches between.
        #expect(served?["facts"]?["fcitx5_profile_input_methods"] == .array([.string("keyboard-us"), .string("anthy")]))

        // (e) A Wayland session where GTK_IM_MODULE forces fcitx: the candidate window warning.
        let wayland = try report(session, environment: env.merging([
            "WAYLAND_DISPLAY": "wayland-9", "XDG_SESSION_TYPE": "wayland"]) { $1 })
        #expect(wayland["backend"] == .string("wayland"))
        #expect(severity(wayland, "wayland-im-module-override") == "warning")
        #expect(finding(wayland, "wayland-im-module-override")?["summary"]?.stringValue?.contains("candidate windows") == true)
        #expect(wayland["exit_status"] == .int(1))

        // (d) fcitx5 exits: back to the problem.
        fcitx.stop()
        var last: CommandResult?
        try Wait.until("the doctor to report fcitx5 not answering", timeout: .seconds(30),
                       interval: .milliseconds(100), diagnostics: { last?.stdout ?? "" }) {
            last = try doctor(session, environment: env)
            return last?.status == 1 && last?.stdout.contains("[fcitx5-not-answering]") == true
        }
        #expect(last?.stdout.contains("fcitx5 is not answering on D-Bus") == true)
    }

    // MARK: (e) crafted environments

    @Test(.timeLimit(.minutes(2)))
    func aModuleThatIsNotInstalledIsAProblemAndGtkFallsBack() throws {
        let session = try session("doctor-unknown", x11: false)
        defer { session.stop() }
        let json = try report(session, environment: ["GTK_IM_MODULE": "uim", "DISPLAY": ":99"])
        #expect(severity(json, "im-module-not-installed") == "problem")
        #expect(json["module"]?["source"] == .string("default"), "GTK ignores uim and picks by priority")
        #expect(json["module"]?["name"] == .string("ibus"), "this machine has ibus-gtk4 and fcitx5-frontend-gtk4")
        #expect(json["exit_status"] == .int(1))
    }

    @Test(.timeLimit(.minutes(2)))
    func aSettingsIniInTheUsersConfigDecidesWhenNothingElseDoes() throws {
        let session = try session("doctor-settings", x11: false)
        defer { session.stop() }
        let dir = session.configHome.appendingPathComponent("gtk-4.0", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "[Settings]\ngtk-im-module=gtk-im-context-simple\n"
            .write(to: dir.appendingPathComponent("settings.ini"), atomically: true, encoding: .utf8)
        let json = try report(session, environment: ["DISPLAY": ":99"])
        #expect(json["module"]?["name"] == .string("gtk-im-context-simple"))
        #expect(json["module"]?["source"] == .string("settings.ini"))
        #expect(json["module"]?["settings_file"] == .string(dir.appendingPathComponent("settings.ini").path))
        #expect(severity(json, "gtk-im-module") == "info", "no input method: worth knowing")
    }

    // MARK: (i) the desktop: GNOME and KDE Plasma on Wayland (crafted; nothing connects)

    /// GNOME on Wayland, named by XDG_CURRENT_DESKTOP: the report names it, GTK_IM_MODULE=ibus
    /// is the GNOME warning (bypassing gnome-shell), and GNOME's input sources are read from
    /// the session's GSettings.
    @Test(.timeLimit(.minutes(2)))
    func gnomeOnWaylandIsRecognisedAndGtkImModuleIBusIsAWarning() throws {
        let session = try session("doctor-gnome", x11: false)
        defer { session.stop() }
        try IBus.gsettingsSet(session, schema: "org.gnome.desktop.input-sources", key: "sources",
                              value: "[('xkb', 'us'), ('ibus', 'anthy')]")
        let env = ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-9"]
        let text = try doctor(session, environment: env.merging(["GTK_IM_MODULE": "ibus"]) { $1 })
        #expect(text.stdout.hasPrefix("ime-composer doctor: GTK 4 will use the ibus input method module "
            + "(Wayland session, desktop GNOME)."), "\(text.stdout)")
        #expect(text.stdout.contains("\nDesktop\n"), "\(text.stdout)")
        #expect(text.stdout.contains("bypassing gnome-shell") && text.stdout.contains("[gnome-im-module-override]"))

        let json = try report(session, environment: env.merging(["GTK_IM_MODULE": "ibus"]) { $1 })
        #expect(json["desktop"]?["id"] == .string("gnome"))
        #expect(severity(json, "gnome-im-module-override") == "warning")
        #expect(finding(json, "wayland-im-module-override") == nil, "said once, the GNOME way")
        #expect(json["facts"]?["gnome_input_sources"]
            == .array([.array([.string("xkb"), .string("us")]), .array([.string("ibus"), .string("anthy")])]))
        #expect(json["exit_status"] == .int(1))

        // Unset, GTK 4 uses the wayland module: no GNOME warning.
        let right = try report(session, environment: env)
        #expect(right["module"]?["name"] == .string("wayland"))
        #expect(severity(right, "desktop") == "ok")
        #expect(finding(right, "gnome-im-module-override") == nil)
    }

    /// KDE Plasma on Wayland, with a crafted kwinrc in the session's XDG_CONFIG_HOME: without
    /// a Virtual Keyboard GTK 4 applications get no input method (a problem); with Fcitx 5
    /// chosen the doctor reads the entry, and GTK_IM_MODULE=fcitx is the KWin warning.
    @Test(.timeLimit(.minutes(2)))
    func plasmaOnWaylandReadsKWinsVirtualKeyboardFromKwinrc() throws {
        let session = try session("doctor-plasma", x11: false)
        defer { session.stop() }
        let env = ["XDG_CURRENT_DESKTOP": "KDE", "XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-9"]
        let kwinrc = session.configHome.appendingPathComponent("kwinrc")
        try "[Wayland]\nVirtualKeyboardEnabled=true\n".write(to: kwinrc, atomically: true, encoding: .utf8)

        let missing = try report(session, environment: env)
        #expect(missing["desktop"]?["name"] == .string("KDE Plasma"))
        #expect(severity(missing, "kde-virtual-keyboard-missing") == "problem", "\(missing.serialized())")
        #expect(finding(missing, "kde-virtual-keyboard-missing")?["fix"]?.stringValue?
            .contains("System Settings → Keyboard → Virtual Keyboard") == true)
        #expect(missing["facts"]?["kwin_input_method"] == .null)

        let entry = "/usr/share/applications/org.fcitx.Fcitx5.desktop"
        try "[General]\nx=1\n\n[Wayland]\nInputMethod[$e]=\(entry)\n".write(to: kwinrc, atomically: true, encoding: .utf8)
        let chosen = try report(session, environment: env.merging(["GTK_IM_MODULE": "fcitx"]) { $1 })
        #expect(chosen["facts"]?["kwin_input_method"]?["value"] == .string(entry))
        #expect(chosen["facts"]?["kwin_input_method"]?["path"] == .string(kwinrc.path))
        #expect(finding(chosen, "kde-virtual-keyboard-missing") == nil)
        #expect(severity(chosen, "kde-virtual-keyboard") == "warning", "chosen, but no fcitx5 runs in this session")
        #expect(severity(chosen, "kde-im-module-override") == "warning")
        #expect(finding(chosen, "kde-im-module-override")?["fix"]?.stringValue?.hasPrefix("Unset GTK_IM_MODULE") == true)
        let text = try doctor(session, environment: env)
        #expect(text.stdout.hasPrefix("ime-composer doctor: GTK 4 will use the wayland input method module "
            + "(Wayland session, desktop KDE Plasma)."), "\(text.stdout)")
        #expect(text.stdout.contains("Fcitx5 is KWin's Virtual Keyboard (InputMethod=\(entry) in \(kwinrc.path))"),
                "\(text.stdout)")
    }

    /// A bus call that never returns (a `dbus-send` that hangs, first on PATH) is cut short
    /// by the doctor's time limit and reported; the doctor itself finishes.
    @Test(.timeLimit(.minutes(2)))
    func aHangingBusCallIsCutShortAndReported() throws {
        let session = try session("doctor-hang", x11: false)
        defer { session.stop() }
        let bin = session.directory.appendingPathComponent("hang-bin", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let fake = bin.appendingPathComponent("dbus-send")
        try "#!/bin/sh\nexec sleep 600\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let env = ["GTK_IM_MODULE": "ibus", "XMODIFIERS": "@im=ibus", "DISPLAY": ":99",
                   "PATH": bin.path + ":" + (session.environment["PATH"] ?? "/usr/bin:/bin")]
        let json = try report(session, environment: env)
        #expect(severity(json, "session-bus-unreachable") == "warning")
        #expect(severity(json, "ibus-not-checked") == "warning")
        #expect(finding(json, "ibus-not-checked")?["summary"]?.stringValue?.contains("did not answer within 3 s") == true,
                "\(json.serialized())")
    }

    // MARK: (g) usage

    @Test func aUsageErrorExitsTwoAndHelpNamesTheExitStatuses() throws {
        let session = try TestSession(name: "doctor-usage")
        defer { session.stop() }
        let bad = try doctor(session, ["--no-such-flag"], environment: [:])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--no-such-flag"), "\(bad.stderr)")
        #expect(bad.stdout.isEmpty)
        let help = try doctor(session, ["--help"], environment: [:])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--json") && help.stdout.contains("Exit status: 0"), "\(help.stdout)")
    }
}
