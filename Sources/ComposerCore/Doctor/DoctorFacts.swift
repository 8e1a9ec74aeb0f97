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
        "XDG_CURRENT_DESKTOP", "XDG_SESSION_DESKTOP",
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
    /// The IBus release installed (`ibus version`: "1.5.27"), nil without the `ibus` tool.
    /// GTK 4's `ibus` module is built from the same release, and some of its bugs are
    /// fixed only in later ones.
    public var ibusVersion: String?
    /// IBus components installed (`/usr/share/ibus/component/*.xml`, without `.xml`).
    public var ibusComponents: [String]
    /// fcitx5 input methods installed (`/usr/share/fcitx5/inputmethod/*.conf`, without `.conf`).
    public var fcitx5InputMethods: [String]
    /// IBus's `preload-engines` (`org.freedesktop.ibus.general`): the engines one switches
    /// between (Super+Space), in order; nil when it could not be read.
    public var ibusPreloadEngines: [String]?
    /// The input methods of fcitx5's profile (`$XDG_CONFIG_HOME/fcitx5/profile`, every
    /// group's items): the ones one switches between; nil without a profile.
    public var fcitx5ProfileInputMethods: [String]?
    /// Whether Mozc's conversion server (`mozc_server`) is installed.
    public var mozcServerInstalled: Bool
    /// Engine settings read with `gsettings get` (GVariant text, e.g. `false`, `'latin'`, `3`),
    /// keyed by `EngineSetting.rawValue`; absent when unreadable or not asked.
    public var engineSettings: [String: String]
    /// Running as uid 0.
    public var isRoot: Bool
    /// KWin's Virtual Keyboard (`kwinrc`, `[Wayland] InputMethod`): the first of the user's
    /// `kwinrc` and `$XDG_CONFIG_DIRS`' that sets it, as KConfig cascades; nil when none does.
    public var kwinInputMethod: KWinInputMethod?
    /// GNOME's input sources (`org.gnome.desktop.input-sources sources`); nil when not read
    /// (asked only on GNOME) or unreadable.
    public var gnomeInputSources: [GnomeInputSource]?

    public init(environment: [String: String] = [:], settingsFiles: [GtkSettingsFile] = [],
                gsettingsIMModule: String? = nil, moduleDirectories: [String] = [],
                moduleLibraries: [String] = [], sessionBusReachable: Bool = true,
                ibus: DaemonState = .notAnswering, fcitx5: DaemonState = .notAnswering,
                ibusServedByFcitx5: Bool = false, ibusVersion: String? = nil, ibusComponents: [String] = [], fcitx5InputMethods: [String] = [],
                ibusPreloadEngines: [String]? = nil, fcitx5ProfileInputMethods: [String]? = nil,
                mozcServerInstalled: Bool = false, engineSettings: [String: String] = [:],
                isRoot: Bool = false, kwinInputMethod: KWinInputMethod? = nil,
                gnomeInputSources: [GnomeInputSource]? = nil) {
        self.environment = environment
        self.settingsFiles = settingsFiles
        self.gsettingsIMModule = gsettingsIMModule
        self.moduleDirectories = moduleDirectories
        self.moduleLibraries = moduleLibraries
        self.sessionBusReachable = sessionBusReachable
        self.ibus = ibus
        self.fcitx5 = fcitx5
        self.ibusServedByFcitx5 = ibusServedByFcitx5
        self.ibusVersion = ibusVersion
        self.ibusComponents = ibusComponents
        self.fcitx5InputMethods = fcitx5InputMethods
        self.ibusPreloadEngines = ibusPreloadEngines
        self.fcitx5ProfileInputMethods = fcitx5ProfileInputMethods
        self.mozcServerInstalled = mozcServerInstalled
        self.engineSettings = engineSettings
        self.isRoot = isRoot
        self.kwinInputMethod = kwinInputMethod
        self.gnomeInputSources = gnomeInputSources
    }

    /// An environment variable, nil when unset.
    public func variable(_ name: String) -> String? { environment[name] }

    /// GTK 4 IM module names the installed module files register (see `GtkModuleCatalog`).
    public var installedModules: [String] { GtkModuleCatalog.moduleNames(libraries: moduleLibraries) }

    /// The desktop `XDG_CURRENT_DESKTOP` (else `XDG_SESSION_DESKTOP`) names.
    public var desktop: SessionDesktop { SessionDesktop.resolve(environment: environment) }

    /// The session is a Wayland one (`XDG_SESSION_TYPE=wayland` or `WAYLAND_DISPLAY` set),
    /// whatever GTK 4 applications started from here use: the desktop's compositor then
    /// decides how input reaches Wayland applications.
    public var isWaylandSession: Bool {
        environment["XDG_SESSION_TYPE"] == "wayland" || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

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
