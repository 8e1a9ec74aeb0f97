import Foundation
import Testing
import TestHarness

/// `make bench`'s peers part (#38): another app's composer measured against ours, in the
/// app's own session, through the command `make bench` runs (`app-benchmark --part peers`).
/// No timing thresholds: only that both programs were measured, every key painted, and
/// the report and the raw samples say so.
@Suite(.serialized)
struct PeerBenchTests {
    /// Runs `app-benchmark --part peers` with `arguments`, writing its Markdown and raw
    /// JSON into the session's folder.
    static func bench(_ arguments: [String], in session: TestSession) throws -> (CommandResult, String, [String: Any]) {
        let composer = try ComposerBinary.path
        let tool = URL(fileURLWithPath: composer).deletingLastPathComponent().appendingPathComponent("app-benchmark").path
        let tools = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/paint-meter-test").path
        let markdown = session.directory.appendingPathComponent("app.md"), raw = session.directory.appendingPathComponent("raw.json")
        let result = try session.run(tool, ["--part", "peers", "--composer", composer, "--tools", tools,
                                            "--markdown", markdown.path, "--raw", raw.path] + arguments,
                                     timeout: .seconds(280))
        guard result.status == 0 else {
            session.markFailed()
            Issue.record("app-benchmark \(arguments) exited \(result.status)\n\(result.stderr.suffix(3000))")
            return (result, "", [:])
        }
        let text = try String(contentsOf: markdown, encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: raw)) as? [String: Any])
        return (result, text, object)
    }

    /// GNOME Text Editor and the composer beside it, GTK's simple IM: each program's keys
    /// all painted, with CPU, and the ratio row. (The editor's text was checked by the
    /// command itself: it fails when the input does not hold the letters typed.)
    @Test(.timeLimit(.minutes(5)))
    func measuresTheEditorBesideTheComposer() throws {
        let session = try TestSession(name: "peer-bench")
        defer { session.stop() }
        let (result, markdown, raw) = try Self.bench(["--peer", "gnome-text-editor", "--only", "simple",
                                                      "--peer-rounds", "2", "--keys", "6"], in: session)
        guard result.status == 0 else { return }
        let peers = try #require(raw["peers"] as? [[String: Any]])
        #expect(peers.count == 1, "\(peers)")
        let editor = try #require(peers.first)
        #expect(editor["app"] as? String == "gnome-text-editor" && editor["input_method"] as? String == "gtkSimple", "\(editor)")
        let programs = try #require(editor["programs"] as? [String: [String: [Double]]], "\(editor)")
        for program in ["peer", "composer"] {
            let latencies = programs[program]?["latency_us"] ?? []
            #expect(latencies.count == 12 && latencies.allSatisfy { $0 > 0 }, "\(program): \(latencies)")
            let cpu = programs[program]?["cpu_ns_per_key_by_round"] ?? []
            #expect(cpu.count == 2 && cpu.allSatisfy { $0 > 0 }, "\(program): \(cpu)")
        }
        #expect(markdown.contains("| GNOME Text Editor | GTK simple IM | GNOME Text Editor | 12 |"), "\(markdown)")
        #expect(markdown.contains("| GNOME Text Editor | GTK simple IM | composer | 12 |"), "\(markdown)")
        let ratio = try Regex(#"\| GNOME Text Editor \| GTK simple IM \| \d+\.\d\d× \| \d+\.\d\d× \| \d+\.\d\d× \|"#)
        #expect(markdown.contains(ratio), "\(markdown)")
    }

    /// Dino 0.4.2 takes Return before the input method (dino/dino#1419), and the anthy
    /// workload commits with Return: the case is reported as not measured, with the reason
    /// from Dino's file, and no session is started for it.
    @Test(.timeLimit(.minutes(3)))
    func anAppThatTakesReturnBeforeTheInputMethodIsNotMeasuredWithAnthy() throws {
        let session = try TestSession(name: "peer-bench-dino")
        defer { session.stop() }
        let (result, markdown, raw) = try Self.bench(["--peer", "dino", "--only", "anthy"], in: session)
        guard result.status == 0 else { return }
        let dino = try #require((raw["peers"] as? [[String: Any]])?.first)
        let reason = try #require(dino["not_measured"] as? String, "\(dino)")
        #expect(reason.contains("Return") && reason.contains("dino/dino#1419"), "\(reason)")
        #expect((dino["programs"] as? [String: Any])?.isEmpty == true, "\(dino)")
        #expect(markdown.contains("| Dino | ibus-anthy | — |") && markdown.contains("not measured: "), "\(markdown)")
        #expect(!result.stderr.contains("its session"), "\(result.stderr)")
    }
}
