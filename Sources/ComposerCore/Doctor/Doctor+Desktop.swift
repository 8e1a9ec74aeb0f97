/// What the desktop implies for input methods: the two desktops people type on route
/// Wayland input differently, and a setup right for one is wrong for the other.
///
/// - GNOME on Wayland: mutter → gnome-shell → ibus-daemon. gnome-shell is IBus's panel and
///   passes text-input-v3 to IBus itself, and sets IBus's engine from GNOME's input sources
///   (`org.gnome.desktop.input-sources sources`). GTK applications should use the `wayland`
///   module; `GTK_IM_MODULE=ibus` talks to ibus-daemon over D-Bus, around the shell. On GNOME
///   under X11 `GTK_IM_MODULE=ibus` (GTK's own default) is the normal path.
/// - KDE Plasma on Wayland: KWin talks to the input method over input-method-v1 and starts
///   only the one chosen as its Virtual Keyboard (`kwinrc`, `[Wayland] InputMethod[$e]`).
///   GTK applications should use the `wayland` module. Fcitx's "Using Fcitx 5 on Wayland"
///   (https://fcitx-im.org/wiki/Using_Fcitx_5_on_Wayland; checked through its translation,
///   https://fcitx.cn/post/using_fcitx5_on_wayland) says the ideal setup is GTK's
///   text-input-v3 on Wayland, done by not setting the GTK_IM_MODULE environment variable,
///   and that GTK_IM_MODULE=fcitx still works and is needed only where the compositor has no
///   Wayland input method frontend — which KWin has.
///   IBus 1.5.27 has an input-method-v1 client (`client/wayland`, built only with
///   `--enable-wayland`, not shipped by Debian 12) but no desktop file KWin lists as a Virtual
///   Keyboard (`X-KDE-Wayland-VirtualKeyboard`): that came in 1.5.29 ("IBus Wayland",
///   `ui/gtk3/ibus-ui-wayland.desktop.in`; checked in ibus/ibus's tags).
extension Doctor {
    static func desktopFindings(_ c: Context) -> [DoctorFinding] {
        switch c.desktop {
        case .gnome: return gnomeFindings(c)
        case .plasma: return plasmaFindings(c)
        case let .other(name):
            return [DoctorFinding(
                "desktop", .info, .desktop,
                "Desktop: \(name) (\(desktopVariable(c))); the doctor knows the input method paths of GNOME and "
                    + "KDE Plasma, so the generic rules above apply")]
        case .unknown:
            return [DoctorFinding(
                "desktop", .info, .desktop,
                "No desktop named (XDG_CURRENT_DESKTOP and XDG_SESSION_DESKTOP are unset), so the generic rules apply")]
        }
    }

    /// The desktop's own rules replace the generic Wayland ones (`wayland-im-module-override`,
    /// `wayland-compositor-im`) for GTK 4 applications on its Wayland compositor.
    static func desktopDecidesWayland(_ c: Context) -> Bool {
        c.backend == .wayland && (c.desktop == .gnome || c.desktop == .plasma)
    }

    /// "XDG_CURRENT_DESKTOP=ubuntu:GNOME" (or XDG_SESSION_DESKTOP's, when only it is set).
    static func desktopVariable(_ c: Context) -> String {
        for name in ["XDG_CURRENT_DESKTOP", "XDG_SESSION_DESKTOP"] {
            if let value = c.facts.variable(name), !value.isEmpty { return "\(name)=\(value)" }
        }
        return "XDG_CURRENT_DESKTOP unset"
    }

    /// IBus engines installed (components that are not infrastructure).
    static func ibusEngines(_ c: Context) -> [String] {
        c.facts.ibusComponents.filter { !ibusInfrastructure.contains($0) }
    }

    // MARK: GNOME

    static let gnomeInputSourcesPlace = "GNOME Settings → Keyboard → Input Sources"

    static func gnomeFindings(_ c: Context) -> [DoctorFinding] {
        let facts = c.facts
        var findings: [DoctorFinding] = []
        guard facts.isWaylandSession else {
            findings.append(DoctorFinding(
                "desktop", .ok, .desktop,
                "GNOME on X11 (\(desktopVariable(c))): GTK applications reach ibus-daemon through GTK's ibus module "
                    + "(GTK_IM_MODULE=ibus, or unset, is the normal path here) and gnome-shell is IBus's panel"))
            return findings + gnomeInputSourceFindings(c)
        }
        findings.append(DoctorFinding(
            "desktop", .ok, .desktop,
            "GNOME on Wayland (\(desktopVariable(c))): gnome-shell is IBus's panel and passes Wayland applications' "
                + "input (text-input-v3) to ibus-daemon itself (mutter → gnome-shell → ibus-daemon), so GTK "
                + "applications should use the wayland module"))

        if c.backend == .wayland, let framework = c.served {
            let why = framework == .ibus
                ? "talk to ibus-daemon directly over D-Bus, bypassing gnome-shell: candidate window placement and "
                    + "focus handling then differ from the desktop's, and the candidate window can open in the wrong place"
                : "talk to fcitx5 directly over D-Bus, bypassing gnome-shell, which passes every other Wayland "
                    + "application's input to IBus: candidate windows and focus handling differ from the desktop's"
            findings.append(DoctorFinding(
                "gnome-im-module-override", .warning, .desktop,
                "On GNOME Wayland, \(c.moduleSelection) makes GTK 4 applications \(why)",
                fix: "Unset GTK_IM_MODULE (and gtk-im-module: gsettings reset org.gnome.desktop.interface gtk-im-module) "
                    + "so GTK 4 uses the wayland module and reaches the input method through gnome-shell."))
        }

        if facts.fcitx5.isAnswering {
            if facts.ibus.isAnswering {
                findings.append(DoctorFinding(
                    "gnome-fcitx5-conflict", .warning, .desktop,
                    "fcitx5 runs on GNOME Wayland next to the ibus-daemon gnome-shell uses: two input methods take "
                        + "the same keys, and gnome-shell passes Wayland applications' input to IBus, not to fcitx5",
                    fix: "Use one. GNOME's own: stop fcitx5 and take it out of your session's autostart "
                        + "(im-config -n ibus), and choose engines in \(gnomeInputSourcesPlace). fcitx5: stop "
                        + "ibus-daemon so that fcitx5's IBus frontend answers gnome-shell in its place."))
            } else if facts.ibusServedByFcitx5 {
                findings.append(DoctorFinding(
                    "gnome-fcitx5-ibus-frontend", .info, .desktop,
                    "fcitx5 runs on GNOME Wayland and answers IBus clients in ibus-daemon's place (its IBus "
                        + "frontend): gnome-shell passes Wayland applications' input to fcitx5 through it",
                    fix: "This works; switch input methods with fcitx5 (its trigger key), not GNOME's input sources."))
            } else {
                findings.append(DoctorFinding(
                    "gnome-fcitx5-conflict", .warning, .desktop,
                    "fcitx5 runs on GNOME Wayland, but gnome-shell passes Wayland applications' input only to IBus, "
                        + "and neither ibus-daemon nor fcitx5's IBus frontend answers: applications using the wayland "
                        + "module get no input method",
                    fix: "Use GNOME's IBus (stop fcitx5, choose engines in \(gnomeInputSourcesPlace)), or enable "
                        + "fcitx5's IBus frontend addon so that gnome-shell reaches fcitx5."))
            }
        }
        return findings + gnomeInputSourceFindings(c)
    }

    /// gnome-shell sets IBus's engine from GNOME's input sources whenever the source changes
    /// (login, Super+Space); an engine set with `ibus engine` does not last. Judged only while
    /// IBus is the input method (not while fcitx5 answers IBus clients in its place).
    static func gnomeInputSourceFindings(_ c: Context) -> [DoctorFinding] {
        let facts = c.facts
        guard let sources = facts.gnomeInputSources, !facts.ibusServedByFcitx5,
              facts.ibus.isAnswering || c.target == .ibus || (!facts.fcitx5.isAnswering && !ibusEngines(c).isEmpty)
        else { return [] }
        var findings: [DoctorFinding] = []
        let engines = sources.filter { $0.type == "ibus" }.map(\.id)
        if engines.isEmpty {
            if !ibusEngines(c).isEmpty {
                findings.append(DoctorFinding(
                    "gnome-input-sources", .info, .desktop,
                    "GNOME's input sources (org.gnome.desktop.input-sources sources) list no IBus engine, only keyboard "
                        + "layouts: on GNOME the engine is chosen there, so IBus types plain letters",
                    fix: "Add your engine in \(gnomeInputSourcesPlace) (e.g. Japanese (Anthy), Korean (Hangul)); "
                        + "not with ibus engine, which gnome-shell overrides."))
            }
        } else {
            findings.append(DoctorFinding(
                "gnome-input-sources", .ok, .desktop,
                "GNOME's input sources include the IBus engines \(engines.joined(separator: ", ")) (switch with Super+Space)"))
        }
        if let current = facts.ibus.current, !current.hasPrefix("xkb:"), !engines.contains(current) {
            findings.append(DoctorFinding(
                "gnome-engine-not-in-input-sources", .warning, .desktop,
                "ibus-daemon's engine is \(current), which GNOME's input sources do not list: gnome-shell sets IBus's "
                    + "engine from them whenever the input source changes (login, Super+Space), so it will not last",
                fix: "Add it in \(gnomeInputSourcesPlace) (gsettings org.gnome.desktop.input-sources sources: "
                    + "('ibus', '\(current)')) instead of choosing it with ibus engine."))
        }
        return findings
    }

    // MARK: KDE Plasma

    static let kwinVirtualKeyboardPlace = "System Settings → Keyboard → Virtual Keyboard"

    static func plasmaFindings(_ c: Context) -> [DoctorFinding] {
        let facts = c.facts
        guard facts.isWaylandSession else {
            return [DoctorFinding(
                "desktop", .ok, .desktop,
                "KDE Plasma on X11 (\(desktopVariable(c))): applications reach the input method through their toolkit's "
                    + "module (GTK_IM_MODULE, QT_IM_MODULE) and XIM; KWin's Virtual Keyboard setting matters only on Wayland")]
        }
        var findings: [DoctorFinding] = [DoctorFinding(
            "desktop", .ok, .desktop,
            "KDE Plasma on Wayland (\(desktopVariable(c))): KWin talks to the input method over input-method-v1 and "
                + "starts the one chosen as its Virtual Keyboard, so GTK applications should use the wayland module")]
        let kwin = facts.kwinInputMethod.flatMap { $0.value.isEmpty ? nil : $0 }
        let chosen = kwin?.framework
        let entry = kwin.map { "InputMethod=\($0.value) in \($0.path)" } ?? "no InputMethod in kwinrc's [Wayland] group"
        // The input method in use: the one GTK 4 reaches or the only one answering, else the
        // one installed (fcitx5 first: the one KWin can start on this machine's IBus).
        let used = c.target ?? (!facts.fcitx5InputMethods.isEmpty ? .fcitx5 : !ibusEngines(c).isEmpty ? .ibus : nil)
        let choose = "Choose Fcitx 5 in \(kwinVirtualKeyboardPlace) (Plasma 5: Input Devices → Virtual Keyboard); "
            + "it writes InputMethod[$e]=/usr/share/applications/org.fcitx.Fcitx5.desktop to kwinrc's [Wayland] group. "
            + "KWin starts only the virtual keyboard chosen there"

        switch chosen {
        case .fcitx5?:
            if facts.fcitx5 == .notAnswering {
                findings.append(DoctorFinding(
                    "kde-virtual-keyboard", .warning, .desktop,
                    "Fcitx5 is KWin's Virtual Keyboard (\(entry)), but fcitx5 does not answer on D-Bus: KWin starts it "
                        + "at login or when the setting is applied, and it is not running now",
                    fix: "Apply the setting again in \(kwinVirtualKeyboardPlace), or log out and in; if it exits again, "
                        + "run fcitx5 --replace in a terminal to see why."))
            } else {
                findings.append(DoctorFinding(
                    "kde-virtual-keyboard", .ok, .desktop,
                    "Fcitx5 is KWin's Virtual Keyboard (\(entry)): KWin starts fcitx5 and passes Wayland applications' input to it"))
            }
        case .ibus?:
            if used == .fcitx5 {
                findings.append(DoctorFinding(
                    "kde-virtual-keyboard", .warning, .desktop,
                    "IBus is KWin's Virtual Keyboard (\(entry)), but fcitx5 is the input method in use here: Wayland "
                        + "applications reach IBus, not fcitx5",
                    fix: "\(choose)."))
            } else {
                findings.append(DoctorFinding(
                    "kde-virtual-keyboard", .ok, .desktop,
                    "IBus is KWin's Virtual Keyboard (\(entry)): KWin starts IBus's Wayland panel and passes Wayland "
                        + "applications' input to it"))
            }
        case nil:
            let what = kwin.map { "KWin's Virtual Keyboard is \($0.desktopFileName) (\(entry)), not an input method framework" }
                ?? "KWin has no input method chosen as its Virtual Keyboard (\(entry))"
            guard let used else {
                findings.append(DoctorFinding(
                    "kde-virtual-keyboard", .info, .desktop,
                    "\(what); no input method is installed either",
                    fix: "To type Japanese, Chinese or Korean, install fcitx5 with an engine (e.g. fcitx5-anthy) and "
                        + "choose Fcitx 5 in \(kwinVirtualKeyboardPlace)."))
                break
            }
            let gtk = c.choice.module == GtkModuleCatalog.wayland
                ? ", GTK 4 applications among them (the wayland module)"
                : " (GTK 4 applications here reach \(c.served?.daemon ?? c.choice.module) directly through \(c.moduleSelection))"
            let stray = facts.fcitx5.isAnswering ? "; the fcitx5 running was not started by KWin, so KWin passes it nothing" : ""
            var fix = choose
            if used == .ibus {
                let old = facts.ibusVersion.map { release($0, isBefore: [1, 5, 29]) } ?? false
                fix += old ? "; IBus \(facts.ibusVersion ?? "") offers no entry there (IBus Wayland arrived in 1.5.29), so use fcitx5"
                    : " (IBus 1.5.29 and later offer IBus Wayland there)"
            }
            findings.append(DoctorFinding(
                "kde-virtual-keyboard-missing", c.choice.module == GtkModuleCatalog.wayland ? .problem : .warning, .desktop,
                "\(what): KWin starts no input method, so Wayland applications using text-input-v3 get none\(gtk)\(stray)",
                fix: fix + "; then log out and in."))
        }

        if c.backend == .wayland, let framework = c.served {
            let connected = chosen == framework
            findings.append(DoctorFinding(
                "kde-im-module-override", .warning, .desktop,
                "On KDE Plasma Wayland, \(c.moduleSelection) makes GTK 4 applications talk to \(framework.daemon) "
                    + "directly over D-Bus, bypassing KWin: it works, but candidate windows and focus follow GTK's "
                    + "module instead of KWin, unlike the desktop's other applications (fcitx5's documentation says "
                    + "not to set GTK_IM_MODULE on Wayland unless the compositor lacks an input method frontend)",
                fix: connected
                    ? "Unset GTK_IM_MODULE (and gtk-im-module), keeping XMODIFIERS=\(framework.xmodifiers) for X11 "
                        + "applications: GTK 4 then uses the wayland module and KWin passes its input to \(framework.daemon)."
                    : "Make \(framework.daemon) KWin's Virtual Keyboard (\(kwinVirtualKeyboardPlace)), then unset "
                        + "GTK_IM_MODULE (and gtk-im-module) so GTK 4 uses the wayland module."))
        }
        return findings
    }
}
