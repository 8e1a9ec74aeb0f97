import Foundation

/// fcitx5's profile (`$XDG_CONFIG_HOME/fcitx5/profile`): its input method groups, each with
/// the input methods one switches between.
public enum Fcitx5Profile {
    /// The `Name` of every `[Groups/N/Items/M]` section, in file order, each once
    /// (`keyboard-us`, `anthy`, …). The file is an INI file (`#` comments).
    public static func inputMethods(inProfile text: String) -> [String] {
        var names: [String] = []
        var inItem = false
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                let parts = line.dropFirst().dropLast().split(separator: "/", omittingEmptySubsequences: false)
                inItem = line.hasSuffix("]") && parts.count == 4 && parts[0] == "Groups" && parts[2] == "Items"
                continue
            }
            guard inItem, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if key == "Name", !value.isEmpty, !names.contains(value) { names.append(value) }
        }
        return names
    }
}
