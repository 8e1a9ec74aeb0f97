/// `ime-composer doctor`'s judgement: from `DoctorFacts` to findings, each a rule of its own.
///
/// Pure: no environment, files or D-Bus here, so that every rule is tested from crafted
/// facts (`Tests/ComposerCoreTests/DoctorTests.swift`). The command line gathers the facts.
public enum Doctor {
    public static func diagnose(_ facts: DoctorFacts) -> DoctorReport {
        let context = Context(facts: facts)
        var findings: [DoctorFinding] = []
        findings += moduleFindings(context)
        findings += knownBugFindings(context)
        findings += daemonFindings(context)
        findings += environmentFindings(context)
        findings += desktopFindings(context)
        findings += engineFindings(context)
        // Grouped by topic for the report; within a topic, in rule order.
        let ordered = DoctorFinding.Topic.allCases.flatMap { topic in findings.filter { $0.topic == topic } }
        return DoctorReport(backend: context.backend, desktop: context.desktop, module: context.choice, findings: ordered)
    }

    /// What every rule needs: the facts and what follows from them.
    struct Context {
        let facts: DoctorFacts
        let backend: GtkBackend
        let choice: ModuleChoice
        let desktop: SessionDesktop

        init(facts: DoctorFacts) {
            self.facts = facts
            backend = GtkBackend.resolve(environment: facts.environment)
            choice = ModuleChoice.resolve(facts, backend: backend)
            desktop = facts.desktop
        }

        func state(_ framework: InputFramework) -> DaemonState {
            switch framework {
            case .ibus: return facts.ibus
            case .fcitx5: return facts.fcitx5
            }
        }

        var answering: [InputFramework] { InputFramework.allCases.filter { state($0).isAnswering } }

        /// The daemon GTK 4's module actually reaches: the module's own, except that GTK's
        /// `ibus` module reaches fcitx5 when fcitx5's IBus frontend stands in for ibus-daemon.
        var served: InputFramework? {
            if choice.framework == .ibus, !facts.ibus.isAnswering, facts.ibusServedByFcitx5 { return .fcitx5 }
            return choice.framework
        }

        /// The framework every application should reach: the one GTK 4 reaches, else the only
        /// daemon that answers (GTK's `wayland` module reaches it through the compositor),
        /// else none.
        var target: InputFramework? {
            if let framework = served { return framework }
            return answering.count == 1 ? answering[0] : nil
        }

        /// GTK's module choice as a phrase: "GTK_IM_MODULE=fcitx" or "the fcitx module".
        var moduleSelection: String {
            choice.source == .environment ? "GTK_IM_MODULE=\(facts.variable("GTK_IM_MODULE") ?? "")"
                : "the \(choice.module) module"
        }
    }

    // MARK: the GTK 4 module

    static func moduleFindings(_ c: Context) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let choice = c.choice
        let offDisplay = c.backend == .none ? " (no display here, so by X11's rules)" : ""
        if choice.module == GtkModuleCatalog.simple {
            findings.append(DoctorFinding(
                "gtk-im-module", .info, .module,
                "GTK 4 will use gtk-im-context-simple\(offDisplay): \(choice.reason); it has dead keys and "
                    + "Ctrl+Shift+U, no input method",
                fix: "For Japanese, Chinese or Korean input, install and run an input method (IBus or fcitx5 "
                    + "with its GTK 4 module: ibus-gtk4, fcitx5-frontend-gtk4)."))
        } else {
            findings.append(DoctorFinding(
                "gtk-im-module", .ok, .module, "GTK 4 will use the \(choice.module) module\(offDisplay): \(choice.reason)"))
        }

        let installed = (c.facts.installedModules + [GtkModuleCatalog.simple]).joined(separator: ", ")
        if choice.source != .environment, !choice.unusableEnvironmentNames.isEmpty {
            let names = choice.unusableEnvironmentNames
            findings.append(DoctorFinding(
                "im-module-not-installed", .problem, .module,
                "GTK_IM_MODULE=\(c.facts.variable("GTK_IM_MODULE") ?? "") names no module GTK 4 can use here, "
                    + "so GTK ignores it without a word and uses \(choice.module)",
                fix: unusableModuleFix(names, backend: c.backend, installed: installed, what: "GTK_IM_MODULE")))
        }
        if choice.source == .priority, !choice.unusableSettingNames.isEmpty {
            let names = choice.unusableSettingNames
            findings.append(DoctorFinding(
                "settings-im-module-not-installed", .warning, .module,
                "The gtk-im-module setting (\(names.joined(separator: ":"))) names no module GTK 4 can use here, "
                    + "so GTK uses \(choice.module)",
                fix: unusableModuleFix(names, backend: c.backend, installed: installed, what: "gtk-im-module")))
        }
        if c.backend != .wayland, choice.source != .environment, let value = c.facts.gsettingsIMModule, !value.isEmpty {
            findings.append(DoctorFinding(
                "gsettings-im-module-on-x11", .info, .module,
                "GSettings gtk-im-module='\(value)' reaches GTK 4 on X11 only through a settings daemon "
                    + "(XSETTINGS, as GNOME's publishes it); without one GTK does not read it",
                fix: "Without a settings daemon, set gtk-im-module in ~/.config/gtk-4.0/settings.ini or GTK_IM_MODULE."))
        }
        if c.backend == .wayland, c.facts.gsettingsIMModule != nil,
           let file = c.facts.settingsFiles.first(where: { ($0.imModule ?? "").isEmpty == false }) {
            findings.append(DoctorFinding(
                "settings-ini-ignored-on-wayland", .info, .module,
                "gtk-im-module=\(file.imModule ?? "") in \(file.path) is ignored on Wayland: GTK 4 reads the "
                    + "setting from GSettings there",
                fix: "Set it with gsettings set org.gnome.desktop.interface gtk-im-module NAME, or use GTK_IM_MODULE."))
        }
        return findings
    }

    private static func unusableModuleFix(_ names: [String], backend: GtkBackend, installed: String, what: String) -> String {
        var advice: [String] = []
        for name in names {
            if name == GtkModuleCatalog.wayland {
                advice.append("wayland works only in a Wayland session")
            } else if let package = GtkModuleCatalog.package(providing: name) {
                advice.append("\(name) needs its GTK 4 module: install \(package)")
            } else if name == "xim" {
                advice.append("GTK 4 has no XIM module")
            } else if name == "simple" {
                advice.append("GTK 4.8 calls the simple context gtk-im-context-simple")
            }
        }
        return (advice.isEmpty ? "" : advice.joined(separator: "; ") + ". ")
            + "Set \(what) to a module installed here (\(installed)), or remove it."
    }

    // MARK: daemons

    static func daemonFindings(_ c: Context) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        if !c.facts.sessionBusReachable {
            findings.append(DoctorFinding(
                "session-bus-unreachable", .warning, .daemons,
                "No D-Bus session bus answers (DBUS_SESSION_BUS_ADDRESS=\(c.facts.variable("DBUS_SESSION_BUS_ADDRESS") ?? "unset")): "
                    + "fcitx5's GTK module needs it, and the daemons could not be asked",
                fix: "Run the doctor (and your applications) inside your desktop session, where the session bus is set up."))
        }
        for framework in InputFramework.allCases {
            findings += daemonFindings(framework, c)
        }
        // On GNOME Wayland the desktop's rule says it (gnome-fcitx5-conflict), with what the shell does.
        if c.answering.count == 2, !(c.desktop == .gnome && c.facts.isWaylandSession) {
            let used = c.served.map { "GTK 4 applications reach \($0.daemon)" }
                ?? "GTK 4 applications reach neither directly"
            findings.append(DoctorFinding(
                "both-daemons-running", .warning, .daemons,
                "ibus-daemon and fcitx5 both answer on D-Bus: they compete for the same shortcuts and the X input method server, "
                    + "and each application reaches whichever its module names (\(used))",
                fix: "Stop the one you do not use and take it out of your session's autostart "
                    + "(on Debian: im-config -n ibus or im-config -n fcitx5)."))
        }
        return findings
    }

    private static func daemonFindings(_ framework: InputFramework, _ c: Context) -> [DoctorFinding] {
        let name = framework.daemon
        let id = framework == .ibus ? "ibus-daemon" : "fcitx5"
        let usedByGtk = c.choice.framework == framework
        switch c.state(framework) {
        case let .answering(current):
            var findings: [DoctorFinding] = []
            let what = framework == .ibus ? "global engine" : "current input method"
            if let current, framework == .fcitx5, current.hasPrefix("keyboard-") {
                findings.append(DoctorFinding(
                    id, .info, .daemons,
                    "fcitx5 answers on D-Bus; its current input method is \(current), a plain keyboard layout",
                    fix: "Switch to your input method with fcitx5's trigger key (Ctrl+Space by default), "
                        + "or add one with fcitx5-configtool."))
            } else if let current {
                findings.append(DoctorFinding(id, .ok, .daemons, "\(name) answers on D-Bus; its \(what) is \(current)"))
            } else {
                findings.append(DoctorFinding(
                    id, .info, .daemons, "\(name) answers on D-Bus but has no \(what) selected",
                    fix: framework == .fcitx5 ? "Add an input method with fcitx5-configtool."
                        : c.desktop == .gnome ? "Add one in \(gnomeInputSourcesPlace): on GNOME, gnome-shell sets IBus's engine from there."
                        : "Choose one with ibus engine NAME (e.g. anthy) or in the IBus preferences."))
            }
            if c.choice.framework == nil, c.choice.module != GtkModuleCatalog.wayland {
                findings.append(DoctorFinding(
                    "daemon-unused", .warning, .daemons,
                    "\(name) runs, but GTK 4 applications will use \(c.choice.module) and never reach it",
                    fix: "Set GTK_IM_MODULE=\(framework.moduleName)"
                        + (c.choice.source == .environment ? " instead of \(c.facts.variable("GTK_IM_MODULE") ?? "")" : "")
                        + " (or unset it: GTK picks an installed ibus or fcitx5 module by itself on X11)."))
            }
            return findings
        case .notAnswering:
            if framework == .ibus, c.facts.ibusServedByFcitx5 {
                guard usedByGtk else {
                    return [DoctorFinding(id, .info, .daemons,
                                          "No ibus-daemon answers on D-Bus; fcitx5 answers IBus clients in its place (its IBus frontend)")]
                }
                return [DoctorFinding(
                    "ibus-served-by-fcitx5", .info, .daemons,
                    "GTK 4 will use the ibus module, and fcitx5 answers it through its IBus frontend (no ibus-daemon answers)",
                    fix: "This works; for fcitx5's own GTK module (all of its features), set GTK_IM_MODULE=fcitx.")]
            }
            guard usedByGtk else {
                return [DoctorFinding(id, .info, .daemons, "\(name) does not answer on D-Bus (nothing here needs it)")]
            }
            let other = InputFramework.allCases.first { $0 != framework && c.state($0).isAnswering }
            let byDefault = c.choice.source == .priority
                ? " (GTK picks \(c.choice.module) by itself because its module is installed)" : ""
            return [DoctorFinding(
                framework == .ibus ? "ibus-not-answering" : "fcitx5-not-answering", .problem, .daemons,
                "GTK 4 will use the \(c.choice.module) module\(byDefault), but \(name) is not answering on D-Bus: "
                    + "GTK 4 applications get no input method, only plain keys",
                fix: "Start \(name) (\(framework.startCommand), or choose it as your input method: im-config -n "
                    + "\(framework == .ibus ? "ibus" : "fcitx5") and log in again)"
                    + (other.map { ", or, since \($0.daemon) is running, set GTK_IM_MODULE=\($0.moduleName)" } ?? "")
                    + ".")]
        case let .unknown(reason):
            return [DoctorFinding(
                framework == .ibus ? "ibus-not-checked" : "fcitx5-not-checked", usedByGtk ? .warning : .info, .daemons,
                "Could not ask \(name) whether it runs: \(reason)",
                fix: usedByGtk ? "Check that \(name) runs in this session (GTK 4 will use \(c.choice.module))." : nil)]
        }
    }
}
