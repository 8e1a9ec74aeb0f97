import ComposerCore
import Foundation
import Testing

/// Trace v1 files written before the start line carried the settings (2026-11-23's build wrote
/// `v`, `backend` and `im_module` only): they are read, each missing setting coming from the
/// command line or else from what that build used (200, soft, graphemes, the default data),
/// and the replay says which (issue #31, item 3).
@Suite("Older transcripts: a start line without the settings")
struct OlderTranscriptTests {
    static let olderStart = #"{"ev":"start","t":0,"v":1,"backend":"x11","im_module":"ibus"}"#
    static let exit = #"{"ev":"exit","t":9,"text":"","caret":0,"preedit":"","reason":"close"}"#

    static func transcript(_ lines: [String], name: String = "old.jsonl") throws -> Transcript {
        try Transcript(text: lines.joined(separator: "\n") + "\n", name: name)
    }

    /// A recorded transcript of Tests/Transcripts with its start line as that build wrote it.
    static func withOlderStartLine(_ name: String) throws -> (recorded: Transcript, older: Transcript) {
        let path = repositoryRoot().appendingPathComponent("Tests/Transcripts/\(name).jsonl").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        guard case .object(let members) = try JSONValue.parse(lines[0]) else { throw TranscriptProblem("not an object") }
        let dropped: Set<String> = ["limit", "limit_mode", "unit", "data", "osk_inset"]
        lines[0] = JSONValue.object(members.filter { !dropped.contains($0.0) }).serialized()
        #expect(lines[0].hasPrefix(#"{"ev":"start","t":"#) && lines[0].hasSuffix(#""v":1,"backend":"x11","im_module":"ibus"}"#),
                "\(lines[0])")
        return (try Transcript(contentsOf: path), try Transcript(text: lines.joined(separator: "\n") + "\n", name: name))
    }

    /// A recorded transcript as 2026-11-23's build would have written it (its encoder, 7f82c13):
    /// the start line without settings, no `settle`, `selection`, `command`, `data`,
    /// `diverged`, `input-method-lost` or `history` lines, keys without `shift` and `forwarded`.
    static func asWrittenOn20261123(_ name: String) throws -> String {
        let path = repositoryRoot().appendingPathComponent("Tests/Transcripts/\(name).jsonl").path
        let newer: Set<String> = ["settle", "selection", "command", "data", "diverged", "input-method-lost", "history"]
        var lines: [String] = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            guard case .object(let members) = try JSONValue.parse(String(line)) else { throw TranscriptProblem("not an object") }
            let event = members.first?.1.stringValue ?? ""
            if newer.contains(event) { continue }
            let dropped: Set<String> = event == "start" ? ["limit", "limit_mode", "unit", "data", "osk_inset"]
                : event == "key" ? ["shift", "forwarded"] : []
            lines.append(JSONValue.object(members.filter { !dropped.contains($0.0) }).serialized())
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aStartLineWithoutTheSettingsIsReadWithThatBuildsDefaults() throws {
        let transcript = try Self.transcript([Self.olderStart, Self.exit])
        #expect(transcript.unrecordedSettings == [.limit, .limitMode, .unit, .data])
        #expect(transcript.settings.limit == LengthLimit(limit: 200, mode: .soft, unit: .graphemes))
        #expect(transcript.settings.simulatedKeyboardInset == nil)
        #expect(transcript.backend == "x11" && transcript.imModule == "ibus")

        let chosen = ReplaySettings(transcript: transcript, flags: .init(), defaultDataDirectory: "/usr/share/ime-composer")
        #expect(chosen.settings.limit == LengthLimit(limit: 200, mode: .soft, unit: .graphemes))
        #expect(chosen.dataIsDefault && chosen.settings.dataDirectory == "/usr/share/ime-composer",
                "that build read the app's default data directory")
        #expect(chosen.note == "old.jsonl: the start line has no limit, limit_mode, unit, data (an older recording); "
                + "assumed 200, soft, graphemes and the default data directory /usr/share/ime-composer (what that build used)")
    }

    @Test func theFlagsGiveWhatTheStartLineLacksAndTheNoteSaysSo() throws {
        let transcript = try Self.transcript([Self.olderStart, Self.exit])
        let all = ReplaySettings(transcript: transcript, flags: .init(limit: 10, limitMode: .hard, count: .scalars, data: "/d"),
                                 defaultDataDirectory: "/usr/share/ime-composer")
        #expect(all.settings.limit == LengthLimit(limit: 10, mode: .hard, unit: .scalars))
        #expect(all.settings.dataDirectory == "/d" && !all.dataIsDefault)
        #expect(all.note == "old.jsonl: the start line has no limit, limit_mode, unit, data (an older recording); "
                + "took --limit 10, --limit-mode hard, --count scalars, --data /d from the command line")

        let some = ReplaySettings(transcript: transcript, flags: .init(limit: 10, count: .utf16), defaultDataDirectory: "/dd")
        #expect(some.settings.limit == LengthLimit(limit: 10, mode: .soft, unit: .utf16))
        #expect(some.note == "old.jsonl: the start line has no limit, limit_mode, unit, data (an older recording); "
                + "took --limit 10, --count utf16 from the command line; "
                + "assumed soft and the default data directory /dd (what that build used)")
    }

    /// Only what is missing is assumed or said; a start line with every setting gets no note.
    @Test func onlyTheMissingSettingsAreAssumed() throws {
        let partial = try Self.transcript([
            #"{"ev":"start","t":0,"v":1,"backend":"x11","im_module":"ibus","limit":7,"data":""}"#, Self.exit])
        #expect(partial.unrecordedSettings == [.limitMode, .unit])
        #expect(partial.settings.limit == LengthLimit(limit: 7, mode: .soft, unit: .graphemes))
        let chosen = ReplaySettings(transcript: partial, flags: .init(limitMode: .hard), defaultDataDirectory: "/dd")
        #expect(chosen.settings.limit == LengthLimit(limit: 7, mode: .hard, unit: .graphemes))
        #expect(!chosen.dataIsDefault, "the recording said: no data")
        #expect(chosen.note == "old.jsonl: the start line has no limit_mode, unit (an older recording); "
                + "took --limit-mode hard from the command line; assumed graphemes (what that build used)")

        let current = try Self.transcript([
            #"{"ev":"start","t":0,"v":1,"backend":"x11","im_module":"ibus","limit":7,"limit_mode":"hard","unit":"scalars","data":"/d"}"#,
            Self.exit])
        #expect(current.unrecordedSettings == [])
        let flagged = ReplaySettings(transcript: current, flags: .init(limit: 3), defaultDataDirectory: "/dd")
        #expect(flagged.note == nil && !flagged.dataIsDefault)
        #expect(flagged.settings == TranscriptSettings(limit: LengthLimit(limit: 3, mode: .hard, unit: .scalars), dataDirectory: "/d"))
    }

    /// A setting that is there must still be right: only an absent one is assumed.
    @Test(arguments: [
        (#","limit":"200""#, #"old.jsonl:1: "limit" must be an integer"#),
        (#","limit":-1"#, #"old.jsonl:1: "limit" must be 0 or more, not -1"#),
        (#","limit_mode":"firm""#, #"old.jsonl:1: "limit_mode" is "firm"; expected one of"#),
        (#","unit":"bytes""#, #"old.jsonl:1: "unit" is "bytes"; expected one of"#),
        (#","data":null"#, #"old.jsonl:1: "data" must be a string"#),
    ])
    func aSettingThatIsThereButWrongIsStillAnError(field: String, message: String) {
        let start = Self.olderStart.replacingOccurrences(of: "}", with: field + "}")
        #expect {
            _ = try Self.transcript([start, Self.exit])
        } throws: { error in
            (error as? TranscriptError)?.description.hasPrefix(message) == true
        }
    }

    /// The hard-limit sentence (しろくろの…がいる) recorded with a limit of 10: as that build wrote
    /// it, the replay assumes 200 and soft, so nothing is cut; given the recorded settings
    /// on the command line, it decides exactly what the recording did.
    @Test func theRecordingsOwnSettingsGivenAsFlagsReplayToItsDecisions() throws {
        let (recorded, older) = try Self.withOlderStartLine("ibus-anthy-seed-004-hard-limit")
        let dataPath = repositoryRoot().appendingPathComponent("data").path
        let data = ReplayData.load(from: dataPath)

        let assumed = ReplaySettings(transcript: older, flags: .init(), defaultDataDirectory: dataPath)
        let soft = try Replayer(transcript: older, settings: assumed.settings, data: data).run()
        #expect(Outcome(soft).limitCuts == [] && Outcome(soft).finalText == "しろくろの小猫にゃーがいる")

        let flags = ReplaySettings.Flags(limit: recorded.settings.limit.limit, limitMode: recorded.settings.limit.mode,
                                         count: recorded.settings.limit.unit)
        let given = ReplaySettings(transcript: older, flags: flags, defaultDataDirectory: dataPath)
        #expect(given.settings.limit == recorded.settings.limit)
        let hard = try Replayer(transcript: older, settings: given.settings, data: data).run()
        #expect(ReplayComparison.firstDifference(recorded: recorded, replayed: hard) == nil)
        #expect(Outcome(hard).limitCuts == ["にゃー"])
    }

    // MARK: An older recording's body

    /// Real sessions written as that build wrote them: no line said when input settled or
    /// when the data arrived. With the settles inferred from the lines they write and the
    /// data taken as arrived at `ready`, each replays to exactly the decisions it recorded
    /// (the hard limits with the recording's settings as flags, as its owner would give them).
    @Test(arguments: ["ibus-anthy-koneko-send", "ibus-hangul-hard-limit", "fcitx5-anthy-hard-limit",
                      "completion-ibus-anthy-kana-mention", "gtk-dead-keys-hard-limit"])
    func anOlderRecordingReplaysToTheDecisionsItRecorded(name: String) throws {
        let text = try Self.asWrittenOn20261123(name)
        #expect(!text.contains(#""ev":"settle""#) && !text.contains(#""ev":"data""#))
        let older = try Transcript(text: text, name: name)
        let recorded = try Transcript(contentsOf: repositoryRoot().appendingPathComponent("Tests/Transcripts/\(name).jsonl").path)
        let dataPath = repositoryRoot().appendingPathComponent("data").path
        let flags = ReplaySettings.Flags(limit: recorded.settings.limit.limit, limitMode: recorded.settings.limit.mode,
                                         count: recorded.settings.limit.unit)
        let chosen = ReplaySettings(transcript: older, flags: flags, defaultDataDirectory: dataPath)
        let output = try Replayer(transcript: older, settings: chosen.settings, data: ReplayData.load(from: dataPath)).run()
        #expect(ReplayComparison.firstDifference(recorded: older, replayed: output) == nil)
        #expect(output.warnings == [])
        #expect(output.notes == [
            "\(name): no line says when input settled (an older recording): the replay settles before the lines a settle "
                + "writes (limit, overflow, completion, text, the composer's own edits); clicks, caret moves and buttons were "
                + "not recorded then and are not replayed",
            "\(name): no line says when people, channels and emoji arrived (an older recording): the replay takes them as "
                + "arrived when the window was ready",
        ])
        let expectation = try Expectation(contentsOf: repositoryRoot().appendingPathComponent("Tests/Transcripts/\(name).expected.json"))
        expectation.check(output)
    }

    /// A newer recording always has its settles and data lines: none are made up for it, even
    /// when it has none (nothing settled), and its replay notes nothing.
    @Test func aNewerRecordingGetsNoInferredSettles() throws {
        let newer = try Self.transcript([
            #"{"ev":"start","t":0,"v":1,"backend":"x11","im_module":"ibus","limit":200,"limit_mode":"soft","unit":"graphemes","data":""}"#,
            #"{"ev":"text","t":1,"text":"","caret":0,"sel":[0,0]}"#, #"{"ev":"ready","t":2}"#, Self.exit])
        let output = try Replayer(transcript: newer, settings: newer.settings, data: .empty).run()
        #expect(output.notes == [])
        #expect(!output.events.contains { $0.t < 9 && ($0.event.name == "overflow" || $0.event.name == "text") },
                "no settle before the exit, so none of a settle's lines")
        let older = try Self.transcript([Self.olderStart, #"{"ev":"text","t":1,"text":"","caret":0,"sel":[0,0]}"#,
                                         #"{"ev":"ready","t":2}"#, Self.exit])
        let inferred = try Replayer(transcript: older, settings: older.settings, data: .empty).run()
        #expect(inferred.events.contains { $0.t == 1 && $0.event.name == "text" }, "the older one settles at its text line")
    }
}
