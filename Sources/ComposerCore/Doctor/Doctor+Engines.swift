/// Known quirks of installed engines (README, "Known input method quirks"): settings that
/// lose keys under GTK 4, engines that start in Latin (direct input) mode, Mozc under root.
///
/// What is wrong with an engine is a warning (exit status 1) only while it is used: the engine
/// typed with, or one switch away (IBus's `preload-engines`, fcitx5's profile, with that
/// framework in use). An engine that is merely installed gets a note: it breaks nothing today.
extension Doctor {
    /// How an engine is used, which decides how much what is wrong with it matters.
    enum EngineUse: Int, Comparable {
        /// Installed, not in use and not one switch away.
        case installedOnly
        /// In IBus's preload-engines or fcitx5's profile, and that framework is in use.
        case preloaded
        /// IBus's global engine or fcitx5's current input method.
        case current

        static func < (lhs: EngineUse, rhs: EngineUse) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// An IBus engine name belongs to a component: `hangul` to hangul, `mozc-jp` to mozc,
    /// `m17n:vi:telex` to m17n.
    static func ibusEngine(_ engine: String, isOf component: String) -> Bool {
        engine == component || engine.hasPrefix(component + "-") || engine.hasPrefix(component + ":")
    }

    /// How the engines of IBus component `component` are used.
    static func ibusEngineUse(_ component: String, _ c: Context) -> EngineUse {
        let facts = c.facts
        if let current = facts.ibus.current, ibusEngine(current, isOf: component) { return .current }
        let ibusInUse = c.served == .ibus || facts.ibus.isAnswering
        if ibusInUse, facts.ibusPreloadEngines?.contains(where: { ibusEngine($0, isOf: component) }) == true { return .preloaded }
        return .installedOnly
    }

    /// How fcitx5 input method `name` is used.
    static func fcitx5InputMethodUse(_ name: String, _ c: Context) -> EngineUse {
        let facts = c.facts
        if facts.fcitx5.current == name { return .current }
        let fcitx5InUse = c.served == .fcitx5 || facts.fcitx5.isAnswering
        if fcitx5InUse, facts.fcitx5ProfileInputMethods?.contains(name) == true { return .preloaded }
        return .installedOnly
    }

    /// Why an IBus engine's finding is only a note (its use is `.installedOnly`).
    static func ibusNotInUse(_ component: String, _ c: Context) -> String {
        guard let preloaded = c.facts.ibusPreloadEngines else {
            return "installed, not IBus's engine; IBus's preload-engines could not be read"
        }
        return preloaded.contains { ibusEngine($0, isOf: component) } ? "in IBus's preload-engines, but IBus is not in use"
            : "installed, neither IBus's engine nor in its preload-engines"
    }

    /// IBus components that are infrastructure, not engines one types with.
    static let ibusInfrastructure: Set<String> = ["dconf", "memconf", "gtkpanel", "gtkextension", "simple", "emoji"]

    static func engineFindings(_ c: Context) -> [DoctorFinding] {
        let facts = c.facts
        let ibusEngines = facts.ibusComponents.filter { !ibusInfrastructure.contains($0) }
        var findings: [DoctorFinding] = []
        if ibusEngines.isEmpty, facts.fcitx5InputMethods.isEmpty {
            findings.append(DoctorFinding(
                "no-engines", .info, .engines,
                "No IBus or fcitx5 engine is installed (no Japanese, Chinese or Korean input)",
                fix: "Install the engine you type with, e.g. ibus-anthy or fcitx5-anthy (Japanese), ibus-hangul or "
                    + "fcitx5-hangul (Korean), ibus-libpinyin (Chinese)."))
        } else {
            let lists = [("IBus", ibusEngines), ("fcitx5", facts.fcitx5InputMethods)]
                .filter { !$0.1.isEmpty }.map { "\($0.0): \($0.1.joined(separator: ", "))" }
            findings.append(DoctorFinding("engines-installed", .ok, .engines, "Installed engines — \(lists.joined(separator: "; "))"))
        }
        if facts.ibusComponents.contains("hangul") { findings += hangulFindings(c) }
        if facts.ibusComponents.contains("anthy") { findings += anthyFindings(c) }
        findings += mozcFindings(c)
        return findings
    }

    /// ibus-hangul 1.5.4 under GTK 4: with event forwarding on, keys it does not use go back
    /// to the application, GTK 4's IBus module sends them into the input method again, and
    /// Return and BackSpace vanish. It also starts in Latin mode unless told otherwise.
    static func hangulFindings(_ c: Context) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let read = c.facts.setting(.hangulEventForwarding).flatMap(GVariantText.bool)
        if read == false {
            findings.append(DoctorFinding(
                "ibus-hangul-event-forwarding", .ok, .engines,
                "ibus-hangul's event forwarding is off: Return and BackSpace reach GTK 4 applications"))
        } else {
            // A warning while ibus-hangul is typed with or one switch away; merely installed
            // next to the engine in use, it loses nothing today.
            let use = ibusEngineUse("hangul", c)
            let which = switch use {
            case .current: "ibus-hangul (IBus's engine now)"
            case .preloaded: "ibus-hangul (in IBus's preload-engines)"
            case .installedOnly: "ibus-hangul (\(ibusNotInUse("hangul", c)))"
            }
            findings.append(DoctorFinding(
                "ibus-hangul-event-forwarding", use == .installedOnly ? .info : .warning, .engines,
                "\(which) forwards keys it does not use back to the application"
                    + (read == nil ? " (the setting could not be read; on is the default)" : "")
                    + (use == .installedOnly ? ": typing Korean with it under GTK 4 would lose Return and BackSpace"
                                             : ": under GTK 4 Return and BackSpace get lost while typing Korean"),
                fix: "gsettings set org.freedesktop.ibus.engine.hangul use-event-forwarding false, then ibus restart."))
        }
        let mode = c.facts.setting(.hangulInitialInputMode).map(GVariantText.string) ?? "latin"
        if mode == "hangul" {
            findings.append(DoctorFinding("ibus-hangul-initial-mode", .ok, .engines, "ibus-hangul starts in Hangul mode"))
        } else {
            findings.append(DoctorFinding(
                "ibus-hangul-initial-mode", .info, .engines,
                "ibus-hangul starts in Latin mode (initial-input-mode '\(mode)'): it types Latin letters until you "
                    + "switch to Hangul (the Hangul key or Shift+Space)",
                fix: "To start in Hangul: gsettings set org.freedesktop.ibus.engine.hangul initial-input-mode 'hangul'."))
        }
        return findings
    }

    /// ibus-anthy's input-mode: 0 hiragana, 1 katakana, 2 half-width katakana, 3 Latin
    /// (the default), 4 wide Latin.
    static func anthyFindings(_ c: Context) -> [DoctorFinding] {
        let mode = c.facts.setting(.anthyInputMode).flatMap(GVariantText.int) ?? 3
        guard mode == 3 || mode == 4 else {
            return [DoctorFinding("ibus-anthy-initial-mode", .ok, .engines, "ibus-anthy starts in kana (input-mode \(mode))")]
        }
        return [DoctorFinding(
            "ibus-anthy-initial-mode", .info, .engines,
            "ibus-anthy starts in \(mode == 3 ? "Latin" : "wide Latin") mode (input-mode \(mode)): romaji stays Latin "
                + "until you switch its input mode to hiragana",
            fix: "To start in hiragana: gsettings set org.freedesktop.ibus.engine.anthy.common input-mode 0 (before ibus starts).")]
    }

    /// Mozc: ibus-mozc starts in direct input; its conversion server refuses to run as root.
    static func mozcFindings(_ c: Context) -> [DoctorFinding] {
        let facts = c.facts
        let ibusMozc = facts.ibusComponents.contains("mozc")
        let fcitxMozc = facts.fcitx5InputMethods.contains("mozc")
        var findings: [DoctorFinding] = []
        if ibusMozc {
            findings.append(DoctorFinding(
                "ibus-mozc-initial-mode", .info, .engines,
                "ibus-mozc starts in direct input: it converts nothing until you turn it on (Hankaku/Zenkaku or Henkan)",
                fix: "To start in hiragana: active_on_launch: True in ~/.config/mozc/ibus_config.textproto, then ibus restart."))
        }
        if facts.isRoot, ibusMozc || fcitxMozc || facts.mozcServerInstalled {
            // A problem while Mozc is the engine typed with, a warning while it is one switch
            // away; installed next to the one in use, it breaks nothing today (a note says what
            // switching to it would do).
            let use = max(ibusEngineUse("mozc", c), fcitx5InputMethodUse("mozc", c))
            let (severity, summary): (DoctorFinding.Severity, String) = switch use {
            case .current:
                (.problem, "Running as root: mozc_server refuses to run as root, so Mozc converts nothing in this session")
            case .preloaded:
                (.warning, "Running as root: Mozc is one switch away (in IBus's preload-engines or fcitx5's profile); "
                    + "mozc_server refuses to run as root, so it would convert nothing in this session")
            case .installedOnly:
                (.info, "Running as root: Mozc is installed but not in use; mozc_server refuses to run as root, so it "
                    + "would convert nothing in this session")
            }
            findings.append(DoctorFinding("mozc-as-root", severity, .engines, summary,
                                          fix: "Log in to your desktop as an ordinary user to type with Mozc."))
        }
        return findings
    }
}
