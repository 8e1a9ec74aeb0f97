/// The desktop a session runs, as `XDG_CURRENT_DESKTOP` (else `XDG_SESSION_DESKTOP`) names
/// it: the two the doctor knows the input method path of, GNOME and KDE Plasma, or another.
///
/// - GNOME (Wayland): mutter hands text-input-v3 to gnome-shell, which is IBus's panel and
///   passes it to ibus-daemon itself; the engines are GNOME's input sources.
/// - KDE Plasma (Wayland): KWin talks to the input method over input-method-v1 and starts
///   the one chosen as its Virtual Keyboard (`kwinrc`, `[Wayland] InputMethod`).
public enum SessionDesktop: Equatable, Sendable {
    case gnome
    case plasma
    /// A desktop the doctor has no rules for (sway, XFCE, …): its first name in the variable.
    case other(String)
    /// Neither variable is set.
    case unknown

    /// From `XDG_CURRENT_DESKTOP` (a `:`-separated list, "ubuntu:GNOME", "KDE"), else
    /// `XDG_SESSION_DESKTOP` ("gnome", "plasma", "KDE"); the names compared without case.
    public static func resolve(environment: [String: String]) -> SessionDesktop {
        if let current = environment["XDG_CURRENT_DESKTOP"], !current.isEmpty {
            let names = current.split(separator: ":").map { $0.lowercased() }
            if names.contains(where: { $0.contains("gnome") }) { return .gnome }
            if names.contains("kde") { return .plasma }
            return current.split(separator: ":").first.map { .other(String($0)) } ?? .unknown
        }
        if let session = environment["XDG_SESSION_DESKTOP"], !session.isEmpty {
            let name = session.lowercased()
            if name.contains("gnome") { return .gnome }
            if name == "kde" || name.hasPrefix("plasma") { return .plasma }
            return .other(session)
        }
        return .unknown
    }

    /// Its name in the report: "GNOME", "KDE Plasma", the variable's name, or nil.
    public var name: String? {
        switch self {
        case .gnome: return "GNOME"
        case .plasma: return "KDE Plasma"
        case let .other(name): return name
        case .unknown: return nil
        }
    }

    /// For `--json`: "gnome", "plasma", "other", "unknown".
    public var id: String {
        switch self {
        case .gnome: return "gnome"
        case .plasma: return "plasma"
        case .other: return "other"
        case .unknown: return "unknown"
        }
    }
}

/// KWin's Virtual Keyboard setting: `InputMethod` in `kwinrc`'s `[Wayland]` group (System
/// Settings → Keyboard → Virtual Keyboard writes `InputMethod[$e]=/usr/share/applications/
/// org.fcitx.Fcitx5.desktop`). KWin starts that program on Wayland and talks to it over
/// input-method-v1; it starts no other input method.
public struct KWinInputMethod: Equatable, Sendable {
    /// The `kwinrc` it was read from.
    public var path: String
    /// The entry's value: a desktop file, by path or by name; "" when it is set empty.
    public var value: String

    public init(path: String, value: String) {
        self.path = path
        self.value = value
    }

    /// Which framework the desktop file starts: fcitx5 (`org.fcitx.Fcitx5.desktop`, its
    /// Wayland launcher), IBus (`org.freedesktop.IBus.Panel.Wayland.Gtk3.desktop`, IBus 1.5.29
    /// and later), nil for another (Maliit, Plasma's keyboard) or none.
    public var framework: InputFramework? {
        let file = (value.split(separator: "/").last.map(String.init) ?? value).lowercased()
        if file.contains("fcitx") { return .fcitx5 }
        if file.contains("ibus") { return .ibus }
        return nil
    }

    /// The desktop file's name without its directory and `.desktop`: "org.fcitx.Fcitx5".
    public var desktopFileName: String {
        let file = value.split(separator: "/").last.map(String.init) ?? value
        return file.hasSuffix(".desktop") ? String(file.dropLast(".desktop".count)) : file
    }

    /// The `InputMethod` value of `kwinrc`'s `[Wayland]` group, nil when absent. KConfig
    /// syntax: `[Group]` lines, `key=value`, `#` comments, options after the key
    /// (`InputMethod[$e]`); the last of a repeated key counts.
    public static func value(inKwinrc text: String) -> String? {
        var inWayland = false
        var value: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                inWayland = line == "[Wayland]"
                continue
            }
            guard inWayland, let equals = line.firstIndex(of: "=") else { continue }
            var key = line[..<equals].trimmingCharacters(in: .whitespaces)
            // Options such as [$e] (expand variables) or [$i] (immutable), not a locale.
            while key.hasSuffix("]"), let open = key.lastIndex(of: "["), key[open...].contains("$") {
                key = String(key[..<open])
            }
            if key == "InputMethod" {
                value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return value
    }
}

/// GNOME's input sources (`org.gnome.desktop.input-sources sources`): the keyboard layouts
/// and IBus engines one switches between with Super+Space, in order.
public struct GnomeInputSource: Equatable, Sendable {
    /// "xkb" or "ibus".
    public var type: String
    /// The layout ("us") or the IBus engine ("anthy", "hangul").
    public var id: String

    public init(type: String, id: String) {
        self.type = type
        self.id = id
    }

    /// `[('xkb', 'us'), ('ibus', 'anthy')]` or `@a(ss) []` → the sources; nil when the text
    /// is not an array of string pairs.
    public static func sources(fromGVariant text: String) -> [GnomeInputSource]? {
        var rest = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if rest.hasPrefix("@a(ss)") { rest = rest.dropFirst(6).drop { $0 == " " } }
        guard rest.first == "[", rest.last == "]" else { return nil }
        // The pairs, as a list of strings: "('xkb', 'us'), ('ibus', 'anthy')" with its
        // parentheses turned into the list's brackets and commas.
        var inQuote: Character?
        var escaped = false
        var flattened = ""
        var depth = 0
        var itemsInTuple = 0
        for character in rest.dropFirst().dropLast() {
            if let quote = inQuote {
                flattened.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == quote { inQuote = nil }
                continue
            }
            switch character {
            case "'", "\"":
                guard depth == 1 else { return nil }
                inQuote = character
                flattened.append(character)
                itemsInTuple += 1
            case "(":
                guard depth == 0 else { return nil }
                depth = 1
                itemsInTuple = 0
            case ")":
                guard depth == 1, itemsInTuple == 2 else { return nil }
                depth = 0
            default:
                flattened.append(character)
            }
        }
        guard inQuote == nil, depth == 0, let strings = GVariantText.strings("[" + flattened + "]"),
              strings.count % 2 == 0 else { return nil }
        return stride(from: 0, to: strings.count, by: 2).map { GnomeInputSource(type: strings[$0], id: strings[$0 + 1]) }
    }
}
