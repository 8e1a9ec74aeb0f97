import Foundation
import TestHarness
import Testing

/// The apps the lab drives besides the composer are data (`data/lab/peers/APP.json`): every
/// file reads, every scenario either runs or says why it does not apply, a wrong file is
/// refused naming the file and the problem, and the report shows each cell.
struct PeerFileTests {
    @Test func everyAppFileReadsAndAccountsForEveryScenario() throws {
        let apps = try PeerApp.load()
        #expect(apps.map(\.app) == ["dino", "gnome-text-editor", "polari"])
        for app in apps {
            let runs = Set(app.scenarios)
            let explained = Set(app.notApplicable.keys.compactMap(MatrixScenario.init(rawValue:)))
            #expect(runs.union(explained) == Set(MatrixScenario.allCases), "\(app.app): every scenario runs or says why not")
            #expect(runs.isDisjoint(with: explained))
            #expect(!app.notes.isEmpty)
        }
        let editor = try #require(apps.first { $0.app == "gnome-text-editor" })
        #expect(editor.enter == .newline && editor.server == nil && editor.accessible.log == nil)
        #expect(editor.knownFailure(engine: "ibus-hangul", scenario: .click)?.contains("ibus/ibus#1980") == true)
        #expect(editor.knownFailure(engine: "gtk-simple", scenario: .click) == nil)
        let polari = try #require(apps.first { $0.app == "polari" })
        #expect(polari.enter == .sends && polari.server == .ngircd && polari.accessible.log?.decoration == "∶")
        #expect(polari.sends == nil && polari.readsMessagesExactly)
        let dino = try #require(apps.first { $0.app == "dino" })
        #expect(dino.server == .prosody && dino.knownFailure(engine: "ibus-anthy", scenario: .enter)?.contains("dino/dino#1419") == true)
        #expect(dino.sends == .server && dino.accessible.log == nil && dino.readsMessagesExactly)
    }

    @Test(arguments: [
        ("{", "gnome-text-editor.json: "),
        (#"{"app": "gedit", "title": "x", "package": "x", "command": ["x"], "accessible": {"input": {"role": "text", "name": ""}}, "enter": "sends", "not_applicable": {}, "notes": "x"}"#,
         "the file must be named gedit.json"),
        (#"{"app": "gnome-text-editor", "title": "x", "package": "x", "command": [], "accessible": {"input": {"role": "text", "name": ""}}, "enter": "sends", "not_applicable": {}, "notes": "x"}"#,
         "its command is empty"),
        (#"{"app": "gnome-text-editor", "title": "x", "package": "x", "command": ["x"], "accessible": {"input": {"role": "text", "name": ""}}, "enter": "sends", "not_applicable": {"typing-fast": "no"}, "notes": "x"}"#,
         "not_applicable names no scenario: typing-fast"),
        (#"{"app": "gnome-text-editor", "title": "x", "package": "x", "command": ["x"], "accessible": {"input": {"role": "text", "name": ""}}, "enter": "sends", "not_applicable": {}, "notes": "x"}"#,
         "the lab cannot run hard-limit-mid-composition, soft-limit-colouring, completion-after-commit against an app"),
        (#"{"app": "gnome-text-editor", "title": "x", "package": "x", "command": ["x"], "accessible": {"input": {"role": "text", "name": ""}}, "enter": "beeps", "not_applicable": {}, "notes": "x"}"#,
         "beeps"),
        (#"{"app": "gnome-text-editor", "title": "x", "package": "x", "command": ["x"], "accessible": {"input": {"role": "text", "name": ""}}, "enter": "sends", "not_applicable": {"hard-limit-mid-composition": "a", "soft-limit-colouring": "b", "completion-after-commit": "c"}, "known_failures": {"click-mid-composition": "x"}, "notes": "x"}"#,
         "known_failures key click-mid-composition is not ENGINE/SCENARIO"),
        (#"{"app": "gnome-text-editor", "title": "x", "package": "x", "command": ["x"], "accessible": {"input": {"role": "text", "name": ""}}, "enter": "sends", "sends": "server", "server": "ngircd", "not_applicable": {}, "notes": "x"}"#,
         #"sends "server" needs a server the lab has a receiver for (prosody)"#),
        (#"{"app": "gnome-text-editor", "title": "x", "package": "x", "command": ["x"], "accessible": {"input": {"role": "text", "name": ""}, "log": {"role": "text", "name": ""}}, "enter": "sends", "sends": "server", "server": "prosody", "not_applicable": {}, "notes": "x"}"#,
         #"sends "server" reads the sends at the server: drop accessible.log"#),
    ])
    func aWrongFileIsRefusedNamingFileAndProblem(_ text: String, _ expected: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("peers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("gnome-text-editor.json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let error = try #require(throws: HarnessError.self) { try PeerApp.load(from: directory) }
        #expect("\(error)".contains(file.path), "\(error)")
        #expect("\(error)".contains(expected), "\(error)")
    }

    @Test func anUnknownAppIsNamedWithTheAppsThereAre() throws {
        let error = try #require(throws: HarnessError.self) { try PeerApp.named("gedit") }
        #expect("\(error)" == "--app gedit: no such app; the lab knows dino, gnome-text-editor, polari")
    }

    /// AT-SPI's extents start at the window's content; a click goes to the X window. Dino's
    /// window on Xvfb (no compositor: Adwaita's 5 px solid-csd border, measured) is 911×389
    /// in X and 901×379 through AT-SPI; with a compositor GTK names its shadow, which may
    /// differ per side.
    @Test func aClickAddsTheWindowsBorderOrShadowToWhatAtSpiGives() {
        let border = PeerSession.contentOffset(windowSize: (911, 389), frameSize: [901, 379], frameExtents: nil)
        #expect(border.x == 5 && border.y == 5)
        let shadow = PeerSession.contentOffset(windowSize: (962, 441), frameSize: [911, 389], frameExtents: [26, 25, 23, 29])
        #expect(shadow.x == 26 && shadow.y == 23)
        let unknown = PeerSession.contentOffset(windowSize: (911, 389), frameSize: [], frameExtents: nil)
        #expect(unknown.x == 0 && unknown.y == 0, "no size from AT-SPI: the extents as they are")
        let larger = PeerSession.contentOffset(windowSize: (800, 600), frameSize: [900, 700], frameExtents: nil)
        #expect(larger.x == 0 && larger.y == 0, "never a negative offset")
    }

    /// BackSpace cannot be read back where an engine's Enter commits other text than it
    /// shows; the rest runs with every X11 engine. Where an app keeps the engine's commit
    /// key from it (Dino's Return with anthy), focus out and click cannot be judged.
    @Test func anEngineWhoseCompositionCannotBeReadBackSaysWhy() throws {
        let engines = try MatrixEngine.load()
        let editor = try PeerApp.named("gnome-text-editor"), dino = try PeerApp.named("dino")
        let simple = try #require(engines.first { $0.kind.slug == "gtk-simple" })
        #expect(PeerRun.notApplicable(.backSpace, engine: simple, app: editor)?.contains("ue9 → é") == true)
        let anthy = try #require(engines.first { $0.kind.slug == "ibus-anthy" })
        #expect(MatrixScenario.allCases.allSatisfy { PeerRun.notApplicable($0, engine: anthy, app: editor) == nil })
        let hindi = try #require(engines.first { $0.kind.slug == "ibus-m17n-hi-inscript" })
        #expect(PeerRun.notApplicable(.backSpace, engine: hindi, app: editor)?.contains("nothing is left to read") == true)
        for scenario in [MatrixScenario.focusOut, .click] {
            #expect(PeerRun.notApplicable(scenario, engine: anthy, app: dino)?.contains("which Dino does not give ibus-anthy") == true)
        }
        // GTK's simple context keeps composing through focus out, confirmed with Return.
        #expect(PeerRun.notApplicable(.focusOut, engine: simple, app: dino)?.contains("confirming with Return") == true)
        #expect(PeerRun.notApplicable(.focusOut, engine: simple, app: editor) == nil)
        #expect(PeerRun.notApplicable(.click, engine: simple, app: dino) == nil)
        #expect(PeerRun.notApplicable(.composeCommit, engine: anthy, app: dino) == nil)
    }

    @Test func theReportShowsEachCellAndWhyWhatDidNotPass() throws {
        let editor = try PeerApp.named("gnome-text-editor")
        var row = PeerResult(app: "gnome-text-editor", engine: "ibus-anthy")
        row.transcript = "gnome-text-editor/ibus-anthy.jsonl"
        row.cells = [
            PeerCell(scenario: .composeCommit, verdict: .passed, reason: "i n u Return committed “いぬ”", seconds: 1),
            PeerCell(scenario: .enter, verdict: .failed, reason: "Enter while composing left “”", seconds: 1, firstLine: 41),
            PeerCell(scenario: .hardLimit, verdict: .notApplicable, reason: "an editor has no length limit", seconds: 0),
            PeerCell(scenario: .click, verdict: .knownFailure, reason: "a click resets (ibus/ibus#2334)", seconds: 1),
        ]
        let report = PeerMatrix.report([row], apps: [editor], versions: ["gnome-text-editor": "43.2-1"])
        #expect(report.contains("## GNOME Text Editor (`gnome-text-editor` 43.2-1)"))
        #expect(report.contains("| ibus-anthy | ✅ | ❌ | — |"), "\(report)")
        #expect(report.contains("- hard-limit-mid-composition: an editor has no length limit"))
        #expect(report.contains("- ❌ **ibus-anthy × enter-confirms-then-sends**: Enter while composing left “” (transcript `gnome-text-editor/ibus-anthy.jsonl`, from line 42)"), "\(report)")
        #expect(report.contains("- ⚠️ **ibus-anthy × click-mid-composition**: a click resets (ibus/ibus#2334)"))
        #expect(!row.passed && row.failures == ["gnome-text-editor × ibus-anthy enter-confirms-then-sends: Enter while composing left “”"])
    }
}
