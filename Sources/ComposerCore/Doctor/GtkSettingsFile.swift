import Foundation

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
