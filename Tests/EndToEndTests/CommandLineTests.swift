import Foundation
import Testing
import TestHarness

/// `ime-composer`'s command line: every parse or validation error is a clear message on
/// stderr and exit status 2 (not the parser's default 64), before any window opens.
@Suite struct CommandLineTests {
    /// Runs the app with a private HOME and XDG directories (its default profile is under
    /// them, never the real user's) and no display: these must fail before GTK is touched.
    func run(_ arguments: [String]) throws -> CommandResult {
        let session = try TestSession(name: "cli")
        defer { session.stop() }
        return try session.run(try ComposerBinary.path, arguments, timeout: .seconds(30))
    }

    @Test(arguments: [
        (["--caret", "9", "--text", "abc"], "--caret 9"),
        (["--text", "e\u{301}", "--caret", "1"], "splits the grapheme"),
        (["--caret", "x"], "--caret"),
        (["--no-such-option"], "--no-such-option"),
        (["--trace"], "--trace"),
        (["--text-file", "/nonexistent-dir/draft.txt"], "--text-file /nonexistent-dir/draft.txt: cannot read"),
        (["--text-file", "/proc/self/exe"], "not UTF-8"),
        (["--text", "a", "--text-file", "/etc/hostname"], "one or the other"),
        (["--input-hints", "no-emoji,secret"], "--input-hints unknown input hint \"secret\"; the hints are spellcheck"),
        (["--surrounding", "maybe"], "--surrounding"),
        (["--input-purpose", "passphrase"], "--input-purpose"),
    ])
    func badArgumentsExitTwoWithAClearMessage(arguments: [String], mentions: String) throws {
        let outcome = try run(arguments)
        #expect(outcome.status == 2, "status \(outcome.status) for \(arguments); stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains(mentions), "stderr should mention \(mentions): \(outcome.stderr)")
    }

    @Test func helpExitsZeroAndNamesTheOptions() throws {
        let overview = try run(["--help"])
        #expect(overview.status == 0)
        #expect(overview.stdout.contains("run (default)"), "\(overview.stdout)")
        let outcome = try run(["run", "--help"])
        #expect(outcome.status == 0)
        for option in ["--text", "--text-file", "--caret", "--trace", "--profile", "--data", "--surrounding",
                       "--input-purpose", "--input-hints"] {
            #expect(outcome.stdout.contains(option), "help lacks \(option): \(outcome.stdout)")
        }
    }

    @Test func anUnwritableTraceIsAClearErrorNamingThePath() throws {
        let outcome = try run(["--trace", "/nonexistent-dir/trace.jsonl"])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("/nonexistent-dir/trace.jsonl"), "\(outcome.stderr)")
    }

    // MARK: replay

    static let seed004 = Transcripts.directory.appendingPathComponent("ibus-anthy-seed-004-hard-limit.jsonl").path

    @Test func replayPrintsTheSameTraceEveryTimeAndChecksItAgainstTheRecording() throws {
        let first = try run(["replay", "--check", Self.seed004])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix(#"{"ev":"start","#))
        #expect(first.stdout.contains(#""ev":"limit","#))
        #expect(try run(["replay", Self.seed004]).stdout == first.stdout, "byte-identical")
        let soft = try run(["replay", "--check", "--limit-mode", "soft", Self.seed004])
        #expect(soft.status == 1, "other settings decide otherwise: \(soft.stderr)")
        #expect(soft.stderr.contains("differs from the recording at line"), "\(soft.stderr)")
        #expect(!soft.stdout.contains(#""ev":"limit","#) && soft.stdout.contains(#""limit_mode":"soft""#))
    }

    /// A transcript as 2026-11-23's build wrote its start line (no limit, limit_mode, unit or
    /// data): replayed with what that build used, or with the flags, and stderr says which.
    @Test func anOlderStartLineIsReplayedWithAssumedOrGivenSettingsAndSaysWhich() throws {
        let session = try TestSession(name: "cli-replay-older")
        defer { session.stop() }
        let file = session.directory.appendingPathComponent("older.jsonl")
        var lines = try String(contentsOfFile: Self.seed004, encoding: .utf8).split(separator: "\n").map(String.init)
        let start = try #require(lines[0].range(of: #","limit":10,"limit_mode":"hard","unit":"graphemes","data":"[^"]*""#,
                                                options: .regularExpression), "\(lines[0])")
        lines[0].removeSubrange(start)
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)

        let assumed = try run(["replay", file.path])
        #expect(assumed.status == 0, "\(assumed.stderr)")
        let note = "ime-composer: \(file.path): the start line has no limit, limit_mode, unit, data (an older recording); "
        #expect(assumed.stderr.hasPrefix(note + "assumed 200, soft, graphemes and the default data directory "), "\(assumed.stderr)")
        #expect(assumed.stderr.hasSuffix(" (what that build used)\n") && assumed.stderr.split(separator: "\n").count == 1,
                "one line: \(assumed.stderr)")
        #expect(assumed.stdout.hasPrefix(#"{"ev":"start","t":213,"v":1,"backend":"x11","im_module":"ibus","limit":200,"limit_mode":"soft","unit":"graphemes","data":""#),
                "\(assumed.stdout.prefix(300))")
        #expect(!assumed.stdout.contains(#""ev":"limit","#), "soft: nothing is cut")

        // The recording's own settings given as flags: it decides exactly what was recorded.
        let given = try run(["replay", "--check", "--limit", "10", "--limit-mode", "hard", "--count", "graphemes",
                             "--data", Self.data, file.path])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stderr == note + "took --limit 10, --limit-mode hard, --count graphemes, --data \(Self.data) from the command line\n")
        #expect(given.stdout.contains(#""ev":"limit","#))
    }

    static let data = ComposerBinary.packageRoot.appendingPathComponent("data").path

    /// A session as 2026-11-23's build wrote it, kept in Tests/Transcripts: `--check` finds
    /// the recorded decisions, and stderr says what was assumed and inferred.
    @Test func aTranscriptAsThatBuildWroteItReplaysToItsDecisions() throws {
        let file = Transcripts.directory.appendingPathComponent("v1-2026-11-23-completion-ibus-anthy-kana-mention.jsonl").path
        let outcome = try run(["replay", "--check", "--data", Self.data, file])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").map(String.init) == [
            "ime-composer: \(file): the start line has no limit, limit_mode, unit, data (an older recording); took --data "
                + "\(Self.data) from the command line; assumed 200, soft, graphemes (what that build used)",
            "ime-composer: \(file): no line says when input settled (an older recording): the replay settles before the lines "
                + "a settle writes (limit, overflow, completion, text, the composer's own edits); clicks, caret moves and "
                + "buttons were not recorded then and are not replayed",
            "ime-composer: \(file): no line says when people, channels and emoji arrived (an older recording): the replay "
                + "takes them as arrived when the window was ready",
        ])
        #expect(outcome.stdout.contains(#""ev":"accept","t":"#) && outcome.stdout.contains(#""text":"@tanaka ""#))
    }

    @Test func aMalformedTranscriptIsFileLineReasonAndStatusTwo() throws {
        let session = try TestSession(name: "cli-replay")
        defer { session.stop() }
        let file = session.directory.appendingPathComponent("broken.jsonl")
        let start = try String(contentsOfFile: Self.seed004, encoding: .utf8).split(separator: "\n")[0]
        try (start + "\n{\"ev\":\"commit\",\"t\":1}\n").write(to: file, atomically: true, encoding: .utf8)
        let outcome = try run(["replay", file.path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "ime-composer: \(file.path):2: missing field \"text\"\n")
        #expect(outcome.stdout.isEmpty)
        let missing = try run(["replay", "/nonexistent/t.jsonl"])
        #expect(missing.status == 2 && missing.stderr == "ime-composer: /nonexistent/t.jsonl: no such file\n")
        #expect(try run(["replay", "--limit", "-1", Self.seed004]).status == 2)
    }
}
