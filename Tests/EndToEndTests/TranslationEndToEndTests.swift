import Foundation
import TestHarness
import Testing

/// The app in Japanese and Korean: started with `LANGUAGE` or `LANG` naming the language,
/// its words are read back the way a screen reader reads them (AT-SPI,
/// Tests/Drivers/atspi_probe.py): the Send button and the over-limit hint, whose plural and
/// numbers come from the catalog (po/ja.po, po/ko.po, built by meson: `make locale`).
@Suite(.serialized)
struct TranslationEndToEndTests {
    struct Case: Sendable, CustomStringConvertible {
        let environment: [String: String]
        let send: String
        let hint: String
        var description: String { environment.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ") }
    }

    static let cases = [
        // LANGUAGE picks the language whatever the locale (C.UTF-8 here, as in the harness).
        Case(environment: ["LANGUAGE": "ja"], send: "送信",
             hint: "上限の 3 文字を 2 文字超えています。メッセージを短くするか、切り詰めてください (Ctrl+Shift+T)。"),
        // LANG alone, naming a locale this machine never generated: the app still follows it.
        Case(environment: ["LANG": "ko_KR.UTF-8"], send: "보내기",
             hint: "제한 3자를 2자 초과했습니다. 메시지를 줄이거나 잘라 내세요 (Ctrl+Shift+T)."),
    ]

    /// The catalogs `make test` built (`IME_COMPOSER_LOCALEDIR`), else `make locale`'s.
    static func localeDirectory() throws -> String {
        let dir = ProcessInfo.processInfo.environment["IME_COMPOSER_LOCALEDIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.currentDirectoryPath + "/.build-meson/po"
        let catalog = dir + "/ja/LC_MESSAGES/ime-composer.mo"
        guard FileManager.default.fileExists(atPath: catalog) else {
            throw HarnessError("no message catalog at \(catalog): run `make locale` (make test does)")
        }
        return dir
    }

    @Test(.timeLimit(.minutes(2)), arguments: cases)
    func theWindowSpeaksTheLanguageAsked(_ test: Case) throws {
        var environment = test.environment
        environment["IME_COMPOSER_LOCALEDIR"] = try Self.localeDirectory()
        environment.merge(AccessibilityEndToEndTests.accessibilityOn) { mine, _ in mine }
        let cs = try ComposerSession(.gtkSimple, arguments: ["--text", "abcde", "--limit", "3"], environment: environment,
                                     name: "e2e-l10n")
        defer { cs.stop() }
        let send = try Self.waitForAccessible(in: cs, "the Send button, translated") { $0.role == "push button" && $0.name == test.send }
        #expect(send.name == test.send)
        // Enter over the limit: refused, and the hint says why.
        let from = cs.trace.entries.count
        try cs.xdotool.key(["Return"])
        try cs.trace.waitFor("Enter reaching the composer", from: from) {
            $0["ev"]?.stringValue == "key" && $0["keyval"]?.stringValue == "Return"
        }
        #expect(!cs.trace.entries.dropFirst(from).contains { $0.name == "send" }, "over the limit: refused")
        // The hint is an alert (an assertive live region: ComposerView).
        let hint = try Self.waitForAccessible(in: cs, "the over-limit hint, translated") { $0.role == "alert" && $0.name.hasPrefix(String(test.hint.prefix(4))) }
        #expect(hint.name == test.hint)
        #expect(try cs.terminateApp() == 0)
    }

    struct Accessible: Equatable { let role: String; let name: String }

    /// Reads the app's accessible tree (`Probe`, Tests/Drivers/atspi_probe.py) until one
    /// object matches (the hint appears after Enter: read again until it is there).
    static func waitForAccessible(in cs: ComposerSession, _ what: String,
                                  _ matches: @escaping (Accessible) -> Bool) throws -> Accessible {
        var last: [Accessible] = []
        return try Wait.until(what, timeout: .seconds(30), interval: .milliseconds(200),
                              diagnostics: { "last tree read:\n" + last.map { "\($0.role) \($0.name)" }.joined(separator: "\n") }) { () -> Accessible? in
            last = try Probe(cs).tree().map { Accessible(role: $0.role, name: $0.name) }
            return last.first(where: matches)
        }
    }
}

/// The catalogs stay complete: every file that says something is in po/POTFILES, the
/// template has exactly the messages the sources have (xgettext with po/meson.build's
/// arguments), and ja and ko translate all of them, formats checked (`msgfmt -c`).
@Suite struct TranslationCatalogTests {
    static let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)

    static func lines(_ path: String) throws -> [String] {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The msgids of a .pot/.po file (the header's empty one left out).
    static func messages(in text: String) -> Set<String> {
        var result = Set<String>(), current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("msgid \"") {
                current = String(line.dropFirst(7).dropLast())
            } else if line.hasPrefix("\""), let partial = current {
                current = partial + String(line.dropFirst().dropLast())
            } else {
                if let done = current, !done.isEmpty { result.insert(done) }
                current = nil
            }
        }
        return result
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.currentDirectoryURL = root
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func everyFileThatSaysSomethingIsListed() throws {
        let listed = Set(try Self.lines("po/POTFILES"))
        let sources = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Sources").path)!
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "Sources/" + $0 }
        let speaking = try sources.filter { path in
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            return text.contains("tr(\"") || text.contains("trn(\"")
        }
        #expect(!speaking.isEmpty)
        #expect(Set(speaking).subtracting(listed).isEmpty, "add to po/POTFILES: \(Set(speaking).subtracting(listed).sorted())")
    }

    @Test func theTemplateHasExactlyTheSourcesMessagesAndEveryLanguageTranslatesThem() throws {
        let meson = try String(contentsOf: Self.root.appendingPathComponent("po/meson.build"), encoding: .utf8)
        let arguments = meson.split(separator: "'").map(String.init).filter { $0.hasPrefix("--") && !$0.hasSuffix("=") }
        #expect(arguments.contains("--keyword=trn:1,2"))
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("ime-composer-\(UUID().uuidString).pot")
        defer { try? FileManager.default.removeItem(at: fresh) }
        let xgettext = try Self.run("/usr/bin/xgettext", arguments + ["--files-from=po/POTFILES", "--output=\(fresh.path)"])
        #expect(xgettext.status == 0, "\(xgettext.output)")
        let extracted = Self.messages(in: try String(contentsOf: fresh, encoding: .utf8))
        let template = Self.messages(in: try String(contentsOf: Self.root.appendingPathComponent("po/ime-composer.pot"), encoding: .utf8))
        #expect(extracted == template, "run `make po`: new \(extracted.subtracting(template).sorted()), gone \(template.subtracting(extracted).sorted())")
        let languages = try Self.lines("po/LINGUAS")
        #expect(Set(languages) == ["ja", "ko"])
        for language in languages {
            let po = try String(contentsOf: Self.root.appendingPathComponent("po/\(language).po"), encoding: .utf8)
            #expect(Self.messages(in: po) == extracted, "po/\(language).po: run `make po` and translate")
            let check = try Self.run("/usr/bin/msgfmt", ["-c", "--statistics", "-o", "/dev/null", "po/\(language).po"])
            #expect(check.status == 0, "\(check.output)")
            #expect(!check.output.contains("untranslated") && !check.output.contains("fuzzy"), "po/\(language).po: \(check.output)")
        }
    }
}
