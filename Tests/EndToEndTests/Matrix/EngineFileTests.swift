import Foundation
import TestHarness
import Testing

/// The engine expectations are data (`data/lab/engines/SLUG.json`): every file reads, the
/// matrix has its rows, and a file that says something wrong is refused naming the file
/// and what is wrong.
struct EngineFileTests {
    @Test func everyEngineFileReadsAndTheMatrixHasItsRows() throws {
        let engines = try MatrixEngine.load()
        #expect(engines.count == InputMethodKind.allCases.count, "a file for every engine the lab drives")
        #expect(engines.filter { $0.backend == .x11 }.count == 16)
        #expect(engines.map(\.kind.slug) == InputMethodKind.allCases.map(\.slug), "in the matrix's order")
        #expect(WaylandEngine.all.map(\.description) == ["wayland-fcitx5-anthy", "wayland-fcitx5-hangul",
                                                          "kde-fcitx5-anthy", "kde-fcitx5-hangul", "kde-fcitx5-pinyin",
                                                          "gnome-ibus-anthy", "gnome-ibus-hangul", "gnome-ibus-libpinyin"])
        #expect(WaylandEngine.all.map(\.desktop) == [.sway, .sway, .kde, .kde, .kde, .gnome, .gnome, .gnome],
                "kde-… rows run on KWin, gnome-… rows on GNOME Shell")
        #expect(engines.filter { $0.backend == .gnome }.map(\.kind.probe?.key) == ["a", "r", "n"], "IBus's focus is proven by a probe")
        #expect(engines.filter { $0.backend == .kde }.map(\.kind.imModule) == ["wayland", "wayland", "wayland"])
        #expect(engines.filter { $0.backend == .kde }.allSatisfy {
            $0.wayland?.intermittentFailures?["focus-out-mid-composition"]?.contains("fcitx/fcitx5#1592") == true
        }, "KWin's lost keyboard grab after re-activation, written down where it happens")
        let anthy = try #require(engines.first { $0.kind == .ibusAnthy })
        #expect(anthy.compose == ["i", "n", "u"] && anthy.focusOut == .drops && anthy.click == .commits("いぬ"))
        let fcitx = try #require(engines.first { $0.kind == .fcitxAnthy })
        #expect(fcitx.click == .commitsWhereClicked("いぬ"))
        let hindi = try #require(engines.first { $0.kind == .ibusHiInscript })
        #expect(hindi.hardLimitFiller == "ab" && hindi.committed.unicodeScalars.count == 3 && hindi.committed.count == 1)
        #expect(engines.allSatisfy { !$0.notes.isEmpty }, "each file says why its engine behaves so")
    }

    @Test(arguments: [
        (#"{"engine": "ibus-klingon"}"#, "\"ibus-klingon\" is none of the lab's engines"),
        (#"{"engine": "ibus-klingon", "framework": "scim", "engine_name": "klingon", "probe": {"key": "a", "preedit": "", "cancel": "Escape"}}"#,
         "\"scim\": the framework of an engine file is ibus or fcitx5"),
        (#"{"engine": "ibus-anthy", "package": "ibus-anthy", "compose": ["i"]}"#, "missing \"showing\""),
        (#"{"engine": "ibus-anthy", "package": "ibus-anthy", "compose": [], "showing": "い", "commit_keys": ["Return"], "committed": "い", "enter_commits": "い", "after_backspace": "", "word_keys": ["i"], "word": "い", "focus_out": "drops", "click": "drops"}"#,
         "compose is empty"),
        (#"{"engine": "ibus-anthy", "package": "ibus-anthy", "compose": ["i"], "showing": "い", "commit_keys": ["Return"], "committed": "い", "enter_commits": "い", "after_backspace": "", "word_keys": ["i"], "word": "い", "focus_out": "vanishes", "click": "drops"}"#,
         "\"vanishes\": an ending is \"drops\""),
        (#"{"engine": "ibus-anthy", "package": "ibus-anthy", "compose": ["i"], "showing": "い", "commit_keys": ["Return"], "committed": "い", "enter_commits": "い", "after_backspace": "", "word_keys": ["i"], "word": "い", "focus_out": {"commits": "い", "keeps": "い"}, "click": "drops"}"#,
         "exactly one of commits"),
        ("{", "ibus-anthy.json: "),
    ])
    func aWrongFileIsRefusedNamingFileAndProblem(_ text: String, _ expected: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("engines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("ibus-anthy.json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let error = try #require(throws: HarnessError.self) { try MatrixEngine.load(from: directory) }
        #expect("\(error)".contains(file.path), "\(error)")
        #expect("\(error)".contains(expected), "\(error)")
    }

    @Test func aFileNamedForAnotherEngineIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("engines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = MatrixEngine.directory.appendingPathComponent("ibus-anthy.json")
        try FileManager.default.copyItem(at: source, to: directory.appendingPathComponent("ibus-hangul.json"))
        let error = try #require(throws: HarnessError.self) { try MatrixEngine.load(from: directory) }
        #expect("\(error)".contains("name it ibus-anthy.json"), "\(error)")
    }

    /// Adding an engine needs no Swift: a file for an engine the lab has no Swift for says
    /// its framework, its engine name and its probe.
    @Test func anEngineFileCanDescribeAnEngineTheLabHasNoSwiftFor() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("engines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"""
            {"engine": "ibus-m17n-hi-itrans", "framework": "ibus", "engine_name": "m17n:hi:itrans",
             "probe": {"key": "k", "preedit": "क", "cancel": "Escape"}, "package": "ibus-m17n",
             "notes": "Hindi ITRANS: k a composes क.", "compose": ["k", "a"], "showing": "क", "commit_keys": ["Return"],
             "committed": "क", "enter_commits": "क", "after_backspace": "", "word_keys": ["k", "a", "Return"], "word": "क",
             "focus_out": "drops", "click": "drops"}
            """#.write(to: directory.appendingPathComponent("ibus-m17n-hi-itrans.json"), atomically: true, encoding: .utf8)
        let engine = try #require(try MatrixEngine.load(from: directory).first)
        #expect(engine.kind.slug == "ibus-m17n-hi-itrans" && engine.kind.framework == .ibus)
        #expect(engine.kind.ibusEngine == "m17n:hi:itrans" && engine.kind.probe?.preedit == "क")
        #expect(engine.kind.ibusComponent == (FileManager.default.fileExists(atPath: "/usr/share/m17n/hi-itrans.mim") ? "m17n" : nil))
        #expect(engine.invariantKeys == nil, "judged by its expectations")
    }
}
