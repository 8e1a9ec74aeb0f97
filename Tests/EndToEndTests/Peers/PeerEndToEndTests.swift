import Foundation
import Testing
import TestHarness

/// `ime-composer matrix --app`: apps we did not write, driven through the matrix's
/// scenarios with real engines and read through AT-SPI, or at their server (#38). Focus out
/// and a click mid-composition wait until the input method has answered each key of the
/// composition, read from its bus (`KeyAnswers`): without, they raced the engine's answers
/// to the keys just before them.
@Suite(.serialized)
struct PeerEndToEndTests {
    static let scenarios: [MatrixScenario] = [.composeCommit, .enter, .backSpace]
    static let focusAndClick: [MatrixScenario] = [.focusOut, .click]

    static func engine(_ slug: String) throws -> MatrixEngine {
        try #require(try MatrixEngine.load().first { $0.kind.slug == slug }, "no engine \(slug)")
    }

    static func run(_ app: String, _ slug: String, scenarios: [MatrixScenario] = scenarios,
                    transcripts: URL? = nil) throws -> PeerResult {
        let app = try PeerApp.named(app)
        var matrix = PeerMatrix(transcripts: transcripts)
        matrix.scenarios = scenarios
        let result = matrix.run(app, engine: try engine(slug))
        #expect(result.passed, "\(result.failures)")
        return result
    }

    /// Focus out keeps what the engine's file says (the composer's account), and a click
    /// loses the composition with every daemon engine (the app's file: a known failure).
    static func expectFocusAndClick(_ result: PeerResult, _ slug: String) {
        let focus = result.cells.first { $0.scenario == .focusOut }, click = result.cells.first { $0.scenario == .click }
        #expect(focus?.verdict == .passed, "\(String(describing: focus))")
        #expect(click?.verdict == (slug == "gtk-simple" ? .passed : .knownFailure), "\(String(describing: click))")
    }

    /// An editor: Enter while composing only commits (or the engine passes it on after its
    /// commit: a new line after the whole text), BackSpace leaves the rest composing.
    @Test(.timeLimit(.minutes(5)), arguments: PeerMatrix.defaultEngines)
    func gnomeTextEditor(engine slug: String) throws {
        let result = try Self.run("gnome-text-editor", slug, scenarios: Self.scenarios + Self.focusAndClick)
        let verdicts = result.cells.filter { Self.scenarios.contains($0.scenario) }.map(\.verdict)
        #expect(verdicts.filter { $0 == .passed }.count == (slug == "gtk-simple" ? 2 : 3), "\(result.cells)")
        // (Whether ibus-hangul's passed-on Enter shows before its commit is read depends on
        // timing: only the other engines' account is certain.)
        let enter = try #require(result.cells.first { $0.scenario == .enter })
        if !slug.hasSuffix("hangul") {
            #expect(enter.reason.contains("started no line"), "\(enter.reason)")
        }
        Self.expectFocusAndClick(result, slug)
    }

    /// A chat app against its IRC server: the message sent is the whole committed text,
    /// and Enter confirming a conversion sends nothing. The Hangul engines run focus out
    /// and click only: they pass keys on after their commits, and in a burst of keys
    /// (BackSpace then Return) Polari once sent "ㅏ" for "하" — which run sees it depends on
    /// timing, not on the app alone.
    @Test(.timeLimit(.minutes(5)), arguments: PeerMatrix.defaultEngines)
    func polari(engine slug: String) throws {
        let hangul = slug.hasSuffix("hangul")
        let result = try Self.run("polari", slug, scenarios: (hangul ? [] : Self.scenarios) + Self.focusAndClick)
        if !hangul {
            let compose = try #require(result.cells.first { $0.scenario == .composeCommit })
            #expect(compose.verdict == .passed && compose.reason.contains("the next Enter sent it"), "\(compose.reason)")
            let enter = try #require(result.cells.first { $0.scenario == .enter })
            #expect(enter.reason.contains("sent nothing; the next Enter sent it"), "\(enter.reason)")
        }
        Self.expectFocusAndClick(result, slug)
    }

    /// A chat app whose sends are read at its server (Dino 0.4.2: GTK 4.8 does not announce
    /// its conversation's labels to AT-SPI), as the other end of the chat receives them.
    /// GTK's simple IM commits with space: Enter then sends exactly the text. ibus-anthy
    /// commits with Return, which Dino takes before the input method (dino/dino#1419): the
    /// cells fail as known, nothing is sent, and focus out and click cannot be judged. With
    /// GTK's simple context a click drops the composition, as in the composer: the other end
    /// receives é, then éé.
    @Test(.timeLimit(.minutes(5)), arguments: ["gtk-simple", "ibus-anthy"])
    func dino(engine slug: String) throws {
        let folder = try MatrixCommandEndToEndTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Self.run("dino", slug, scenarios: Self.scenarios + [.click], transcripts: folder)
        let cells = Dictionary(uniqueKeysWithValues: result.cells.map { ($0.scenario, $0) })
        #expect(cells[.enter]?.verdict == .knownFailure, "\(result.cells)")
        #expect(cells[.enter]?.reason.contains("dino/dino#1419") == true && cells[.enter]?.reason.contains("nothing was sent") == true,
                "\(String(describing: cells[.enter]))")
        if slug == "gtk-simple" {
            #expect(cells[.composeCommit]?.verdict == .passed, "\(result.cells)")
            #expect(cells[.composeCommit]?.reason.contains("committed “é”, the next Enter sent it") == true,
                    "\(String(describing: cells[.composeCommit]))")
            #expect(cells[.click]?.verdict == .passed && cells[.click]?.reason.contains("dropped it") == true,
                    "\(String(describing: cells[.click]))")
        } else {
            #expect(cells[.composeCommit]?.verdict == .knownFailure && cells[.backSpace]?.verdict == .knownFailure, "\(result.cells)")
            #expect(cells[.click]?.verdict == .notApplicable, "\(String(describing: cells[.click]))")
        }
        let transcript = try String(contentsOf: folder.appendingPathComponent(try #require(result.transcript)), encoding: .utf8)
        #expect(transcript.contains(#""ev": "receiver", "ms""#), "the receiver logged in: \(transcript)")
        let sends = transcript.split(separator: "\n").filter { $0.contains(#""ev": "log""#) }
        #expect(sends.count == (slug == "gtk-simple" ? 2 : 0), "what the other end received: \(sends)")
        if slug == "gtk-simple" { #expect(sends.last?.contains(#""text": "é\néé""#) == true, "\(sends)") }
    }

    /// Dino with a Hangul engine: BackSpace then Return sends the syllable before the
    /// BackSpace (dino/dino#1419, known) and leaves the engine composing 하; the lab ends that
    /// composition before the next cell, so focus out then commits exactly 한, as in the
    /// composer (before, the next cell's first key committed the leftover: "하한"). A click
    /// reaches the input where AT-SPI's extents say plus the window's border (it missed by
    /// 5 px before) and loses the syllable, as in GNOME Text Editor (known).
    @Test(.timeLimit(.minutes(5)), arguments: ["ibus-hangul", "fcitx5-hangul"])
    func dinoHangul(engine slug: String) throws {
        let result = try Self.run("dino", slug, scenarios: [.backSpace] + Self.focusAndClick)
        let cells = Dictionary(uniqueKeysWithValues: result.cells.map { ($0.scenario, $0) })
        #expect(cells[.backSpace]?.verdict == .knownFailure, "\(result.cells)")
        #expect(cells[.focusOut]?.verdict == .passed && cells[.focusOut]?.reason.contains("focus out committed “한”") == true,
                "\(String(describing: cells[.focusOut]))")
        #expect(cells[.click]?.verdict == .knownFailure && cells[.click]?.reason.contains("lost “한”") == true,
                "\(String(describing: cells[.click]))")
    }

    /// The command: a report and a transcript per row, exit 0; an unknown app is a usage
    /// error naming the apps there are.
    @Test(.timeLimit(.minutes(4)))
    func theCommandWritesTheReportAndRefusesAnUnknownApp() throws {
        let folder = try MatrixCommandEndToEndTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (result, session) = try MatrixCommandEndToEndTests.matrix(
            ["--app", "gnome-text-editor", "--engine", "gtk-simple", "--scenario", "compose-commit", "--out", "lab"], in: folder)
        defer { session.stop() }
        #expect(result.status == 0, "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        #expect(result.stdout.contains("gnome-text-editor × gtk-simple  1/1 passed"), "\(result.stdout)")
        let lab = folder.appendingPathComponent("lab")
        let report = try String(contentsOf: lab.appendingPathComponent("peers.md"), encoding: .utf8)
        #expect(report.contains("| gtk-simple | ✅ |"), "\(report)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: lab.appendingPathComponent("peers.json"))) as? [String: Any])
        let rows = try #require(json["results"] as? [[String: Any]])
        #expect(rows.count == 1 && rows.first?["transcript"] as? String == "gnome-text-editor/gtk-simple.jsonl")
        let transcript = try String(contentsOf: lab.appendingPathComponent("transcripts/peers/gnome-text-editor/gtk-simple.jsonl"), encoding: .utf8)
        #expect(transcript.contains(#""text": "é""#), "what the editor showed, line by line")

        let (unknown, other) = try MatrixCommandEndToEndTests.matrix(["--app", "gedit"], in: folder)
        defer { other.stop() }
        #expect(unknown.status == 2, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("--app gedit: no such app; the lab knows dino, gnome-text-editor, polari"), "\(unknown.stderr)")
    }
}
