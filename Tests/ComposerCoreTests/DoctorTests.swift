import ComposerCore
import Testing

/// `Doctor.diagnose` from crafted facts: which module GTK 4 picks and why, one test per
/// rule (its id and severity), the healthy cases, and the two output forms.
@Suite("Doctor")
struct DoctorTests {
    static let bothModules = ["libim-fcitx5.so", "libim-ibus.so"]

    /// A working IBus setup on X11: GTK, XIM and Qt all sent to ibus-daemon, which runs
    /// anthy; ibus-hangul without event forwarding, both engines starting in their script.
    static func healthyIBus() -> DoctorFacts {
        DoctorFacts(
            environment: ["DISPLAY": ":1", "XDG_SESSION_TYPE": "x11", "GTK_IM_MODULE": "ibus",
                          "XMODIFIERS": "@im=ibus", "QT_IM_MODULE": "ibus", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/bus"],
            moduleLibraries: bothModules,
            ibus: .answering(current: "anthy"), fcitx5: .notAnswering,
            ibusComponents: ["anthy", "dconf", "hangul", "simple"], fcitx5InputMethods: ["anthy", "hangul"],
            engineSettings: [EngineSetting.hangulEventForwarding.rawValue: "false",
                             EngineSetting.hangulInitialInputMode.rawValue: "'hangul'",
                             EngineSetting.anthyInputMode.rawValue: "0"])
    }

    /// A working fcitx5 setup on X11 (no IBus engines installed).
    static func healthyFcitx5() -> DoctorFacts {
        DoctorFacts(
            environment: ["DISPLAY": ":1", "GTK_IM_MODULE": "fcitx", "XMODIFIERS": "@im=fcitx",
                          "QT_IM_MODULE": "fcitx", "SDL_IM_MODULE": "fcitx"],
            moduleLibraries: bothModules, ibus: .notAnswering, fcitx5: .answering(current: "anthy"),
            ibusComponents: ["dconf", "simple"], fcitx5InputMethods: ["anthy"])
    }

    func severity(_ report: DoctorReport, _ id: String) -> DoctorFinding.Severity? { report.finding(id)?.severity }

    func nothingToFix(_ report: DoctorReport) -> [String] {
        report.findings.filter { $0.severity >= .warning }.map { "\($0.id): \($0.summary)" }
    }

    // MARK: healthy

    @Test func aConsistentIBusSetupIsHealthy() {
        let report = Doctor.diagnose(Self.healthyIBus())
        #expect(nothingToFix(report).isEmpty, "\(nothingToFix(report))")
        #expect(report.exitStatus == 0 && !report.needsFixing)
        #expect(report.module.module == "ibus" && report.module.source == .environment)
        #expect(severity(report, "gtk-im-module") == .ok)
        #expect(report.finding("ibus-daemon")?.summary == "ibus-daemon answers on D-Bus; its global engine is anthy")
        #expect(severity(report, "ibus-daemon") == .ok)
        #expect(severity(report, "fcitx5") == .info, "not running, and nothing needs it")
        for id in ["session", "xmodifiers", "qt-im-module", "ibus-hangul-event-forwarding", "ibus-hangul-initial-mode",
                   "ibus-anthy-initial-mode", "engines-installed"] {
            #expect(severity(report, id) == .ok, "\(id): \(String(describing: report.finding(id)))")
        }
        #expect(report.finding("engines-installed")?.summary == "Installed engines — IBus: anthy, hangul; fcitx5: anthy, hangul")
        #expect(report.findings.allSatisfy { $0.severity == .ok ? $0.fix == nil : true })
    }

    @Test func aConsistentFcitx5SetupIsHealthy() {
        let report = Doctor.diagnose(Self.healthyFcitx5())
        #expect(nothingToFix(report).isEmpty, "\(nothingToFix(report))")
        #expect(report.exitStatus == 0)
        #expect(report.module.module == "fcitx")
        #expect(report.finding("fcitx5")?.summary == "fcitx5 answers on D-Bus; its current input method is anthy")
        #expect(severity(report, "qt-im-module") == .ok && severity(report, "sdl-im-module") == .ok)
        #expect(severity(report, "xmodifiers") == .ok)
        #expect(report.finding("ibus-hangul-event-forwarding") == nil, "ibus-hangul is not installed")
    }

    // MARK: which module GTK 4 picks

    @Test func gtkImModuleComesBeforeEverySetting() {
        var facts = Self.healthyFcitx5()
        facts.settingsFiles = [GtkSettingsFile(path: "/home/u/.config/gtk-4.0/settings.ini", exists: true, imModule: "ibus")]
        let choice = Doctor.diagnose(facts).module
        #expect(choice.module == "fcitx" && choice.source == .environment)
        #expect(choice.reason.contains("GTK_IM_MODULE=fcitx names it"))
    }

    @Test func aColonListTakesTheFirstUsableNameAndSkipsUnknownOnes() {
        var facts = Self.healthyIBus()
        facts.environment["GTK_IM_MODULE"] = "uim:fcitx5:ibus"
        let choice = Doctor.diagnose(facts).module
        #expect(choice.module == "fcitx5" && choice.source == .environment)
        #expect(choice.unusableEnvironmentNames == ["uim"])
        #expect(choice.reason.contains("after uim"))
    }

    @Test func unsetEverywhereOnX11GtkRanksIBusFirstThenFcitx5ThenTheSimpleContext() {
        var facts = DoctorFacts(environment: ["DISPLAY": ":0"], moduleLibraries: Self.bothModules)
        #expect(Doctor.diagnose(facts).module.module == "ibus")
        #expect(Doctor.diagnose(facts).module.source == .priority)
        facts.moduleLibraries = ["libim-fcitx5.so"]
        #expect(Doctor.diagnose(facts).module.module == "fcitx5")
        facts.moduleLibraries = []
        let report = Doctor.diagnose(facts)
        #expect(report.module.module == "gtk-im-context-simple")
        #expect(severity(report, "gtk-im-module") == .info, "no input method at all is worth knowing, not an error")
    }

    @Test func onWaylandGtkPrefersItsWaylandModule() {
        let facts = DoctorFacts(environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"],
                                moduleLibraries: Self.bothModules)
        let report = Doctor.diagnose(facts)
        #expect(report.backend == .wayland)
        #expect(report.module.module == "wayland" && report.module.source == .priority)
        #expect(report.finding("wayland-im-module-override") == nil)
    }

    @Test func settingsIniDecidesOnX11TheUsersFileFirst() {
        var facts = DoctorFacts(environment: ["DISPLAY": ":0"], moduleLibraries: Self.bothModules)
        facts.settingsFiles = [
            GtkSettingsFile(path: "/u/gtk-4.0/settings.ini", exists: true, imModule: "fcitx"),
            GtkSettingsFile(path: "/etc/xdg/gtk-4.0/settings.ini", exists: true, imModule: "gtk-im-context-simple"),
        ]
        let choice = Doctor.diagnose(facts).module
        #expect(choice.module == "fcitx" && choice.source == .settingsFile)
        #expect(choice.settingsPath == "/u/gtk-4.0/settings.ini")
        facts.settingsFiles[0].imModule = nil
        #expect(Doctor.diagnose(facts).module.module == "gtk-im-context-simple")
    }

    @Test func onWaylandGSettingsDecidesAndHidesSettingsIni() {
        var facts = DoctorFacts(environment: ["WAYLAND_DISPLAY": "wayland-0"], moduleLibraries: Self.bothModules)
        facts.settingsFiles = [GtkSettingsFile(path: "/u/gtk-4.0/settings.ini", exists: true, imModule: "fcitx")]
        facts.gsettingsIMModule = ""
        var report = Doctor.diagnose(facts)
        #expect(report.module.module == "wayland", "an empty GSettings value hides settings.ini on Wayland")
        #expect(severity(report, "settings-ini-ignored-on-wayland") == .info)
        facts.gsettingsIMModule = "ibus"
        report = Doctor.diagnose(facts)
        #expect(report.module.module == "ibus" && report.module.source == .gsettings)
    }

    @Test func gsettingsOnX11IsOnlyANoteAboutSettingsDaemons() {
        var facts = DoctorFacts(environment: ["DISPLAY": ":0"], moduleLibraries: Self.bothModules)
        facts.gsettingsIMModule = "fcitx"
        let report = Doctor.diagnose(facts)
        #expect(report.module.module == "ibus", "GTK on X11 does not read GSettings itself")
        #expect(severity(report, "gsettings-im-module-on-x11") == .info)
    }

    // MARK: the module named is not there

    @Test func gtkImModuleNamingNoInstalledModuleIsAProblem() {
        var facts = Self.healthyIBus()
        facts.environment["GTK_IM_MODULE"] = "uim"
        let report = Doctor.diagnose(facts)
        #expect(severity(report, "im-module-not-installed") == .problem)
        #expect(report.module.module == "ibus" && report.module.source == .priority)
        #expect(report.finding("im-module-not-installed")?.fix?.contains("(fcitx, fcitx5, ibus, gtk-im-context-simple)") == true)
        #expect(report.exitStatus == 1)
    }

    @Test(arguments: [("fcitx", "fcitx5-frontend-gtk4"), ("wayland", "only in a Wayland session"),
                      ("simple", "gtk-im-context-simple"), ("xim", "no XIM module")])
    func theFixSaysWhyAModuleCannotBeUsed(name: String, advice: String) {
        var facts = Self.healthyIBus()
        facts.moduleLibraries = ["libim-ibus.so"]
        facts.environment["GTK_IM_MODULE"] = name
        let finding = Doctor.diagnose(facts).finding("im-module-not-installed")
        #expect(finding?.severity == .problem)
        #expect(finding?.fix?.contains(advice) == true, "\(String(describing: finding?.fix))")
    }

    @Test func aSettingNamingNoInstalledModuleIsAWarning() {
        var facts = DoctorFacts(environment: ["DISPLAY": ":0"], moduleLibraries: ["libim-ibus.so"], ibus: .answering(current: "anthy"))
        facts.settingsFiles = [GtkSettingsFile(path: "/u/gtk-4.0/settings.ini", exists: true, imModule: "fcitx")]
        let report = Doctor.diagnose(facts)
        #expect(report.module.module == "ibus")
        #expect(severity(report, "settings-im-module-not-installed") == .warning)
    }

    // MARK: daemons

    @Test func gtkUsingIBusWhileIBusDoesNotAnswerIsAProblem() {
        var facts = Self.healthyIBus()
        facts.ibus = .notAnswering
        let report = Doctor.diagnose(facts)
        let finding = report.finding("ibus-not-answering")
        #expect(finding?.severity == .problem)
        #expect(finding?.summary.contains("ibus-daemon is not answering") == true)
        #expect(finding?.fix?.contains("ibus-daemon -drx") == true)
        #expect(report.finding("ibus-daemon") == nil)
        #expect(report.exitStatus == 1)
    }

    @Test func theDefaultIBusModuleWithOnlyFcitx5RunningIsAProblemWhoseFixNamesFcitx() {
        let facts = DoctorFacts(environment: ["DISPLAY": ":0", "XMODIFIERS": "@im=fcitx"], moduleLibraries: Self.bothModules,
                                ibus: .notAnswering, fcitx5: .answering(current: "anthy"))
        let report = Doctor.diagnose(facts)
        let finding = report.finding("ibus-not-answering")
        #expect(finding?.severity == .problem)
        #expect(finding?.summary.contains("by itself") == true, "says GTK chose ibus without being told")
        #expect(finding?.fix?.contains("GTK_IM_MODULE=fcitx") == true)
    }

    @Test func fcitx5StandingInForIBusServesGtksIBusModule() {
        // fcitx5's IBus frontend owns org.freedesktop.IBus: GTK's ibus module reaches fcitx5.
        var facts = Self.healthyFcitx5()
        facts.environment["GTK_IM_MODULE"] = "ibus"
        facts.ibusServedByFcitx5 = true
        let report = Doctor.diagnose(facts)
        #expect(severity(report, "ibus-served-by-fcitx5") == .info)
        #expect(report.finding("ibus-not-answering") == nil)
        #expect(severity(report, "xmodifiers") == .ok, "XMODIFIERS=@im=fcitx matches fcitx5, which GTK reaches")
        #expect(report.exitStatus == 0, "\(nothingToFix(report))")
        facts.environment["GTK_IM_MODULE"] = "fcitx"
        let unused = Doctor.diagnose(facts)
        #expect(unused.finding("ibus-daemon")?.summary.contains("fcitx5 answers IBus clients in its place") == true)
        #expect(unused.finding("both-daemons-running") == nil)
    }

    @Test func gtkUsingFcitxWhileFcitx5DoesNotAnswerIsAProblem() {
        var facts = Self.healthyFcitx5()
        facts.fcitx5 = .notAnswering
        let report = Doctor.diagnose(facts)
        #expect(severity(report, "fcitx5-not-answering") == .problem)
        #expect(report.finding("fcitx5-not-answering")?.fix?.contains("fcitx5 -d") == true)
    }

    @Test func bothDaemonsRunningIsAWarning() {
        var facts = Self.healthyIBus()
        facts.fcitx5 = .answering(current: "anthy")
        let report = Doctor.diagnose(facts)
        #expect(severity(report, "both-daemons-running") == .warning)
        #expect(report.finding("both-daemons-running")?.summary.contains("GTK 4 applications reach ibus-daemon") == true)
    }

    @Test func aDaemonGtkNeverReachesIsAWarning() {
        var facts = Self.healthyFcitx5()
        facts.environment["GTK_IM_MODULE"] = "gtk-im-context-simple"
        let report = Doctor.diagnose(facts)
        #expect(severity(report, "daemon-unused") == .warning)
        #expect(report.finding("daemon-unused")?.fix?.contains("GTK_IM_MODULE=fcitx instead of gtk-im-context-simple") == true)
    }

    @Test func aDaemonWithoutAnEngineOrOnAKeyboardLayoutIsWorthKnowing() {
        var facts = Self.healthyIBus()
        facts.ibus = .answering(current: nil)
        #expect(severity(Doctor.diagnose(facts), "ibus-daemon") == .info)
        var fcitx = Self.healthyFcitx5()
        fcitx.fcitx5 = .answering(current: "keyboard-us")
        let finding = Doctor.diagnose(fcitx).finding("fcitx5")
        #expect(finding?.severity == .info)
        #expect(finding?.summary.contains("keyboard-us, a plain keyboard layout") == true)
    }

    @Test func noSessionBusMeansTheDaemonsCouldNotBeAsked() {
        var facts = Self.healthyIBus()
        facts.sessionBusReachable = false
        facts.ibus = .unknown("no D-Bus session bus")
        facts.fcitx5 = .unknown("no D-Bus session bus")
        let report = Doctor.diagnose(facts)
        #expect(severity(report, "session-bus-unreachable") == .warning)
        #expect(severity(report, "ibus-not-checked") == .warning, "GTK will use ibus: it matters")
        #expect(severity(report, "fcitx5-not-checked") == .info, "nothing uses fcitx5")
    }

    // MARK: environment

    @Test func xmodifiersNamingAnotherDaemonIsAMismatch() {
        var facts = Self.healthyIBus()
        facts.environment["XMODIFIERS"] = "@im=fcitx"
        let finding = Doctor.diagnose(facts).finding("xmodifiers-mismatch")
        #expect(finding?.severity == .warning)
        #expect(finding?.summary.contains("to fcitx5, but GTK 4 uses ibus-daemon") == true, "\(String(describing: finding))")
        #expect(finding?.fix?.contains("XMODIFIERS=@im=ibus") == true)
    }

    @Test func xmodifiersNamingADaemonThatIsNotRunningIsAMismatch() {
        let facts = DoctorFacts(environment: ["DISPLAY": ":0", "XMODIFIERS": "@im=fcitx", "GTK_IM_MODULE": "gtk-im-context-simple"],
                                moduleLibraries: Self.bothModules)
        #expect(severity(Doctor.diagnose(facts), "xmodifiers-mismatch") == .warning)
    }

    @Test func x11WithoutXmodifiersIsAWarningButWaylandIsNot() {
        var facts = Self.healthyIBus()
        facts.environment["XMODIFIERS"] = nil
        #expect(severity(Doctor.diagnose(facts), "xmodifiers-missing") == .warning)
        facts.environment = ["WAYLAND_DISPLAY": "wayland-0"]
        #expect(Doctor.diagnose(facts).finding("xmodifiers-missing") == nil)
    }

    @Test func qtAndSdlVariablesNamingAnotherDaemonAreMismatches() {
        var facts = Self.healthyIBus()
        facts.environment["QT_IM_MODULE"] = "fcitx"
        facts.environment["SDL_IM_MODULE"] = "fcitx"
        let report = Doctor.diagnose(facts)
        #expect(severity(report, "qt-im-module-mismatch") == .warning)
        #expect(severity(report, "sdl-im-module-mismatch") == .warning)
        #expect(report.finding("qt-im-module-mismatch")?.fix == "export QT_IM_MODULE=ibus so Qt applications reach the same input method.")
    }

    @Test func waylandWithGtkImModuleForcingADaemonIsAWarningThatSaysWhatItMeans() {
        let facts = DoctorFacts(environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland",
                                              "GTK_IM_MODULE": "fcitx", "XMODIFIERS": "@im=fcitx"],
                                moduleLibraries: Self.bothModules, fcitx5: .answering(current: "anthy"))
        let report = Doctor.diagnose(facts)
        let finding = report.finding("wayland-im-module-override")
        #expect(finding?.severity == .warning)
        #expect(finding?.summary.contains("candidate windows") == true)
        #expect(finding?.fix?.contains("Unset GTK_IM_MODULE") == true)
        #expect(report.module.module == "fcitx")
    }

    @Test func waylandWithTheWaylandModuleNotesThatTheCompositorConnectsTheDaemon() {
        let facts = DoctorFacts(environment: ["WAYLAND_DISPLAY": "wayland-0", "QT_IM_MODULE": "fcitx"],
                                moduleLibraries: Self.bothModules, fcitx5: .answering(current: "anthy"))
        let report = Doctor.diagnose(facts)
        #expect(severity(report, "wayland-compositor-im") == .info)
        #expect(severity(report, "qt-im-module") == .ok, "fcitx5 is the one running")
        #expect(report.exitStatus == 0)
    }

    @Test func gdkBackendX11InAWaylandSessionMeansXWayland() {
        let facts = DoctorFacts(environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "GDK_BACKEND": "x11",
                                              "XDG_SESSION_TYPE": "wayland"], moduleLibraries: Self.bothModules)
        let report = Doctor.diagnose(facts)
        #expect(report.backend == .x11)
        #expect(severity(report, "xwayland") == .info)
        #expect(report.module.module == "ibus")
    }

    @Test func noDisplayIsWorthKnowing() {
        let report = Doctor.diagnose(DoctorFacts(moduleLibraries: Self.bothModules))
        #expect(report.backend == .none)
        #expect(severity(report, "no-display") == .info)
        #expect(report.finding("gtk-im-module")?.summary.contains("by X11's rules") == true)
    }

    // MARK: engines

    /// Issue #31, item 5: ibus-hangul's event forwarding loses keys only for someone typing
    /// with ibus-hangul — the engine now, or one switch away in IBus's preload-engines.
    @Test func ibusHangulEventForwardingIsAWarningWhenHangulIsTheEngine() {
        var facts = Self.healthyIBus()
        facts.ibus = .answering(current: "hangul")
        facts.engineSettings[EngineSetting.hangulEventForwarding.rawValue] = "true"
        let report = Doctor.diagnose(facts)
        var finding = report.finding("ibus-hangul-event-forwarding")
        #expect(finding?.severity == .warning)
        #expect(finding?.summary.hasPrefix("ibus-hangul (IBus's engine now) forwards keys") == true, "\(String(describing: finding))")
        #expect(finding?.fix == "gsettings set org.freedesktop.ibus.engine.hangul use-event-forwarding false, then ibus restart.")
        #expect(report.exitStatus == 1)
        facts.engineSettings[EngineSetting.hangulEventForwarding.rawValue] = nil
        finding = Doctor.diagnose(facts).finding("ibus-hangul-event-forwarding")
        #expect(finding?.severity == .warning)
        #expect(finding?.summary.contains("could not be read; on is the default") == true)
    }

    @Test func ibusHangulEventForwardingIsAWarningWhenHangulIsInPreloadEngines() {
        var facts = Self.healthyIBus()
        facts.engineSettings[EngineSetting.hangulEventForwarding.rawValue] = "true"
        facts.ibusPreloadEngines = ["xkb:us::eng", "anthy", "hangul"]
        let report = Doctor.diagnose(facts)
        let finding = report.finding("ibus-hangul-event-forwarding")
        #expect(finding?.severity == .warning)
        #expect(finding?.summary.hasPrefix("ibus-hangul (in IBus's preload-engines) forwards keys") == true, "\(String(describing: finding))")
        #expect(report.exitStatus == 1)
    }

    /// The issue's case: ibus-anthy in use, ibus-hangul installed with its default event
    /// forwarding — a note that says why it is one, and exit status 0.
    @Test func ibusHangulEventForwardingIsANoteWhenHangulIsOnlyInstalled() {
        var facts = Self.healthyIBus()
        facts.engineSettings[EngineSetting.hangulEventForwarding.rawValue] = "true"
        facts.ibusPreloadEngines = ["anthy"]
        var report = Doctor.diagnose(facts)
        var finding = report.finding("ibus-hangul-event-forwarding")
        #expect(finding?.severity == .info)
        #expect(finding?.summary == "ibus-hangul (installed, neither IBus's engine nor in its preload-engines) forwards keys it "
                + "does not use back to the application: typing Korean with it under GTK 4 would lose Return and BackSpace")
        #expect(finding?.fix != nil, "the fix is still worth knowing before switching to it")
        #expect(report.exitStatus == 0, "\(nothingToFix(report))")
        // preload-engines could not be read: not known to be used, so a note that says so.
        facts.ibusPreloadEngines = nil
        report = Doctor.diagnose(facts)
        finding = report.finding("ibus-hangul-event-forwarding")
        #expect(finding?.severity == .info && report.exitStatus == 0)
        #expect(finding?.summary.contains("IBus's preload-engines could not be read") == true, "\(String(describing: finding))")
    }

    @Test func ibusHangulEventForwardingIsOnlyANoteWhenIBusIsNotInUse() {
        var facts = Self.healthyFcitx5()
        facts.ibusComponents.append("hangul")
        #expect(severity(Doctor.diagnose(facts), "ibus-hangul-event-forwarding") == .info)
        // Listed in IBus's preload-engines, but IBus is not what anyone reaches.
        facts.ibusPreloadEngines = ["hangul"]
        let report = Doctor.diagnose(facts)
        #expect(severity(report, "ibus-hangul-event-forwarding") == .info)
        #expect(report.finding("ibus-hangul-event-forwarding")?.summary.contains("in IBus's preload-engines, but IBus is not in use") == true)
        #expect(report.exitStatus == 0)
    }

    @Test func enginesStartingInLatinModeAreNotes() {
        var facts = Self.healthyIBus()
        facts.engineSettings[EngineSetting.anthyInputMode.rawValue] = "3"
        facts.engineSettings[EngineSetting.hangulInitialInputMode.rawValue] = "'latin'"
        facts.ibusComponents.append("mozc")
        let report = Doctor.diagnose(facts)
        #expect(severity(report, "ibus-anthy-initial-mode") == .info)
        #expect(report.finding("ibus-anthy-initial-mode")?.fix?.contains("input-mode 0") == true)
        #expect(severity(report, "ibus-hangul-initial-mode") == .info)
        #expect(severity(report, "ibus-mozc-initial-mode") == .info)
        #expect(report.exitStatus == 0, "a Latin start surprises; it breaks nothing")
    }

    @Test func mozcAsRootIsAProblemOnlyWhileInUseAndRootAloneIsNothing() {
        var facts = Self.healthyIBus()
        facts.isRoot = true
        #expect(Doctor.diagnose(facts).finding("mozc-as-root") == nil)
        facts.fcitx5InputMethods.append("mozc")
        #expect(severity(Doctor.diagnose(facts), "mozc-as-root") == .info, "installed, not in use")
        #expect(Doctor.diagnose(facts).exitStatus == 0)
        facts.fcitx5 = .answering(current: "mozc")
        #expect(severity(Doctor.diagnose(facts), "mozc-as-root") == .problem)
        facts.fcitx5 = .notAnswering
        facts.fcitx5InputMethods.removeLast()
        facts.mozcServerInstalled = true
        facts.ibusComponents.append("mozc")
        facts.ibus = .answering(current: "mozc-jp")
        #expect(severity(Doctor.diagnose(facts), "mozc-as-root") == .problem)
        #expect(Doctor.diagnose(facts).exitStatus != 0)
        facts.ibus = .answering(current: "anthy")
        #expect(severity(Doctor.diagnose(facts), "mozc-as-root") == .info)
        facts.isRoot = false
        #expect(Doctor.diagnose(facts).finding("mozc-as-root") == nil)
    }

    /// One switch away (IBus's preload-engines, fcitx5's profile) Mozc would convert nothing
    /// as root: a warning, so exit status 1.
    @Test func mozcAsRootIsAWarningWhileOneSwitchAway() {
        var facts = Self.healthyIBus()
        facts.isRoot = true
        facts.ibusComponents.append("mozc")
        facts.ibusPreloadEngines = ["anthy", "mozc-jp"]
        var report = Doctor.diagnose(facts)
        #expect(severity(report, "mozc-as-root") == .warning)
        #expect(report.finding("mozc-as-root")?.summary.contains("one switch away") == true)
        #expect(report.exitStatus == 1)

        facts = Self.healthyFcitx5()
        facts.isRoot = true
        facts.fcitx5InputMethods.append("mozc")
        facts.fcitx5ProfileInputMethods = ["keyboard-us", "anthy"]
        #expect(severity(Doctor.diagnose(facts), "mozc-as-root") == .info)
        facts.fcitx5ProfileInputMethods = ["keyboard-us", "anthy", "mozc"]
        report = Doctor.diagnose(facts)
        #expect(severity(report, "mozc-as-root") == .warning)
        #expect(report.exitStatus == 1)
        facts.fcitx5 = .notAnswering
        facts.environment["GTK_IM_MODULE"] = "ibus"
        facts.ibus = .answering(current: "anthy")
        #expect(severity(Doctor.diagnose(facts), "mozc-as-root") == .info, "in fcitx5's profile, but fcitx5 is not in use")
    }

    @Test func noEnginesAtAllIsANote() {
        let facts = DoctorFacts(environment: ["DISPLAY": ":0", "GTK_IM_MODULE": "gtk-im-context-simple"],
                                ibusComponents: ["dconf", "simple"])
        let report = Doctor.diagnose(facts)
        #expect(severity(report, "no-engines") == .info)
        #expect(report.exitStatus == 0, "dead keys only is a valid setup")
    }

    // MARK: output

    @Test func theTextReportGroupsFindingsOneALineWithWhatToFix() {
        var facts = Self.healthyIBus()
        facts.ibus = .notAnswering
        facts.environment["XMODIFIERS"] = "@im=fcitx"
        let report = Doctor.diagnose(facts)
        let text = report.text()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "ime-composer doctor: GTK 4 will use the ibus input method module (X11 session).")
        #expect(lines.last == "" && lines.dropLast().last == "1 problem, 1 warning: needs fixing (exit status 1).")
        let headings = DoctorFinding.Topic.allCases.map(\.rawValue)
        #expect(headings.allSatisfy { lines.contains($0) })
        #expect(headings.compactMap { lines.firstIndex(of: $0) } == headings.compactMap { lines.firstIndex(of: $0) }.sorted())
        for finding in report.findings {
            let line = lines.filter { $0.hasSuffix("[\(finding.id)]") && $0.contains(finding.summary) }
            #expect(line.count == 1, "one line for \(finding.id)")
        }
        let problem = lines.firstIndex { $0.hasPrefix("  PROBLEM  ") && $0.hasSuffix("[ibus-not-answering]") }
        #expect(problem.map { lines[$0 + 1].hasPrefix("           fix: Start ibus-daemon") } == true, "the fix follows its finding")
        #expect(Doctor.diagnose(Self.healthyIBus()).text().hasSuffix("\nHealthy: nothing needs fixing (exit status 0).\n"))
    }

    @Test func theJsonReportHasTheFindingsAndTheFacts() throws {
        var facts = Self.healthyIBus()
        facts.environment["XMODIFIERS"] = "@im=fcitx"
        let report = Doctor.diagnose(facts)
        let json = try JSONValue.parse(report.json(facts: facts).serialized())
        #expect(json["healthy"] == .bool(false))
        #expect(json["exit_status"] == .int(1))
        #expect(json["backend"] == .string("x11"))
        #expect(json["module"]?["name"] == .string("ibus"))
        #expect(json["module"]?["source"] == .string("GTK_IM_MODULE"))
        let findings = try #require(json["findings"]?.arrayValue)
        #expect(findings.count == report.findings.count)
        for finding in findings {
            #expect(finding.objectMembers?.map(\.0) == ["id", "severity", "topic", "summary", "fix"])
        }
        let mismatch = try #require(findings.first { $0["id"] == .string("xmodifiers-mismatch") })
        #expect(mismatch["severity"] == .string("warning"))
        #expect(mismatch["fix"]?.stringValue?.contains("@im=ibus") == true)
        #expect(findings.first { $0["id"] == .string("gtk-im-module") }?["fix"] == .null)
        #expect(json["facts"]?["ibus"]?["engine"] == .string("anthy"))
        #expect(json["facts"]?["fcitx5"]?["answering"] == .bool(false))
        #expect(json["facts"]?["environment"]?["XMODIFIERS"] == .string("@im=fcitx"))
        #expect(json["facts"]?["installed_modules"] == .array([.string("fcitx"), .string("fcitx5"), .string("ibus")]))
        #expect(json["facts"]?["ibus_preload_engines"] == .null, "not read")
        #expect(json["facts"]?["fcitx5_profile_input_methods"] == .null, "no profile")
        facts.ibusPreloadEngines = ["anthy", "hangul"]
        facts.fcitx5ProfileInputMethods = []
        let read = try JSONValue.parse(Doctor.diagnose(facts).json(facts: facts).serialized())
        #expect(read["facts"]?["ibus_preload_engines"] == .array([.string("anthy"), .string("hangul")]))
        #expect(read["facts"]?["fcitx5_profile_input_methods"] == .array([]))
    }

    // MARK: reading the facts

    @Test func settingsIniReaderFindsGtkImModuleInTheSettingsGroup() {
        #expect(GtkSettingsFile.imModule(inSettingsIni: "[Settings]\ngtk-theme-name=Adwaita\ngtk-im-module = fcitx \n") == "fcitx")
        #expect(GtkSettingsFile.imModule(inSettingsIni: "# gtk-im-module=ibus\n[Settings]\n#gtk-im-module=ibus\n") == nil)
        #expect(GtkSettingsFile.imModule(inSettingsIni: "[Other]\ngtk-im-module=ibus\n") == nil)
        #expect(GtkSettingsFile.imModule(inSettingsIni: "[Settings]\ngtk-im-module=ibus\ngtk-im-module=fcitx\n") == "fcitx")
        #expect(GtkSettingsFile.imModule(inSettingsIni: "[Settings]\ngtk-im-module=\n") == "")
    }

    @Test func gsettingsTextAndXmodifiersAreRead() {
        #expect(GVariantText.string("'fcitx'\n") == "fcitx")
        #expect(GVariantText.string("''") == "")
        #expect(GVariantText.bool("false\n") == false)
        #expect(GVariantText.int("uint32 3") == 3)
        #expect(InputFramework.xmodifiersName("@im=fcitx5") == "fcitx5")
        #expect(InputFramework(xmodifiers: "@im=fcitx5") == .fcitx5)
        #expect(InputFramework(xmodifiers: "@im=none") == nil)
        #expect(InputFramework(xmodifiers: "") == nil)
    }

    @Test func preloadEnginesAreReadFromGsettingsText() {
        #expect(GVariantText.strings("@as []\n") == [])
        #expect(GVariantText.strings("['anthy', 'hangul']\n") == ["anthy", "hangul"])
        #expect(GVariantText.strings("['xkb:us::eng']") == ["xkb:us::eng"])
        #expect(GVariantText.strings(#"["it's", 'a\'b', 'c\\d']"#) == ["it's", "a'b", "c\\d"])
        #expect(GVariantText.strings("[]") == [])
        for bad in ["", "'anthy'", "['anthy'", "['anthy',]", "['anthy' 'hangul']", "[anthy]", "['a'] x"] {
            #expect(GVariantText.strings(bad) == nil, "\(bad)")
        }
    }

    @Test func fcitx5ProfileGivesEveryGroupsInputMethods() {
        let profile = """
            [Groups/0]
            # Group Name
            Name=Default
            Default Layout=us
            DefaultIM=anthy

            [Groups/0/Items/0]
            Name=keyboard-us
            Layout=

            [Groups/0/Items/1]
            Name = anthy

            [Groups/1]
            Name=Other

            [Groups/1/Items/0]
            Name=mozc

            [Groups/1/Items/1]
            Name=anthy

            [GroupOrder]
            0=Default
            1=Other
            """
        #expect(Fcitx5Profile.inputMethods(inProfile: profile) == ["keyboard-us", "anthy", "mozc"])
        #expect(Fcitx5Profile.inputMethods(inProfile: "") == [])
        #expect(Fcitx5Profile.inputMethods(inProfile: "[Groups/0]\nName=mozc\n") == [], "a group's name is no input method")
    }

    @Test func theBackendFollowsGdkBackendThenTheDisplays() {
        #expect(GtkBackend.resolve(environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]) == .wayland)
        #expect(GtkBackend.resolve(environment: ["DISPLAY": ":0"]) == .x11)
        #expect(GtkBackend.resolve(environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "GDK_BACKEND": "x11"]) == .x11)
        #expect(GtkBackend.resolve(environment: ["DISPLAY": ":0", "GDK_BACKEND": "wayland,x11"]) == .x11)
        #expect(GtkBackend.resolve(environment: ["DISPLAY": ":0", "GDK_BACKEND": "wayland"]) == .none)
        #expect(GtkBackend.resolve(environment: [:]) == .none)
    }

    @Test func moduleFilesMapToTheNamesTheyRegister() {
        #expect(GtkModuleCatalog.moduleNames(libraries: ["libim-fcitx5.so", "libim-ibus.so", "libim-uim.so", "README"])
                == ["fcitx", "fcitx5", "ibus", "uim"])
    }
}
