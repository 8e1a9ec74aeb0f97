import GtkBinding
import Testing

/// The language a locale the machine lacks asked for (`Gettext.prepareLocale`): the app
/// then speaks it in C.UTF-8. Pure: no process environment is touched.
@Suite @MainActor struct GettextTests {
    @Test func languageComesFromLanguageElseFromTheVariableThatNamedTheLocale() {
        #expect(Gettext.requestedLanguage(["LANGUAGE": "ja:en", "LANG": "ko_KR.UTF-8"]) == "ja:en")
        #expect(Gettext.requestedLanguage(["LANG": "ko_KR.UTF-8"]) == "ko_KR")
        #expect(Gettext.requestedLanguage(["LC_ALL": "ja_JP.eucJP", "LANG": "ko_KR.UTF-8"]) == "ja_JP")
        #expect(Gettext.requestedLanguage(["LC_MESSAGES": "zh_TW.UTF-8", "LANG": "C.UTF-8"]) == "zh_TW")
        #expect(Gettext.requestedLanguage(["LANG": "C.UTF-8"]) == nil)
        #expect(Gettext.requestedLanguage(["LANG": "POSIX"]) == nil)
        #expect(Gettext.requestedLanguage(["LANGUAGE": "", "LC_ALL": ""]) == nil)
    }

    /// Without a catalog the message comes back as it was (gettext hands back the pointer
    /// it was given, which must be read before it is freed).
    @Test func anUntranslatedMessageComesBackWhole() {
        let message = "A message no catalog has, long enough not to be a small string: 一二三四五六七八九十"
        #expect(Gettext.text(message, domain: "ime-composer-no-such-domain") == message)
        #expect(Gettext.text("one", "many", count: 2, domain: "ime-composer-no-such-domain") == "many")
        #expect(Gettext.text("one", "many", count: 1, domain: "ime-composer-no-such-domain") == "one")
    }
}
