import Foundation

/// Everything `ime-composer doctor` knows about a person's input method setup, gathered by
/// the command line (environment, files, D-Bus answers) and judged by `Doctor.diagnose`.
///
/// A plain value so that every rule can be tested from crafted facts, without a display,
/// a session bus or an input method daemon: the gathering only observes, the core decides.
public struct DoctorFacts: Equatable, Sendable {
    /// The environment variables that decide how input reaches an application.
    public static let environmentVariables = [
        "GTK_IM_MODULE", "XMODIFIERS", "QT_IM_MODULE", "SDL_IM_MODULE", "GDK_BACKEND", "GTK_PATH",
        "XDG_SESSION_TYPE", "WAYLAND_DISPLAY", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS",
    ]

    /// Values of `environmentVariables` that are set (an empty value counts as set).
    public var environment: [String: String]
    /// `settings.ini` files GTK 4 reads, highest precedence first (the user's file, then
    /// `$XDG_CONFIG_DIRS`, then `/etc/gtk-4.0`), with their `gtk-im-module` if any.
    public var settingsFiles: [GtkSettingsFile]
    /// `org.gnome.desktop.interface gtk-im-module` ("" when unset); nil when it could not
    /// be read (no schema, no GSettings backend).
    public var gsettingsIMModule: String?
    /// Directories where GTK 4 loads IM modules from that exist on this machine.
    public var moduleDirectories: [String]
    /// The loadable module files found there (`libim-ibus.so`, `libim-fcitx5.so`, …).
    public var moduleLibraries: [String]
    /// Whether the D-Bus session bus answered (fcitx5 and the ibus check need it).
    public var sessionBusReachable: Bool
    /// ibus-daemon (the owner of `org.freedesktop.IBus`, unless that is fcitx5); `current`
    /// is its global engine (`ibus engine`).
    public var ibus: DaemonState
    /// fcitx5's IBus frontend owns `org.freedesktop.IBus` (and writes IBus's address file):
    /// IBus clients, GTK's `ibus` module among them, then reach fcitx5.
    public var ibusServedByFcitx5: Bool
    /// fcitx5; `current` is `org.fcitx.Fcitx.Controller1.CurrentInputMethod`.
    public var fcitx5: DaemonState
    /// IBus components installed (`/usr/share/ibus/component/*.xml`, without `.xml`).
    public var ibusComponents: [String]
    /// fcitx5 input methods installed (`/usr/share/fcitx5/inputmethod/*.conf`, without `.conf`).
    public var fcitx5InputMethods: [String]
    /// Whether Mozc's conversion server (`mozc_server`) is installed.
    public var mozcServerInstalled: Bool
    /// Engine settings read with `gsettings get` (GVariant text, e.g. `false`, `'latin'`, `3`),
    /// keyed by `EngineSetting.rawValue`; absent when unreadable or not asked.
    public var engineSettings: [String: String]
    /// Running as uid 0.
    public var isRoot: Bool

    public init(environment: [String: String] = [:], settingsFiles: [GtkSettingsFile] = [],
                gsettingsIMModule: String? = nil, moduleDirectories: [String] = [],
                moduleLibraries: [String] = [], sessionBusReachable: Bool = true,
                ibus: DaemonState = .notAnswering, fcitx5: DaemonState = .notAnswering,
                ibusServedByFcitx5: Bool = false, ibusComponents: [String] = [], fcitx5InputMethods: [String] = [],
                mozcServerInstalled: Bool = false, engineSettings: [String: String] = [:],
                isRoot: Bool = false) {
        self.environment = environment
        self.settingsFiles = settingsFiles
        self.gsettingsIMModule = gsettingsIMModule
        self.moduleDirectories = moduleDirectories
        self.moduleLibraries = moduleLibraries
        self.sessionBusReachable = sessionBusReachable
        self.ibus = ibus
        self.fcitx5 = fcitx5
        self.ibusServedByFcitx5 = ibusServedByFcitx5
        self.ibusComponents = ibusComponents
        self.fcitx5InputMethods = fcitx5InputMethods
        self.mozcServerInstalled = mozcServerInstalled
        self.engineSettings = engineSettings
        self.isRoot = isRoot
    }

    /// An environment variable, nil when unset.
    public func variable(_ name: String) -> String? { environment[name] }

    /// GTK 4 IM module names the installed module files register (see `GtkModuleCatalog`).
    public var installedModules: [String] { GtkModuleCatalog.moduleNames(libraries: moduleLibraries) }

    /// The value read for an engine setting, if any.
    public func setting(_ setting: EngineSetting) -> String? { engineSettings[setting.rawValue] }
}

/// Whether an input method daemon answers on D-Bus.
public enum DaemonState: Equatable, Sendable {
    /// It answered; `current` is its engine or input method (nil when none is selected).
    case answering(current: String?)
    /// Nobody owns its bus name.
    case notAnswering
    /// It could not be asked (no session bus, a tool missing, a call timed out): why.
    case unknown(String)

    public var isAnswering: Bool {
        if case .answering = self { return true }
        return false
    }

    /// The engine or input method it reported.
    public var current: String? {
        if case let .answering(current) = self { return current }
        return nil
    }
}

/// One `settings.ini` GTK 4 reads and the `gtk-im-module` it sets.
public struct GtkSettingsFile: Equatable, Sendable {
    public var path: String
    /// The file exists (and could be read).
    public var exists: Bool
    /// `gtk-im-module` in its `[Settings]` group, nil when the file or the key is absent.
    public var imModule: String?

    public init(path: String, exists: Bool, imModule: String?) {
        self.path = path
        self.exists = exists
        self.imModule = imModule
    }

    /// Reads `gtk-im-module` from the text of a GTK `settings.ini` (a GKeyFile: `[Settings]`
    /// group, `key = value` lines, `#` comments); nil when the key is absent.
    public static func imModule(inSettingsIni text: String) -> String? {
        var inSettings = false
        var value: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                inSettings = line == "[Settings]"
                continue
            }
            guard inSettings, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            if key == "gtk-im-module" {
                // GKeyFile keeps the last of repeated keys.
                value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return value
    }
}

/// Engine options the doctor reads with `gsettings get`: the ones behind known quirks.
public enum EngineSetting: String, CaseIterable, Sendable {
    /// ibus-hangul forwards keys it does not use back to the application; under GTK 4 they
    /// are lost (README, "Known input method quirks"). Default true.
    case hangulEventForwarding = "org.freedesktop.ibus.engine.hangul use-event-forwarding"
    /// ibus-hangul's mode when it starts: 'latin' (default) or 'hangul'.
    case hangulInitialInputMode = "org.freedesktop.ibus.engine.hangul initial-input-mode"
    /// ibus-anthy's mode when it starts: 0 hiragana … 3 Latin (default).
    case anthyInputMode = "org.freedesktop.ibus.engine.anthy.common input-mode"

    public var schema: String { String(rawValue.split(separator: " ")[0]) }
    public var key: String { String(rawValue.split(separator: " ")[1]) }

    /// The IBus component (`/usr/share/ibus/component/NAME.xml`) the setting belongs to.
    public var component: String {
        switch self {
        case .hangulEventForwarding, .hangulInitialInputMode: return "hangul"
        case .anthyInputMode: return "anthy"
        }
    }
}

/// Reading `gsettings get` output (GVariant text).
public enum GVariantText {
    /// `'fcitx'` → `fcitx`; anything else as is (trimmed).
    public static func string(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.count >= 2, trimmed.first == "'" || trimmed.first == "\"", trimmed.last == trimmed.first {
            return String(trimmed.dropFirst().dropLast())
        }
        return trimmed
    }

    /// `true` / `false`, nil otherwise.
    public static func bool(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// `3`, `int32 3`, `uint32 3` → 3.
    public static func int(_ text: String) -> Int? {
        text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").last.flatMap { Int($0) }
    }
}
