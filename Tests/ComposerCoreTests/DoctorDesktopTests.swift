import ComposerCore
import Testing

/// The doctor's desktop rules (`Doctor+Desktop.swift`) from crafted facts: GNOME (gnome-shell
/// runs IBus) and KDE Plasma (KWin starts its Virtual Keyboard), on Wayland and on X11, each
/// combination's finding and fix, and no finding to fix when the setup is right.
@Suite("Doctor desktops")
struct DoctorDesktopTests {
    static let bothModules = ["libim-fcitx5.so", "libim-ibus.so"]
    static let fcitx5Desktop = "/usr/share/applications/org.fcitx.Fcitx5.desktop"

    /// GNOME on Wayland as installed: no GTK_IM_MODULE, gnome-shell's ibus-daemon with anthy,
    /// anthy among GNOME's input sources.
    static func gnomeWayland() -> DoctorFacts {
        DoctorFacts(
            environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0",
                          "XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "XMODIFIERS": "@im=ibus"],
            moduleLibraries: bothModules, ibus: .answering(current: "anthy"),
            ibusVersion: "1.5.27", ibusComponents: ["anthy", "dconf", "simple"],
            gnomeInputSources: [GnomeInputSource(type: "xkb", id: "us"), GnomeInputSource(type: "ibus", id: "anthy")])
    }

    /// KDE Plasma on Wayland as fcitx5 asks: Fcitx 5 chosen as KWin's Virtual Keyboard, no
    /// GTK_IM_MODULE, fcitx5 (started by KWin) with anthy.
    static func plasmaWayland() -> DoctorFacts {
        DoctorFacts(
            environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland", "DISPLAY": ":1",
                          "XDG_CURRENT_DESKTOP": "KDE", "XDG_SESSION_DESKTOP": "KDE", "XMODIFIERS": "@im=fcitx"],
            moduleLibraries: bothModules, fcitx5: .answering(current: "anthy"),
            ibusComponents: ["dconf", "simple"], fcitx5InputMethods: ["anthy"],
            kwinInputMethod: KWinInputMethod(path: "/home/u/.config/kwinrc", value: fcitx5Desktop))
    }

    func severity(_ report: DoctorReport, _ id: String) -> DoctorFinding.Severity? { report.finding(id)?.severity }

    func toFix(_ report: DoctorReport) -> [String] {
        report.findings.filter { $0.severity >= .warning }.map { "\($0.id): \($0.summary)" }
    }

    // MARK: recognising the desktop

    @Test func theDesktopComesFromXdgCurrentDesktopElseXdgSessionDesktop() {
        #expect(SessionDesktop.resolve(environment: ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]) == .gnome)
        #expect(SessionDesktop.resolve(environment: ["XDG_CURRENT_DESKTOP": "GNOME-Classic:GNOME"]) == .gnome)
        #expect(SessionDesktop.resolve(environment: ["XDG_CURRENT_DESKTOP": "KDE"]) == .plasma)
        #expect(SessionDesktop.resolve(environment: ["XDG_CURRENT_DESKTOP": "sway", "XDG_SESSION_DESKTOP": "gnome"]) == .other("sway"),
                "XDG_CURRENT_DESKTOP wins")
        #expect(SessionDesktop.resolve(environment: ["XDG_SESSION_DESKTOP": "plasmawayland"]) == .plasma)
        #expect(SessionDesktop.resolve(environment: ["XDG_SESSION_DESKTOP": "gnome"]) == .gnome)
        #expect(SessionDesktop.resolve(environment: ["XDG_CURRENT_DESKTOP": ""]) == .unknown)
        #expect(SessionDesktop.resolve(environment: [:]) == .unknown)
        #expect(SessionDesktop.plasma.name == "KDE Plasma" && SessionDesktop.unknown.name == nil)
    }

    @Test func kwinrcsInputMethodIsReadFromTheWaylandGroup() {
        let kwinrc = """
            [Plugins]
            InputMethod=wrong-group.desktop

            [Wayland]
            # System Settings writes the entry with [$e]
            InputMethod[$e]=/usr/share/applications/org.fcitx.Fcitx5.desktop
            VirtualKeyboardEnabled=true
            """
        #expect(KWinInputMethod.value(inKwinrc: kwinrc) == Self.fcitx5Desktop)
        #expect(KWinInputMethod.value(inKwinrc: "[Wayland]\nInputMethod=a.desktop\nInputMethod=b.desktop\n") == "b.desktop")
        #expect(KWinInputMethod.value(inKwinrc: "[Wayland]\nInputMethod=\n") == "")
        #expect(KWinInputMethod.value(inKwinrc: "[Wayland]\nVirtualKeyboardEnabled=true\n") == nil)
        #expect(KWinInputMethod.value(inKwinrc: "[Wayland][Sub]\nInputMethod=x.desktop\n") == nil)
        #expect(KWinInputMethod(path: "k", value: Self.fcitx5Desktop).framework == .fcitx5)
        #expect(KWinInputMethod(path: "k", value: "fcitx5-wayland-launcher.desktop").framework == .fcitx5)
        #expect(KWinInputMethod(path: "k", value: "/usr/share/applications/org.freedesktop.IBus.Panel.Wayland.Gtk3.desktop")
            .framework == .ibus)
        let maliit = KWinInputMethod(path: "k", value: "/usr/share/applications/com.github.maliit.keyboard.desktop")
        #expect(maliit.framework == nil && maliit.desktopFileName == "com.github.maliit.keyboard")
    }

    @Test func gnomesInputSourcesAreReadFromGsettingsText() {
        #expect(GnomeInputSource.sources(fromGVariant: "[('xkb', 'us'), ('ibus', 'anthy')]\n")
            == [GnomeInputSource(type: "xkb", id: "us"), GnomeInputSource(type: "ibus", id: "anthy")])
        #expect(GnomeInputSource.sources(fromGVariant: "@a(ss) []") == [])
        #expect(GnomeInputSource.sources(fromGVariant: "[('ibus', 'm17n:vi:telex')]") == [GnomeInputSource(type: "ibus", id: "m17n:vi:telex")])
        #expect(GnomeInputSource.sources(fromGVariant: "['xkb', 'us']") == nil, "not pairs")
        #expect(GnomeInputSource.sources(fromGVariant: "[('xkb', 'us', 'x')]") == nil)
        #expect(GnomeInputSource.sources(fromGVariant: "[('xkb', 'us')") == nil)
        #expect(GnomeInputSource.sources(fromGVariant: "No such schema") == nil)
    }

    // MARK: GNOME

    @Test func gnomeOnWaylandWithTheWaylandModuleAndIBusInItsInputSourcesIsHealthy() {
        let report = Doctor.diagnose(Self.gnomeWayland())
        #expect(toFix(report).isEmpty, "\(toFix(report))")
        #expect(report.desktop == .gnome && report.module.module == "wayland")
        #expect(severity(report, "desktop") == .ok)
        #expect(report.finding("desktop")?.summary.contains("mutter → gnome-shell → ibus-daemon") == true)
        #expect(report.finding("desktop")?.summary.contains("XDG_CURRENT_DESKTOP=ubuntu:GNOME") == true)
        #expect(severity(report, "gnome-input-sources") == .ok)
        #expect(report.finding("wayland-compositor-im") == nil, "the desktop's rule says how IBus is reached")
        #expect(report.text().hasPrefix("ime-composer doctor: GTK 4 will use the wayland input method module "
            + "(Wayland session, desktop GNOME).\n"))
    }

    @Test func gnomeOnWaylandWithGtkImModuleIBusBypassesTheShell() {
        var facts = Self.gnomeWayland()
        facts.environment["GTK_IM_MODULE"] = "ibus"
        let report = Doctor.diagnose(facts)
        let finding = report.finding("gnome-im-module-override")
        #expect(finding?.severity == .warning)
        #expect(finding?.summary.contains("bypassing gnome-shell") == true)
        #expect(finding?.summary.contains("candidate window can open in the wrong place") == true)
        #expect(finding?.fix?.hasPrefix("Unset GTK_IM_MODULE") == true)
        #expect(report.finding("wayland-im-module-override") == nil, "said once, the GNOME way")
        #expect(report.exitStatus == 1)

        // The same module through GSettings.
        facts.environment["GTK_IM_MODULE"] = nil
        facts.gsettingsIMModule = "ibus"
        #expect(Doctor.diagnose(facts).finding("gnome-im-module-override")?.summary.contains("the ibus module") == true)
    }

    @Test func gnomeOnX11WithGtkImModuleIBusIsTheNormalPath() {
        var facts = Self.gnomeWayland()
        facts.environment = ["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "GNOME",
                             "GTK_IM_MODULE": "ibus", "XMODIFIERS": "@im=ibus"]
        let report = Doctor.diagnose(facts)
        #expect(toFix(report).isEmpty, "\(toFix(report))")
        #expect(report.finding("desktop")?.summary.hasPrefix("GNOME on X11") == true)
        #expect(report.finding("gnome-im-module-override") == nil)
        #expect(report.text().hasPrefix("ime-composer doctor: GTK 4 will use the ibus input method module (X11 session, desktop GNOME)."))
    }

    @Test func fcitx5OnGnomeWaylandConflictsWithTheShellsIBus() {
        var facts = Self.gnomeWayland()
        facts.fcitx5 = .answering(current: "anthy")
        facts.fcitx5InputMethods = ["anthy"]
        var report = Doctor.diagnose(facts)
        #expect(severity(report, "gnome-fcitx5-conflict") == .warning)
        #expect(report.finding("gnome-fcitx5-conflict")?.summary.contains("two input methods") == true)
        #expect(report.finding("gnome-fcitx5-conflict")?.fix?.contains("im-config -n ibus") == true)
        #expect(report.finding("both-daemons-running") == nil, "the GNOME rule says it")

        // fcitx5 alone, without its IBus frontend: gnome-shell reaches nothing.
        facts.ibus = .notAnswering
        report = Doctor.diagnose(facts)
        #expect(severity(report, "gnome-fcitx5-conflict") == .warning)
        #expect(report.finding("gnome-fcitx5-conflict")?.summary.contains("get no input method") == true)

        // fcitx5 answering IBus clients in ibus-daemon's place: gnome-shell reaches fcitx5.
        facts.ibusServedByFcitx5 = true
        facts.environment["XMODIFIERS"] = "@im=fcitx"
        report = Doctor.diagnose(facts)
        #expect(report.finding("gnome-fcitx5-conflict") == nil)
        #expect(severity(report, "gnome-fcitx5-ibus-frontend") == .info)
        #expect(report.finding("gnome-input-sources") == nil, "GNOME's sources do not drive fcitx5")
        #expect(toFix(report).isEmpty, "\(toFix(report))")

        // On GNOME under X11 both daemons are the generic finding.
        facts = Self.gnomeWayland()
        facts.environment = ["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME", "GTK_IM_MODULE": "ibus", "XMODIFIERS": "@im=ibus"]
        facts.fcitx5 = .answering(current: "anthy")
        report = Doctor.diagnose(facts)
        #expect(severity(report, "both-daemons-running") == .warning && report.finding("gnome-fcitx5-conflict") == nil)
    }

    @Test func onGnomeTheEngineIsChosenInItsInputSourcesNotWithIBusEngine() {
        var facts = Self.gnomeWayland()
        facts.ibusComponents.append("hangul")
        facts.ibus = .answering(current: "hangul")
        var report = Doctor.diagnose(facts)
        let finding = report.finding("gnome-engine-not-in-input-sources")
        #expect(finding?.severity == .warning)
        #expect(finding?.summary.contains("ibus-daemon's engine is hangul") == true)
        #expect(finding?.fix?.contains("GNOME Settings → Keyboard → Input Sources") == true)
        #expect(finding?.fix?.contains("('ibus', 'hangul')") == true)

        // gnome-shell's keyboard-layout engines are not IBus engines one chose.
        facts.ibus = .answering(current: "xkb:us::eng")
        #expect(Doctor.diagnose(facts).finding("gnome-engine-not-in-input-sources") == nil)

        // Only layouts in the input sources: a note that says where engines are chosen.
        facts.gnomeInputSources = [GnomeInputSource(type: "xkb", id: "us")]
        report = Doctor.diagnose(facts)
        #expect(severity(report, "gnome-input-sources") == .info)
        #expect(report.finding("gnome-input-sources")?.fix?.contains("not with ibus engine") == true)
        #expect(report.exitStatus == 0)

        // ibus-daemon with no engine at all: the daemon's fix points to GNOME's settings.
        facts.ibus = .answering(current: nil)
        #expect(Doctor.diagnose(facts).finding("ibus-daemon")?.fix?.contains("Input Sources") == true)
    }

    // MARK: KDE Plasma

    @Test func plasmaOnWaylandWithFcitx5AsKWinsVirtualKeyboardIsHealthy() {
        let report = Doctor.diagnose(Self.plasmaWayland())
        #expect(toFix(report).isEmpty, "\(toFix(report))")
        #expect(report.desktop == .plasma && report.module.module == "wayland")
        #expect(report.finding("desktop")?.summary.contains("input-method-v1") == true)
        #expect(severity(report, "kde-virtual-keyboard") == .ok)
        #expect(report.finding("kde-virtual-keyboard")?.summary.contains("/home/u/.config/kwinrc") == true)
        #expect(report.finding("wayland-compositor-im") == nil)
        #expect(report.text().contains("(Wayland session, desktop KDE Plasma)"))
    }

    @Test func plasmaOnWaylandWithoutAVirtualKeyboardGivesWaylandApplicationsNoInputMethod() {
        var facts = Self.plasmaWayland()
        facts.kwinInputMethod = nil
        var report = Doctor.diagnose(facts)
        var finding = report.finding("kde-virtual-keyboard-missing")
        #expect(finding?.severity == .problem, "GTK 4 uses the wayland module: no input method in it")
        #expect(finding?.summary.contains("KWin has no input method chosen as its Virtual Keyboard") == true)
        #expect(finding?.summary.contains("not started by KWin") == true, "the fcitx5 running was started some other way")
        #expect(finding?.fix?.contains("System Settings → Keyboard → Virtual Keyboard") == true)
        #expect(finding?.fix?.contains("InputMethod[$e]=/usr/share/applications/org.fcitx.Fcitx5.desktop") == true)
        #expect(finding?.fix?.contains("KWin starts only the virtual keyboard chosen there") == true)
        #expect(report.exitStatus == 1)

        // An empty entry and another virtual keyboard are no input method either.
        facts.kwinInputMethod = KWinInputMethod(path: "/home/u/.config/kwinrc", value: "")
        #expect(severity(Doctor.diagnose(facts), "kde-virtual-keyboard-missing") == .problem)
        facts.kwinInputMethod = KWinInputMethod(path: "/home/u/.config/kwinrc",
                                                value: "/usr/share/applications/com.github.maliit.keyboard.desktop")
        report = Doctor.diagnose(facts)
        #expect(report.finding("kde-virtual-keyboard-missing")?.summary.contains("com.github.maliit.keyboard") == true)

        // GTK_IM_MODULE=fcitx keeps GTK 4 working (a warning), bypassing KWin.
        facts.kwinInputMethod = nil
        facts.environment["GTK_IM_MODULE"] = "fcitx"
        report = Doctor.diagnose(facts)
        #expect(severity(report, "kde-virtual-keyboard-missing") == .warning)
        finding = report.finding("kde-im-module-override")
        #expect(finding?.severity == .warning)
        #expect(finding?.fix?.hasPrefix("Make fcitx5 KWin's Virtual Keyboard") == true)
        #expect(report.finding("wayland-im-module-override") == nil)

        // Nothing to type with installed: only a note.
        facts = Self.plasmaWayland()
        facts.kwinInputMethod = nil
        facts.fcitx5 = .notAnswering
        facts.fcitx5InputMethods = []
        report = Doctor.diagnose(facts)
        #expect(severity(report, "kde-virtual-keyboard") == .info)
        #expect(report.finding("kde-virtual-keyboard-missing") == nil)
    }

    @Test func plasmaOnWaylandWithGtkImModuleFcitxWorksButBypassesKWin() {
        var facts = Self.plasmaWayland()
        facts.environment["GTK_IM_MODULE"] = "fcitx"
        let report = Doctor.diagnose(facts)
        let finding = report.finding("kde-im-module-override")
        #expect(finding?.severity == .warning)
        #expect(finding?.summary.contains("bypassing KWin") == true)
        #expect(finding?.fix == "Unset GTK_IM_MODULE (and gtk-im-module), keeping XMODIFIERS=@im=fcitx for X11 applications: "
            + "GTK 4 then uses the wayland module and KWin passes its input to fcitx5.")
        #expect(severity(report, "kde-virtual-keyboard") == .ok)
        #expect(report.finding("wayland-im-module-override") == nil)
    }

    @Test func plasmaWithFcitx5ChosenButNotRunningIsAWarning() {
        var facts = Self.plasmaWayland()
        facts.fcitx5 = .notAnswering
        let report = Doctor.diagnose(facts)
        #expect(severity(report, "kde-virtual-keyboard") == .warning)
        #expect(report.finding("kde-virtual-keyboard")?.fix?.contains("log out and in") == true)
    }

    @Test func ibusOnPlasmaWaylandIsStartedOnlyAsKWinsVirtualKeyboard() {
        var facts = Self.plasmaWayland()
        facts.kwinInputMethod = nil
        facts.fcitx5 = .notAnswering
        facts.fcitx5InputMethods = []
        facts.ibus = .answering(current: "anthy")
        facts.ibusComponents = ["anthy", "dconf"]
        facts.ibusVersion = "1.5.27"
        var report = Doctor.diagnose(facts)
        #expect(severity(report, "kde-virtual-keyboard-missing") == .problem)
        #expect(report.finding("kde-virtual-keyboard-missing")?.fix?.contains("IBus 1.5.27 offers no entry there") == true)
        facts.ibusVersion = "1.5.29"
        report = Doctor.diagnose(facts)
        #expect(report.finding("kde-virtual-keyboard-missing")?.fix?.contains("IBus 1.5.29 and later offer IBus Wayland there") == true)

        // IBus chosen while fcitx5 is the one in use.
        facts = Self.plasmaWayland()
        facts.kwinInputMethod = KWinInputMethod(path: "/etc/xdg/kwinrc",
                                                value: "/usr/share/applications/org.freedesktop.IBus.Panel.Wayland.Gtk3.desktop")
        report = Doctor.diagnose(facts)
        #expect(severity(report, "kde-virtual-keyboard") == .warning)
        #expect(report.finding("kde-virtual-keyboard")?.fix?.hasPrefix("Choose Fcitx 5") == true)
    }

    @Test func plasmaOnX11NeedsNoVirtualKeyboard() {
        var facts = Self.plasmaWayland()
        facts.environment = ["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "KDE",
                             "GTK_IM_MODULE": "fcitx", "XMODIFIERS": "@im=fcitx"]
        facts.kwinInputMethod = nil
        let report = Doctor.diagnose(facts)
        #expect(toFix(report).isEmpty, "\(toFix(report))")
        #expect(report.finding("desktop")?.summary.hasPrefix("KDE Plasma on X11") == true)
        #expect(report.findings.allSatisfy { !$0.id.hasPrefix("kde-") })
    }

    // MARK: other desktops, output

    @Test func anotherDesktopIsNamedAndKeepsTheGenericRules() {
        let facts = DoctorFacts(environment: ["WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": "sway",
                                              "GTK_IM_MODULE": "fcitx"],
                                moduleLibraries: Self.bothModules, fcitx5: .answering(current: "anthy"))
        let report = Doctor.diagnose(facts)
        #expect(report.desktop == .other("sway"))
        #expect(severity(report, "desktop") == .info)
        #expect(severity(report, "wayland-im-module-override") == .warning)
        #expect(report.text().contains("(Wayland session, desktop sway)"))
        let unnamed = Doctor.diagnose(DoctorFacts(environment: ["DISPLAY": ":0"], moduleLibraries: Self.bothModules))
        #expect(unnamed.finding("desktop")?.summary.hasPrefix("No desktop named") == true)
        #expect(unnamed.text().hasPrefix("ime-composer doctor: GTK 4 will use the ibus input method module (X11 session).\n"))
    }

    @Test func theJsonReportNamesTheDesktopAndItsFacts() throws {
        let facts = Self.plasmaWayland()
        let json = try JSONValue.parse(Doctor.diagnose(facts).json(facts: facts).serialized())
        #expect(json["desktop"]?["id"] == .string("plasma") && json["desktop"]?["name"] == .string("KDE Plasma"))
        #expect(json["facts"]?["kwin_input_method"]?["value"] == .string(Self.fcitx5Desktop))
        #expect(json["facts"]?["environment"]?["XDG_CURRENT_DESKTOP"] == .string("KDE"))
        #expect(json["facts"]?["gnome_input_sources"] == .null)
        let gnome = Self.gnomeWayland()
        let gnomeJSON = try JSONValue.parse(Doctor.diagnose(gnome).json(facts: gnome).serialized())
        #expect(gnomeJSON["desktop"]?["id"] == .string("gnome"))
        #expect(gnomeJSON["facts"]?["gnome_input_sources"]
            == .array([.array([.string("xkb"), .string("us")]), .array([.string("ibus"), .string("anthy")])]))
        #expect(gnomeJSON["facts"]?["kwin_input_method"] == .null)
    }
}
