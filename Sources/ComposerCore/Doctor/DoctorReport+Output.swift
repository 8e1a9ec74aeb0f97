import Foundation

/// The two forms `ime-composer doctor` prints: a report for people and one JSON object for
/// machines. Here, not in the command line, so that their shape is tested without a daemon.
extension DoctorReport {
    /// The readable report: a headline, the findings grouped by topic (one per line, its
    /// fix indented below), and a last line with the counts and the exit status.
    public func text() -> String {
        var lines: [String] = []
        var session = switch backend {
        case .wayland: "Wayland session"
        case .x11: "X11 session"
        case .none: "no display"
        }
        if let name = desktop.name { session += ", desktop \(name)" }
        lines.append("ime-composer doctor: GTK 4 will use the \(module.module) input method module (\(session)).")
        for topic in DoctorFinding.Topic.allCases {
            let group = findings.filter { $0.topic == topic }
            guard !group.isEmpty else { continue }
            lines.append("")
            lines.append(topic.rawValue)
            for finding in group {
                lines.append("  \(Self.label(finding.severity)) \(finding.summary)  [\(finding.id)]")
                if let fix = finding.fix, finding.severity != .ok {
                    lines.append("           fix: \(fix)")
                }
            }
        }
        lines.append("")
        lines.append(verdict)
        return lines.joined(separator: "\n") + "\n"
    }

    /// "Healthy (exit status 0)." or "1 problem, 2 warnings: needs fixing (exit status 1)."
    public var verdict: String {
        guard needsFixing else { return "Healthy: nothing needs fixing (exit status 0)." }
        let counts = [(count(.problem), "problem"), (count(.warning), "warning")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        return "\(counts.joined(separator: ", ")): needs fixing (exit status \(exitStatus))."
    }

    private static func label(_ severity: DoctorFinding.Severity) -> String {
        let text = switch severity {
        case .ok: "ok"
        case .info: "info"
        case .warning: "WARNING"
        case .problem: "PROBLEM"
        }
        return text.padding(toLength: 8, withPad: " ", startingAt: 0)
    }

    /// `--json`: one object — `healthy`, `exit_status`, `backend`, `desktop` (id: gnome,
    /// plasma, other, unknown; name or null), `module` (name, source, reason), `findings` (id,
    /// severity, topic, summary, fix or null) and `facts`.
    public func json(facts: DoctorFacts) -> JSONValue {
        .object([
            ("healthy", .bool(!needsFixing)),
            ("exit_status", .int(Int(exitStatus))),
            ("backend", .string(backend.rawValue)),
            ("desktop", .object([("id", .string(desktop.id)), ("name", desktop.name.map(JSONValue.string) ?? .null)])),
            ("module", .object([
                ("name", .string(module.module)),
                ("source", .string(module.source.rawValue)),
                ("settings_file", module.settingsPath.map(JSONValue.string) ?? .null),
                ("reason", .string(module.reason)),
            ])),
            ("findings", .array(findings.map { finding in
                .object([
                    ("id", .string(finding.id)),
                    ("severity", .string(finding.severity.rawValue)),
                    ("topic", .string(finding.topic.rawValue)),
                    ("summary", .string(finding.summary)),
                    ("fix", finding.fix.map(JSONValue.string) ?? .null),
                ])
            })),
            ("facts", facts.json),
        ])
    }
}

extension DoctorFacts {
    /// The facts as gathered, for `--json` (keys sorted where the source has no order).
    public var json: JSONValue {
        .object([
            ("environment", .object(environment.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("settings_files", .array(settingsFiles.map { file in
                .object([
                    ("path", .string(file.path)),
                    ("exists", .bool(file.exists)),
                    ("gtk_im_module", file.imModule.map(JSONValue.string) ?? .null),
                ])
            })),
            ("gsettings_gtk_im_module", gsettingsIMModule.map(JSONValue.string) ?? .null),
            ("module_directories", .array(moduleDirectories.map(JSONValue.string))),
            ("module_libraries", .array(moduleLibraries.map(JSONValue.string))),
            ("installed_modules", .array(installedModules.map(JSONValue.string))),
            ("session_bus", .bool(sessionBusReachable)),
            ("ibus", Self.json(ibus, current: "engine")),
            ("fcitx5", Self.json(fcitx5, current: "input_method")),
            ("ibus_served_by_fcitx5", .bool(ibusServedByFcitx5)),
            ("ibus_version", ibusVersion.map(JSONValue.string) ?? .null),
            ("ibus_components", .array(ibusComponents.map(JSONValue.string))),
            ("fcitx5_input_methods", .array(fcitx5InputMethods.map(JSONValue.string))),
            ("ibus_preload_engines", Self.json(ibusPreloadEngines)),
            ("fcitx5_profile_input_methods", Self.json(fcitx5ProfileInputMethods)),
            ("mozc_server", .bool(mozcServerInstalled)),
            ("engine_settings", .object(engineSettings.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("root", .bool(isRoot)),
            ("kwin_input_method", kwinJSON),
            ("gnome_input_sources", gnomeInputSourcesJSON),
        ])
    }

    /// KWin's Virtual Keyboard entry (path, value), `null` when no kwinrc sets it.
    private var kwinJSON: JSONValue {
        guard let kwin = kwinInputMethod else { return .null }
        return .object([("path", .string(kwin.path)), ("value", .string(kwin.value))])
    }

    /// GNOME's input sources as [type, id] pairs, `null` when not read.
    private var gnomeInputSourcesJSON: JSONValue {
        guard let sources = gnomeInputSources else { return .null }
        return .array(sources.map { JSONValue.array([.string($0.type), .string($0.id)]) })
    }

    /// A list of names, `null` when it could not be read.
    private static func json(_ names: [String]?) -> JSONValue {
        guard let names else { return .null }
        return .array(names.map(JSONValue.string))
    }

    private static func json(_ state: DaemonState, current key: String) -> JSONValue {
        switch state {
        case let .answering(current):
            return .object([("answering", .bool(true)), (key, current.map(JSONValue.string) ?? .null)])
        case .notAnswering:
            return .object([("answering", .bool(false))])
        case let .unknown(reason):
            return .object([("answering", .null), ("unknown", .string(reason))])
        }
    }
}
