/// GTK 4's input method modules: which names a module file registers, which are built in,
/// and which input method framework each one talks to.
///
/// GTK 4 loads every `*.so` in its `immodules` directories as a GIO module; each registers
/// one or more names on the `gtk-im-module` extension point. The names cannot be read
/// without loading the file, so the known ones are listed here (checked on Debian 12 with
/// GTK 4.8.3: `libim-ibus.so` registers `ibus`; `libim-fcitx5.so` registers `fcitx` and
/// `fcitx5`), and an unknown `libim-NAME.so` is taken to register `NAME`.
public enum GtkModuleCatalog {
    /// Compiled into GTK 4.8 on Linux: always there (`wayland` only works on Wayland).
    /// GTK 4.8 does not know `simple` or `none` as aliases (checked: `GTK_IM_MODULE=simple`
    /// is ignored like any unknown name).
    public static let simple = "gtk-im-context-simple"
    public static let wayland = "wayland"

    /// The module names registered by these module files.
    public static func moduleNames(libraries: [String]) -> [String] {
        var names: [String] = []
        for library in libraries {
            for name in moduleNames(library: library) where !names.contains(name) {
                names.append(name)
            }
        }
        return names
    }

    static func moduleNames(library: String) -> [String] {
        switch library {
        case "libim-ibus.so": return ["ibus"]
        case "libim-fcitx5.so": return ["fcitx", "fcitx5"]
        default:
            guard library.hasSuffix(".so") else { return [] }
            var stem = String(library.dropLast(3))
            if stem.hasPrefix("libim-") { stem = String(stem.dropFirst(6)) } else if stem.hasPrefix("lib") { stem = String(stem.dropFirst(3)) }
            return stem.isEmpty ? [] : [stem]
        }
    }

    /// The Debian package that provides a module, for "install it" advice.
    public static func package(providing module: String) -> String? {
        switch InputFramework(module: module) {
        case .ibus: return "ibus-gtk4"
        case .fcitx5: return "fcitx5-frontend-gtk4"
        case nil: return nil
        }
    }

    /// The order GTK 4.8 tries installed modules in when nothing names one (extension
    /// priority; checked on this machine: ibus before fcitx5, and `fcitx5` before `fcitx`
    /// when only fcitx5's module is installed); unknown modules after these, the built-in
    /// simple context last.
    static let defaultPreference = ["ibus", "fcitx5", "fcitx"]
}
