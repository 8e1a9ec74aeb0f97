import ComposerCore
import Foundation
import TestHarness
import Testing

/// The invariants an engine without expectations is judged by (`MatrixInvariants`), on
/// traces written as the app writes them. The first is ibus-m17n `hi-itrans` answering
/// Return (recorded): it hides its preedit, shows it again, hides it and then commits it.
struct MatrixInvariantsTests {
    static func lines(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    static let itransReturn = """
        {"ev":"key","t":6333,"keyval":"a"}
        {"ev":"preedit","t":6345,"text":"","cursor":0,"segments":[]}
        {"ev":"preedit-end","t":6345}
        {"ev":"preedit-start","t":6345}
        {"ev":"preedit","t":6345,"text":"न्","cursor":2,"segments":[]}
        {"ev":"preedit","t":6345,"text":"न","cursor":1,"segments":[]}
        {"ev":"key","t":6404,"keyval":"Return","consumed":false}
        {"ev":"preedit","t":6404,"text":"","cursor":0,"segments":[]}
        {"ev":"preedit-end","t":6404}
        {"ev":"preedit-start","t":6404}
        {"ev":"preedit","t":6404,"text":"न","cursor":1,"segments":[]}
        {"ev":"preedit","t":6404,"text":"","cursor":0,"segments":[]}
        {"ev":"preedit-end","t":6404}
        {"ev":"commit","t":6404,"text":"न"}
        {"ev":"edit","t":6404,"origin":"im-commit","at":2,"removed":"","inserted":"न"}
        {"ev":"settle","t":6405}
        {"ev":"key","t":6443,"keyval":"Return","consumed":false}
        {"ev":"send","t":6443,"text":"ककन"}
        """

    @Test func anEngineThatHidesItsPreeditBeforeCommittingKeepsEveryInvariant() throws {
        #expect(MatrixInvariants.violations(in: try Self.lines(Self.itransReturn)).isEmpty)
    }

    /// The hard-limit cell's "nothing cut while composing", read from the trace as the lab
    /// reads it. GNOME's ibus-hangul commits 글 on Space and then the Space itself as a
    /// commit; a settle between them cuts 글 with nothing composing (recorded): no
    /// complaint. The same cut while 글 still showed is one.
    @Test func cutsAreJudgedByWhetherACompositionShowedThen() throws {
        func cuts(_ text: String) throws -> [String] {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("cuts-\(UUID().uuidString).jsonl")
            defer { try? FileManager.default.removeItem(at: url) }
            try (text + "\n").write(to: url, atomically: true, encoding: .utf8)
            return TraceLog(url: url).entries.cutsWhileComposing.compactMap { $0.value["removed"]?.stringValue }
        }
        let composing = """
            {"ev":"preedit-start","t":3324}
            {"ev":"preedit","t":3612,"text":"글","cursor":1,"segments":[[0,1,["underline"]]]}
            """
        #expect(try cuts(composing + """

            {"ev":"commit","t":3679,"text":"글"}
            {"ev":"edit","t":3679,"origin":"im-commit","at":3,"removed":"","inserted":"글"}
            {"ev":"preedit","t":3680,"text":"","cursor":0,"segments":[]}
            {"ev":"preedit-end","t":3680}
            {"ev":"limit","t":3681,"removed":"글","at":3}
            {"ev":"key","t":3684,"keyval":"space","forwarded":true}
            {"ev":"commit","t":3684,"text":" "}
            {"ev":"limit","t":3686,"removed":" ","at":3}
            """).isEmpty)
        #expect(try cuts(composing + """

            {"ev":"limit","t":3613,"removed":"한","at":2}
            {"ev":"commit","t":3679,"text":"글"}
            """) == ["한"])
    }

    @Test func enterWhileComposingThatSendsIsCaught() throws {
        let problems = MatrixInvariants.violations(in: try Self.lines("""
            {"ev":"key","t":1,"keyval":"k"}
            {"ev":"preedit","t":2,"text":"か","cursor":1,"segments":[]}
            {"ev":"key","t":3,"keyval":"Return"}
            {"ev":"send","t":4,"text":""}
            """))
        #expect(problems.count == 1 && problems[0].hasPrefix("Enter while composing sent"), "\(problems)")
    }

    @Test func aCommitLostOrAppliedTwiceIsCaught() throws {
        let lost = MatrixInvariants.violations(in: try Self.lines("""
            {"ev":"key","t":1,"keyval":"space"}
            {"ev":"commit","t":2,"text":"犬"}
            """))
        #expect(lost == ["the engine committed “犬” but the text received nothing"])
        let twice = MatrixInvariants.violations(in: try Self.lines("""
            {"ev":"commit","t":2,"text":"犬"}
            {"ev":"edit","t":2,"origin":"im-commit","at":0,"removed":"","inserted":"犬"}
            {"ev":"edit","t":3,"origin":"im-commit","at":1,"removed":"","inserted":"犬"}
            """))
        #expect(twice == ["the engine committed “犬” but the text received “犬”, “犬”"])
    }

    @Test func aCompositionThatVanishesOnItsOwnIsCaught() throws {
        // Shown and settled; then hidden with no input since, and the input settles so.
        let problems = MatrixInvariants.violations(in: try Self.lines("""
            {"ev":"key","t":1,"keyval":"k"}
            {"ev":"preedit","t":2,"text":"か","cursor":1,"segments":[]}
            {"ev":"settle","t":10}
            {"ev":"preedit","t":900,"text":"","cursor":0,"segments":[]}
            {"ev":"preedit-end","t":900}
            {"ev":"settle","t":901}
            """))
        #expect(problems == ["the composition “か” vanished with nothing to explain it (no key, commit, focus change or click before line 6)"])
    }

    /// Answers that come after the next key (IBus is asynchronous): hidden and shown again
    /// while keys arrive, then committed.
    @Test func aCompositionThatFlickersWhileKeysArriveIsNoViolation() throws {
        let problems = MatrixInvariants.violations(in: try Self.lines("""
            {"ev":"key","t":1,"keyval":"t"}
            {"ev":"key","t":2,"keyval":"e"}
            {"ev":"preedit","t":3,"text":"","cursor":0,"segments":[]}
            {"ev":"preedit-end","t":3}
            {"ev":"preedit-start","t":3}
            {"ev":"preedit","t":3,"text":"स्त्","cursor":4,"segments":[]}
            {"ev":"preedit","t":20,"text":"","cursor":0,"segments":[]}
            {"ev":"preedit-end","t":20}
            {"ev":"preedit-start","t":20}
            {"ev":"preedit","t":20,"text":"स्ते","cursor":4,"segments":[]}
            {"ev":"settle","t":30}
            """))
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func aCutWhileComposingIsCaught() throws {
        let problems = MatrixInvariants.violations(in: try Self.lines("""
            {"ev":"key","t":1,"keyval":"k"}
            {"ev":"preedit","t":2,"text":"か","cursor":1,"segments":[]}
            {"ev":"limit","t":3,"removed":"c","at":2}
            """))
        #expect(problems == ["the hard limit cut “c” while “か” was composing (line 3)"])
    }
}
