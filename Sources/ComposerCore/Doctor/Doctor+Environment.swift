/// The session (X11 or Wayland) and the variables other toolkits read: they should send
/// every application to the same input method GTK 4 uses.
extension Doctor {
    static func environmentFindings(_ c: Context) -> [DoctorFinding] {
        sessionFindings(c) + xmodifiersFindings(c)
            + toolkitVariableFindings(c, variable: "QT_IM_MODULE", id: "qt-im-module", toolkit: "Qt")
            + toolkitVariableFindings(c, variable: "SDL_IM_MODULE", id: "sdl-im-module", toolkit: "SDL")
    }

    // MARK: X11 or Wayland

    static func sessionFindings(_ c: Context) -> [DoctorFinding] {
        let env = c.facts.environment
        var findings: [DoctorFinding] = []
        switch c.backend {
        case .none:
            findings.append(DoctorFinding(
                "no-display", .info, .environment,
                "Neither WAYLAND_DISPLAY nor DISPLAY is set: not a graphical session, so GTK 4 applications cannot start "
                    + "from here and this report applies X11's rules",
                fix: "Run ime-composer doctor from a terminal inside your desktop session for the full picture."))
        case .x11:
            findings.append(DoctorFinding(
                "session", .ok, .environment,
                "X11 session (DISPLAY=\(env["DISPLAY"] ?? "")): the input method places its candidate window next to "
                    + "the caret itself"))
            if env["XDG_SESSION_TYPE"] == "wayland" {
                findings.append(DoctorFinding(
                    "xwayland", .info, .environment,
                    "A Wayland session, but GTK 4 applications started from here use X11 through XWayland"
                        + ((env["GDK_BACKEND"] ?? "").isEmpty ? " (WAYLAND_DISPLAY is not set)" : " (GDK_BACKEND=\(env["GDK_BACKEND"] ?? ""))")
                        + ": X11's rules apply and the compositor's input method and on-screen keyboard do not reach them",
                    fix: "Unless you need X11, unset GDK_BACKEND (and keep WAYLAND_DISPLAY) so GTK 4 runs on Wayland."))
            }
        case .wayland:
            findings.append(DoctorFinding(
                "session", .ok, .environment,
                "Wayland session (WAYLAND_DISPLAY=\(env["WAYLAND_DISPLAY"] ?? "")): with the wayland module the "
                    + "compositor positions candidate windows and shows on-screen keyboards (text-input-v3)"))
            if desktopDecidesWayland(c) {
                // GNOME's and KDE Plasma's own rules (Doctor+Desktop) say what their compositor does.
            } else if let framework = c.served {
                findings.append(DoctorFinding(
                    "wayland-im-module-override", .warning, .environment,
                    "On Wayland, \(c.moduleSelection) makes GTK 4 talk to \(framework.daemon) directly instead of through "
                        + "the compositor: a Wayland application cannot tell \(framework.daemon) where the caret is on screen, "
                        + "so candidate windows can open away from the text, and on-screen keyboards do not appear",
                    fix: "Unset GTK_IM_MODULE (and gtk-im-module) so GTK 4 uses the wayland module, and let the compositor "
                        + "run \(framework.daemon) as its input method (GNOME does this for IBus; KDE and sway for fcitx5 "
                        + "with its Wayland frontend); keep it only for a compositor without text-input-v3."))
            } else if c.choice.module == GtkModuleCatalog.wayland, !c.answering.isEmpty {
                let names = c.answering.map(\.daemon).joined(separator: " and ")
                findings.append(DoctorFinding(
                    "wayland-compositor-im", .info, .environment,
                    "GTK 4 reaches \(names) only if the compositor connects it as its input method "
                        + "(input-method-v2 or GNOME Shell's IBus)",
                    fix: "If typing gives plain letters, make \(names) the compositor's input method (fcitx5: its Wayland "
                        + "frontend, e.g. KDE's Virtual Keyboard setting; IBus: GNOME)."))
            }
        }
        return findings
    }

    // MARK: XMODIFIERS (X11 applications using XIM)

    static func xmodifiersFindings(_ c: Context) -> [DoctorFinding] {
        let ximUsers = "X11 applications that use XIM (Xlib programs, Java, Wine, older toolkits)"
        guard let value = c.facts.variable("XMODIFIERS"), !value.isEmpty else {
            guard c.backend == .x11, let target = c.target else { return [] }
            return [DoctorFinding(
                "xmodifiers-missing", .warning, .environment,
                "XMODIFIERS is not set: \(ximUsers) cannot reach \(target.daemon) (GTK 4 applications are not affected)",
                fix: "export XMODIFIERS=\(target.xmodifiers) in your session's environment, next to GTK_IM_MODULE.")]
        }
        let named = InputFramework(xmodifiers: value)
        if let target = c.target {
            if named == target {
                return [DoctorFinding("xmodifiers", .ok, .environment, "XMODIFIERS=\(value) matches \(target.daemon)")]
            }
            let sends = named.map { "sends \(ximUsers) to \($0.daemon)" } ?? "names no input method daemon"
            let gtk = c.served == target ? "GTK 4 uses \(target.daemon)" : "\(target.daemon) is the one running"
            return [DoctorFinding(
                "xmodifiers-mismatch", .warning, .environment,
                "XMODIFIERS=\(value) \(sends), but \(gtk)",
                fix: "export XMODIFIERS=\(target.xmodifiers) so every application reaches the same input method.")]
        }
        if let named, !c.state(named).isAnswering {
            return [DoctorFinding(
                "xmodifiers-mismatch", .warning, .environment,
                "XMODIFIERS=\(value) names \(named.daemon), which is not answering",
                fix: "Start \(named.daemon), or unset XMODIFIERS.")]
        }
        return []
    }

    // MARK: QT_IM_MODULE, SDL_IM_MODULE

    static func toolkitVariableFindings(_ c: Context, variable: String, id: String, toolkit: String) -> [DoctorFinding] {
        guard let value = c.facts.variable(variable), let named = InputFramework(module: value) else { return [] }
        if let target = c.target {
            if named == target {
                return [DoctorFinding(id, .ok, .environment, "\(variable)=\(value) matches \(target.daemon)")]
            }
            let gtk = c.served == target ? "GTK 4 uses \(target.daemon)" : "\(target.daemon) is the one running"
            return [DoctorFinding(
                "\(id)-mismatch", .warning, .environment,
                "\(variable)=\(value) sends \(toolkit) applications to \(named.daemon), but \(gtk)",
                fix: "export \(variable)=\(target.moduleName) so \(toolkit) applications reach the same input method.")]
        }
        if !c.state(named).isAnswering {
            return [DoctorFinding(
                "\(id)-mismatch", .warning, .environment,
                "\(variable)=\(value) sends \(toolkit) applications to \(named.daemon), which is not answering",
                fix: "Start \(named.daemon), or unset \(variable).")]
        }
        return []
    }
}
