import Foundation

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

    /// `['anthy', 'hangul']` or `@as []` → the strings; nil when the text is not an array of
    /// strings (quoted with `'` or `"`, `\` escaping the next character).
    public static func strings(_ text: String) -> [String]? {
        var rest = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if rest.hasPrefix("@as") { rest = rest.dropFirst(3).drop { $0 == " " } }
        guard rest.first == "[", rest.last == "]" else { return nil }
        var characters = Array(rest.dropFirst().dropLast())[...]
        var strings: [String] = []
        func skipSpaces() { while characters.first == " " { characters.removeFirst() } }
        skipSpaces()
        while let quote = characters.first {
            guard quote == "'" || quote == "\"" else { return nil }
            characters.removeFirst()
            var value = ""
            while true {
                guard let character = characters.popFirst() else { return nil }  // unterminated
                if character == quote { break }
                if character == "\\" {
                    guard let escaped = characters.popFirst() else { return nil }
                    value.append(escaped)
                } else {
                    value.append(character)
                }
            }
            strings.append(value)
            skipSpaces()
            guard let separator = characters.popFirst() else { break }
            guard separator == "," else { return nil }
            skipSpaces()
            guard !characters.isEmpty else { return nil }
        }
        return characters.isEmpty ? strings : nil
    }

    /// `3`, `int32 3`, `uint32 3` → 3.
    public static func int(_ text: String) -> Int? {
        text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").last.flatMap { Int($0) }
    }
}
