/// The IM module GTK 4 will use, and why: GTK 4.8's `_gtk_im_module_get_default_context_id`.
///
/// 1. `GTK_IM_MODULE`, a `:`-separated list: the first name that is available wins; unknown
///    names are skipped without a word (GTK 4.8 prints no warning).
/// 2. The `gtk-im-module` setting, same lookup. On Wayland GTK takes it from GSettings
///    (`org.gnome.desktop.interface gtk-im-module`), and the GSettings value — even empty —
///    hides `settings.ini`'s; on X11 from `settings.ini` (the user's file over the system's),
///    overridden by XSETTINGS when a settings daemon (GNOME's) publishes one.
/// 3. Otherwise the installed module with the highest priority that works on this backend:
///    on Wayland the built-in `wayland` (text-input-v3), when the compositor offers that
///    protocol; on X11 `ibus`, then `fcitx5`; `gtk-im-context-simple` when none is installed.
///
/// Checked on this machine (Debian 12, GTK 4.8.3) with `GtkIMMulticontext` under Xvfb and
/// headless sway: every step above, including that the user's `settings.ini` overrides the
/// system's, that GTK ignores GSettings on X11 without a settings daemon, and that on
/// Wayland an empty GSettings value makes GTK ignore `settings.ini`.
public struct ModuleChoice: Equatable, Sendable {
    /// What decided the module.
    public enum Source: String, Equatable, Sendable {
        case environment = "GTK_IM_MODULE"
        case gsettings
        case settingsFile = "settings.ini"
        case priority = "default"
    }

    /// The module GTK will use.
    public var module: String
    public var source: Source
    /// The `settings.ini` that named it, when `source` is `.settingsFile`.
    public var settingsPath: String?
    /// Names in `GTK_IM_MODULE` that GTK cannot use here (not installed, or `wayland` off Wayland).
    public var unusableEnvironmentNames: [String]
    /// Names in the `gtk-im-module` setting that GTK cannot use here.
    public var unusableSettingNames: [String]
    /// One sentence: why GTK picks `module`.
    public var reason: String

    /// The framework the chosen module talks to (nil for `wayland` and the simple context).
    public var framework: InputFramework? { InputFramework(module: module) }

    public static func resolve(_ facts: DoctorFacts, backend: GtkBackend) -> ModuleChoice {
        let installed = facts.installedModules
        func available(_ name: String) -> Bool {
            if name == GtkModuleCatalog.simple { return true }
            if name == GtkModuleCatalog.wayland { return backend == .wayland }
            return installed.contains(name)
        }
        func names(_ list: String) -> [String] {
            list.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
        }

        var unusableEnvironment: [String] = []
        if let variable = facts.variable("GTK_IM_MODULE") {
            let listed = names(variable)
            if let first = listed.first(where: available) {
                let skipped = listed.prefix { $0 != first }
                return ModuleChoice(
                    module: first, source: .environment, settingsPath: nil,
                    unusableEnvironmentNames: Array(skipped), unusableSettingNames: [],
                    reason: "GTK_IM_MODULE=\(variable) names it"
                        + (skipped.isEmpty ? "" : " (after \(skipped.joined(separator: ", ")), which GTK cannot use here)")
                        + ", and the environment variable comes before every setting")
            }
            unusableEnvironment = listed
        }

        let setting = Self.setting(facts, backend: backend)
        var unusableSetting: [String] = []
        if let setting {
            let listed = names(setting.value)
            if let first = listed.first(where: available) {
                return ModuleChoice(
                    module: first, source: setting.source, settingsPath: setting.path,
                    unusableEnvironmentNames: unusableEnvironment, unusableSettingNames: Array(listed.prefix { $0 != first }),
                    reason: Self.ignoredEnvironment(unusableEnvironment)
                        + "gtk-im-module=\(setting.value) in \(setting.description) names it")
            }
            unusableSetting = listed
        }

        let module: String
        let why: String
        if backend == .wayland {
            module = GtkModuleCatalog.wayland
            why = "on Wayland GTK 4 prefers its built-in wayland module (the compositor's text-input-v3 protocol; "
                + "if the compositor lacks it, GTK falls back to the next installed module)"
        } else if let preferred = GtkModuleCatalog.defaultPreference.first(where: installed.contains) {
            module = preferred
            why = "nothing names a module, and \(preferred) is the installed module GTK 4 ranks first on X11"
        } else if let other = installed.first(where: { $0 != GtkModuleCatalog.wayland }) {
            module = other
            why = "nothing names a module, and \(other) is the only loadable module installed"
        } else {
            module = GtkModuleCatalog.simple
            why = "nothing names a module and no IM module is installed, so GTK uses its built-in simple context "
                + "(dead keys and Ctrl+Shift+U only)"
        }
        return ModuleChoice(
            module: module, source: .priority, settingsPath: nil,
            unusableEnvironmentNames: unusableEnvironment, unusableSettingNames: unusableSetting,
            reason: Self.ignoredEnvironment(unusableEnvironment)
                + (unusableSetting.isEmpty ? "" : "gtk-im-module=\(unusableSetting.joined(separator: ":")) names nothing GTK can use here; ")
                + why)
    }

    private static func ignoredEnvironment(_ names: [String]) -> String {
        names.isEmpty ? "" : "GTK_IM_MODULE=\(names.joined(separator: ":")) names nothing GTK can use here; "
    }

    /// Where the `gtk-im-module` setting comes from on this backend, if it is set.
    struct Setting {
        var value: String
        var source: Source
        var path: String?
        var description: String
    }

    static func setting(_ facts: DoctorFacts, backend: GtkBackend) -> Setting? {
        if backend == .wayland, let gsettings = facts.gsettingsIMModule {
            // GDK's Wayland backend maps the GSettings key onto the setting: its value, even
            // an empty one, overrides every settings.ini.
            return gsettings.isEmpty ? nil
                : Setting(value: gsettings, source: .gsettings, path: nil,
                          description: "GSettings (org.gnome.desktop.interface)")
        }
        guard let file = facts.settingsFiles.first(where: { $0.imModule != nil }), let value = file.imModule,
              !value.isEmpty else { return nil }
        return Setting(value: value, source: .settingsFile, path: file.path, description: file.path)
    }
}
