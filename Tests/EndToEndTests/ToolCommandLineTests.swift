import Foundation
import Testing
import TestHarness

/// The command lines of the tools built next to `ime-composer` (the benchmarks `make bench`
/// runs, the demo `make run` runs): `--help` explains every option and exits 0; an unknown
/// flag or a bad value is a clear message naming it and exit status 2; and the flags the
/// Makefile passes still parse. Every case ends before anything is measured or started.
@Suite struct ToolCommandLineTests {
    /// Runs a tool built beside `ime-composer`, in a private session's environment.
    func run(_ tool: String, _ arguments: [String]) throws -> CommandResult {
        let session = try TestSession(name: "tools")
        defer { session.stop() }
        let path = URL(fileURLWithPath: try ComposerBinary.path).deletingLastPathComponent().appendingPathComponent(tool).path
        return try session.run(path, arguments, timeout: .seconds(30))
    }

    @Test(arguments: [
        ("app-benchmark", ["--markdown", "--raw", "--composer", "--tools", "--rounds", "--keys", "--startups",
                           "--idle-seconds", "--draft-bytes", "--paste-bytes", "--paste-rounds", "--renderer", "--only",
                           "--part", "--peer", "--peer-rounds"]),
        ("completion-benchmark", ["--data", "--people", "--runs", "--query", "--markdown", "--ours-only"]),
        ("keystroke-cpu", ["--markdown", "--sizes", "--profiles", "--data"]),
        ("composer-demo", ["<OUT_DIRECTORY>"]),
    ])
    func helpExitsZeroAndExplainsEveryOption(tool: String, options: [String]) throws {
        let outcome = try run(tool, ["--help"])
        #expect(outcome.status == 0, "\(tool): \(outcome.stderr)")
        #expect(outcome.stdout.contains("USAGE: \(tool)"), "\(tool): \(outcome.stdout)")
        let entries = Self.entries(ofHelp: outcome.stdout)
        for option in options {
            let entry = entries.first { $0.hasPrefix(option + " ") }
            #expect(entry.map { $0.split(separator: " ").count >= 5 } == true,
                    "\(tool) --help does not explain \(option): \(outcome.stdout)")
        }
        #expect(!outcome.stdout.contains("--child"), "the child's flags stay hidden: \(outcome.stdout)")
    }

    /// The ARGUMENTS and OPTIONS entries of a help screen, each with its explanation (the
    /// indented lines under it) joined into one line.
    static func entries(ofHelp help: String) -> [String] {
        var entries: [String] = []
        for line in help.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("  -") || line.hasPrefix("  <") {
                entries.append(text)
            } else if line.hasPrefix("      "), !entries.isEmpty {
                entries[entries.count - 1] += " " + text
            }
        }
        return entries
    }

    @Test(arguments: [
        ("app-benchmark", ["--no-such-flag"], "--no-such-flag"),
        ("app-benchmark", ["--rounds", "0"], "--rounds 0: a positive number"),
        ("app-benchmark", ["--paste-rounds", "0"], "--paste-rounds 0: a positive number"),
        ("app-benchmark", ["--part", "pastes"], "--part"),
        ("app-benchmark", ["--only", "both"], "--only"),
        ("app-benchmark", ["--peer-rounds", "0"], "--peer-rounds 0: a positive number"),
        ("app-benchmark", ["--part", "peers", "--peer", "kate"], "--peer kate: no such app"),
        ("completion-benchmark", ["--people", "many"], "--people"),
        ("completion-benchmark", ["--query"], "--query"),
        ("keystroke-cpu", ["--sizes", "1024,10"], "--sizes: byte counts of at least 64"),
        ("keystroke-cpu", ["--child", "--bytes", "1024"], "--child needs"),
        ("composer-demo", ["--out"], "--out"),
    ])
    func badArgumentsExitTwoWithAClearMessage(tool: String, arguments: [String], mentions: String) throws {
        let outcome = try run(tool, arguments)
        #expect(outcome.status == 2, "\(tool) \(arguments): status \(outcome.status); stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains(mentions), "\(tool) \(arguments): stderr should mention \(mentions): \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "\(tool) \(arguments): \(outcome.stdout)")
    }

    /// The flags `make bench` passes parse: each tool gets as far as its first check of the
    /// files (a composer, people or data that do not exist) and stops there with status 1.
    @Test func theFlagsMakeBenchPassesParse() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tool-flags-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bench = directory.path

        let app = try run("app-benchmark", ["--markdown", bench + "/app.md", "--raw", bench + "/app-raw.json",
                                            "--tools", bench, "--composer", "/nonexistent/ime-composer",
                                            "--rounds", "2", "--keys", "20", "--renderer", "", "--only", "simple"])
        #expect(app.status == 1, "\(app.stderr)")
        #expect(app.stderr.contains("the composer /nonexistent/ime-composer does not exist"), "\(app.stderr)")

        let completion = try run("completion-benchmark", ["--markdown", bench + "/completion.md", "--data", "/nonexistent",
                                                          "--query", "tana", "--query", "tnk"])
        #expect(completion.status == 1, "\(completion.stderr)")
        #expect(completion.stderr.contains("no people in /nonexistent"), "\(completion.stderr)")

        let keystrokes = try run("keystroke-cpu", ["--markdown", bench + "/keystroke-cpu.md", "--data", "/nonexistent"])
        #expect(keystrokes.status == 1, "\(keystrokes.stderr)")
        #expect(keystrokes.stderr.contains("no people.jsonl in /nonexistent") || keystrokes.stderr.contains("valgrind not found"),
                "\(keystrokes.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bench), "nothing written: \(bench)")
    }
}
