/// The input method frameworks the doctor knows how to ask.
public enum InputFramework: String, Equatable, Sendable, CaseIterable {
    case ibus
    case fcitx5

    /// The framework behind a GTK (or Qt, SDL) IM module name: `ibus`; `fcitx` or `fcitx5`.
    public init?(module: String) {
        switch module {
        case "ibus": self = .ibus
        case "fcitx", "fcitx5": self = .fcitx5
        default: return nil
        }
    }

    /// The framework an `XMODIFIERS` value names (`@im=ibus`, `@im=fcitx`, `@im=fcitx5`).
    public init?(xmodifiers: String) {
        guard let value = InputFramework.xmodifiersName(xmodifiers) else { return nil }
        self.init(module: value)
    }

    /// The server name in `XMODIFIERS` (`@im=NAME`), nil when it has none.
    public static func xmodifiersName(_ xmodifiers: String) -> String? {
        guard let range = xmodifiers.range(of: "@im=") else { return nil }
        let name = xmodifiers[range.upperBound...].prefix { $0 != "@" && !$0.isWhitespace }
        return name.isEmpty ? nil : String(name)
    }

    /// The daemon's name as people know it.
    public var daemon: String {
        switch self {
        case .ibus: return "ibus-daemon"
        case .fcitx5: return "fcitx5"
        }
    }

    /// The value that selects it in `GTK_IM_MODULE`, `QT_IM_MODULE`, `SDL_IM_MODULE`.
    public var moduleName: String {
        switch self {
        case .ibus: return "ibus"
        case .fcitx5: return "fcitx"
        }
    }

    /// The `XMODIFIERS` value for its XIM server.
    public var xmodifiers: String { "@im=\(moduleName)" }

    /// How to start it by hand.
    public var startCommand: String {
        switch self {
        case .ibus: return "ibus-daemon -drx"
        case .fcitx5: return "fcitx5 -d"
        }
    }
}
