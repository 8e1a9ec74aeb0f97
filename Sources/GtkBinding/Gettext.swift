import CGtk
import Foundation

/// gettext for one text domain, the GNOME way: message catalogs (`.mo`) compiled from
/// `po/` by meson's i18n module, looked up by GNU gettext in the language `LANGUAGE`,
/// `LC_ALL`, `LC_MESSAGES` or `LANG` ask for.
public enum Gettext {
    /// Binds `domain` to `directory` (which holds `<lang>/LC_MESSAGES/<domain>.mo`) in UTF-8.
    public static func bind(domain: String, directory: String) {
        bindtextdomain(domain, directory)
        bind_textdomain_codeset(domain, "UTF-8")
    }

    /// Sets the locale up before GTK does, so that a locale the machine lacks still gets
    /// its language. GTK's start-up calls `setlocale(LC_ALL, "")`; when the locale the
    /// environment names was never generated (ja_JP.UTF-8 on a fresh Debian) that fails,
    /// GTK warns and everything stays in the C locale, where gettext ignores `LANGUAGE`.
    /// The person still asked for that language: the locale becomes C.UTF-8 (`LC_ALL`) and
    /// the language the failed locale named goes to `LANGUAGE` (unless it is set).
    public static func prepareLocale() {
        guard setlocale(LC_ALL, "") == nil else { return }
        let environment = ProcessInfo.processInfo.environment
        if let language = requestedLanguage(environment) { setenv("LANGUAGE", language, 1) }
        setenv("LC_ALL", "C.UTF-8", 1)
        setlocale(LC_ALL, "")
    }

    /// The language a failed locale asked for: `LANGUAGE` when set, else the language part
    /// of the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that is set ("ja" from "ja_JP.UTF-8");
    /// nil for C/POSIX.
    public static func requestedLanguage(_ environment: [String: String]) -> String? {
        if let language = environment["LANGUAGE"], !language.isEmpty { return language }
        guard let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty })
        else { return nil }
        let name = locale.split(separator: ".").first.map(String.init) ?? locale
        guard name != "C", name != "POSIX" else { return nil }
        return name
    }

    /// The translation of `message` in `domain` (the message itself when there is none).
    ///
    /// Without a translation gettext returns the very pointer it was given: the message's
    /// temporary C string, valid only inside `withCString`, so it is read there.
    public static func text(_ message: String, domain: String) -> String {
        message.withCString { cMessage in
            guard let translated = g_dgettext(domain, cMessage), translated != cMessage else { return message }
            return String(cString: translated)
        }
    }

    /// The translation of the form of `singular`/`plural` that `count` takes in the
    /// language (Japanese and Korean have one form; English two).
    public static func text(_ singular: String, _ plural: String, count: Int, domain: String) -> String {
        singular.withCString { cSingular in
            plural.withCString { cPlural in
                guard let translated = g_dngettext(domain, cSingular, cPlural, UInt(max(0, count))) else { return plural }
                if translated == cSingular { return singular }
                if translated == cPlural { return plural }
                return String(cString: translated)
            }
        }
    }
}
