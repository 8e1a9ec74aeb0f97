import ComposerCore
import Foundation
import Testing

/// The recorded sessions in Tests/Transcripts (real engines through the real window; see
/// `Transcripts` in the test harness), replayed on every `make test` without a display or
/// an input method: each replays to exactly the recorded decisions, the same bytes twice,
/// and the outcome written by hand beside it (`NAME.expected.json`).
@Suite("Recorded transcripts replay to their recorded and expected outcome")
struct TranscriptSuiteTests {
    static let directory = repositoryRoot().appendingPathComponent("Tests/Transcripts")
    static let data = ReplayData.load(from: repositoryRoot().appendingPathComponent("data").path)

    static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(".jsonl".count)) }.sorted()
    }

    static func transcript(_ name: String) throws -> Transcript {
        try Transcript(contentsOf: directory.appendingPathComponent(name + ".jsonl").path)
    }

    static func replay(_ name: String, _ change: (inout TranscriptSettings) -> Void = { _ in }) throws -> Replayer.Output {
        let transcript = try transcript(name)
        var settings = transcript.settings
        change(&settings)
        return try Replayer(transcript: transcript, settings: settings, data: data).run()
    }

    @Test func theSuiteHasTheRecordedEnginesAndEveryTranscriptItsExpectedOutcome() throws {
        let names = Self.names
        for engine in ["ibus-anthy", "ibus-hangul", "fcitx5-anthy", "fcitx5-hangul", "gtk-dead-keys", "gtk-hex-entry",
                       "ibus-scripted-delete-surrounding", "completion-", "seed-004", "segment-moves", "v1-2026-11-23-"] {
            #expect(names.contains { $0.contains(engine) }, "no transcript for \(engine)")
        }
        let expected = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".expected.json") }
        #expect(Set(expected.map { String($0.dropLast(".expected.json".count)) }) == Set(names),
                "every transcript has an expected outcome, and every expected outcome a transcript")
    }

    @Test(arguments: names)
    func replaysToTheRecordedDecisionsAndTheExpectedOutcome(name: String) throws {
        let transcript = try Self.transcript(name)
        let output = try Replayer(transcript: transcript, settings: transcript.settings, data: Self.data).run()
        #expect(output.warnings == [], "the data is the recording's")
        #expect(output.notes.isEmpty == transcript.unrecordedSettings.isEmpty, "only an older recording's replay infers: \(output.notes)")
        #expect(ReplayComparison.firstDifference(recorded: transcript, replayed: output) == nil)
        let again = try Replayer(transcript: try Self.transcript(name), settings: transcript.settings, data: Self.data).run()
        #expect(again.jsonLines == output.jsonLines, "byte-identical every time")
        let expectation = try Expectation(contentsOf: Self.directory.appendingPathComponent(name + ".expected.json"))
        expectation.check(output)
    }

    /// `v1-2026-11-23-NAME` is the recording NAME as that day's build wrote it: a start line
    /// of `v`, `backend` and `im_module`, none of the lines added since, keys without `shift`
    /// or `forwarded` (docs/trace.md, "Older recordings").
    @Test(arguments: names.filter { $0.hasPrefix("v1-2026-11-23-") })
    func anOlderFormHasOnlyWhatThatBuildWrote(name: String) throws {
        let older = try Self.transcript(name)
        #expect(older.unrecordedSettings == StartSetting.allCases)
        let added: Set<String> = ["settle", "selection", "command", "data", "diverged", "input-method-lost", "history"]
        #expect(!older.lines.contains { added.contains($0.event.name) })
        let lines = try String(contentsOf: Self.directory.appendingPathComponent(name + ".jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(lines.first?.objectMembers?.map(\.0) == ["ev", "t", "v", "backend", "im_module"])
        #expect(!lines.contains { $0["shift"] != nil || $0["forwarded"] != nil || $0["edits_last"] != nil || $0["length"] != nil })
    }

    // MARK: Other settings: what would have happened

    /// Two real recordings of the hard-limit sentence (しろくろの…がいる), one soft and one hard:
    /// each replayed with the other's mode decides what the other did.
    @Test func seed004SoftReplayedHardCutsAsTheHardRecordingDid() throws {
        let hard = try Self.replay("ibus-anthy-seed-004-soft-limit") { $0.limit.mode = .hard }
        #expect(Outcome(hard).limitCuts == ["にゃー"])
        #expect(Outcome(hard).finalText == "しろくろの小猫がいる")
        let recordedHard = try Self.replay("ibus-anthy-seed-004-hard-limit")
        #expect(Outcome(hard).finalText == Outcome(recordedHard).finalText)
    }

    @Test func seed004HardReplayedSoftKeepsTheSentenceAndColoursThreeOver() throws {
        let soft = Outcome(try Self.replay("ibus-anthy-seed-004-hard-limit") { $0.limit.mode = .soft })
        #expect(soft.limitCuts == [])
        #expect(soft.finalText == "しろくろの小猫にゃーがいる")
        #expect(soft.lastOverflow == 3)
        let roomy = Outcome(try Self.replay("ibus-anthy-seed-004-hard-limit") { $0.limit.limit = 20 })
        #expect(roomy.limitCuts == [] && roomy.finalText == "しろくろの小猫にゃーがいる" && roomy.lastOverflow == 0)
    }

    /// Counting scalars instead of graphemes, the caron is one more unit; but it joined the
    /// é before it, and a cut never splits a grapheme nor takes text typed before: it stays,
    /// coloured one over.
    @Test func aCombiningCaronOverAScalarLimitIsColouredNotCut() throws {
        let scalars = Outcome(try Self.replay("gtk-dead-keys-hard-limit") { $0.limit.unit = .scalars })
        #expect(scalars.limitCuts == ["é"])
        #expect(scalars.finalText.map { Array($0.unicodeScalars) } == Array("caf\u{E9}\u{30C}".unicodeScalars))
        #expect(scalars.lastOverflow == 1)
    }

    @Test func hangulWithRoomKeepsBothSyllables() throws {
        for name in ["ibus-hangul-hard-limit", "fcitx5-hangul-hard-limit"] {
            let roomy = Outcome(try Self.replay(name) { $0.limit.limit = 200 })
            #expect(roomy.finalText == "abc한글" && roomy.limitCuts == [], "\(name)")
        }
    }

    /// The recorded Trim has nothing to trim with a limit of 10, so all that was typed is sent.
    @Test func trimUnderARoomyLimitTrimsNothing() throws {
        let roomy = Outcome(try Self.replay("gtk-hex-entry-trim") { $0.limit.limit = 10 })
        #expect(roomy.sent == ["ab🐱cd"])
    }

    /// Without people the list never opens: the Return that accepted @tanaka sends what
    /// was typed instead.
    @Test func aMentionWithoutDataIsSentAsTyped() throws {
        let transcript = try Self.transcript("completion-ibus-anthy-kana-mention")
        let output = try Replayer(transcript: transcript, settings: transcript.settings, data: .empty).run()
        let outcome = Outcome(output)
        #expect(outcome.accepted == [])
        #expect(outcome.sent == ["＠たなか"])
        #expect(output.warnings.contains { $0.contains("0 people, recorded 1200") }, "\(output.warnings)")
    }
}

/// What a replay decided, read from its trace.
struct Outcome {
    var finalText: String?
    var sent: [String] = []
    var limitCuts: [String] = []
    var accepted: [String] = []
    var origins: Set<String> = []
    var commands: [String] = []
    var lastOverflow: Int?

    init(_ output: Replayer.Output) {
        for (_, event) in output.events {
            switch event {
            case .exit(let text, _, _, _): finalText = text
            case .send(let text, _): sent.append(text)
            case .limit(let removed, _): limitCuts.append(removed)
            case .accept(_, let text): accepted.append(text)
            case .edit(let edit): origins.insert(edit.origin.rawValue)
            case .command(let command): commands.append(command.name)
            case .overflow(_, _, let over, _): lastOverflow = over
            default: break
            }
        }
    }
}

/// `NAME.expected.json`, written by hand: what the session must come to. `text` (at exit)
/// and `sent` always; `limit` and `accepted` are exact lists (none when absent); `origins`
/// and `commands` must appear; `overflow` is the last overflow count.
struct Expectation {
    let json: JSONValue

    init(contentsOf url: URL) throws {
        json = try JSONValue.parse(try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func strings(_ name: String) -> [String]? { json[name]?.arrayValue?.compactMap(\.stringValue) }

    func check(_ output: Replayer.Output) {
        let outcome = Outcome(output)
        #expect(json["about"]?.stringValue?.isEmpty == false, "say what the session is")
        #expect(outcome.finalText.map { Array($0.unicodeScalars) } == json["text"]?.stringValue.map { Array($0.unicodeScalars) },
                "the text at exit")
        #expect(outcome.sent == strings("sent"), "the messages sent")
        #expect(outcome.limitCuts == (strings("limit") ?? []), "the limit's cuts")
        #expect(outcome.accepted == (strings("accepted") ?? []), "the accepted completions")
        for origin in strings("origins") ?? [] { #expect(outcome.origins.contains(origin), "an edit from \(origin)") }
        for command in strings("commands") ?? [] { #expect(outcome.commands.contains(command), "the command \(command)") }
        if let over = json["overflow"]?.intValue { #expect(outcome.lastOverflow == over, "the overflow") }
    }
}
