import Foundation
import TestHarness
import Testing

/// `ime-composer rerun` as a user runs it: the built command, started in a folder outside
/// the source tree, on a transcript recorded with ibus-anthy (こねこ, Space, Return,
/// Return: 子猫 sent), its output and exit status read back.
@Suite(.serialized)
struct RerunCommandEndToEndTests {
    static let recording = "ibus-anthy-koneko-send.jsonl"

    /// Runs `ime-composer rerun ARGUMENTS` in `directory`.
    static func rerun(_ arguments: [String], in directory: URL, environment: [String: String] = [:],
                      timeout: Duration = .seconds(120)) throws -> (CommandResult, TestSession) {
        try MatrixCommandEndToEndTests.command("rerun", arguments, in: directory, environment: environment, timeout: timeout)
    }

    /// A folder outside the source tree with a copy of the recording.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rerun-user-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Transcripts.directory.appendingPathComponent(recording),
                                         to: folder.appendingPathComponent(recording))
        return folder
    }

    @Test(.timeLimit(.minutes(3)))
    func theSameEngineAnswersAsRecorded() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The engine comes from the file's name (ibus-anthy-…).
        let (result, session) = try Self.rerun([Self.recording], in: folder)
        defer { session.stop() }
        #expect(result.status == 0, "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        #expect(result.stdout.contains("rerun: ibus-anthy answered as recorded in \(Self.recording): 11 keys"), "\(result.stdout)")
        let rerun = folder.appendingPathComponent("ibus-anthy-koneko-send.rerun.jsonl")
        let text = try String(contentsOf: rerun, encoding: .utf8)
        #expect(text.contains(#"{"ev":"send""#) && text.contains("子猫"), "the rerun sent 子猫 again: \(text.suffix(600))")
    }

    @Test(.timeLimit(.minutes(3)))
    func anotherEngineShowsHowItDiffers() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (result, session) = try Self.rerun([Self.recording, "--engine", "fcitx5-anthy", "--json"], in: folder)
        defer { session.stop() }
        #expect(result.status == 1, "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["engine"] as? String == "fcitx5-anthy" && object["same"] as? Bool == false, "\(object)")
        // The first difference, recorded vs now, each with its FILE:LINE.
        let difference = try #require(object["difference"] as? String)
        #expect(difference.contains("was ") && difference.contains(", now "), "\(difference)")
        #expect(difference.contains("\(Self.recording):") && difference.contains("ibus-anthy-koneko-send.rerun.jsonl:"), "\(difference)")
    }

    /// A matrix cell's transcript with a click in it (ibus-anthy, いぬ, a click mid-composition):
    /// the rerun starts at the cell's first line, clicks where the recording's `press` line
    /// says, and the engine answers as recorded.
    @Test(.timeLimit(.minutes(4)))
    func aMatrixCellWithAClickRerunsTheClick() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (matrix, matrixSession) = try MatrixCommandEndToEndTests.matrix(
            ["--engine", "ibus-anthy", "--scenario", "click-mid-composition", "--out", "lab"], in: folder)
        defer { matrixSession.stop() }
        #expect(matrix.status == 0, "\(matrix.stdout)\n\(matrix.stderr)")
        let cell = "lab/transcripts/ibus-anthy/click-mid-composition.jsonl"
        let recorded = try String(contentsOf: folder.appendingPathComponent(cell), encoding: .utf8)
        #expect(recorded.contains(#"{"ev":"press""#), "the click is in the transcript")
        let (result, session) = try Self.rerun([cell, "--out", "again.jsonl"], in: folder)
        defer { session.stop() }
        #expect(result.status == 0, "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        #expect(result.stdout.contains("rerun: ibus-anthy answered as recorded"), "\(result.stdout)")
        let again = try String(contentsOf: folder.appendingPathComponent("again.jsonl"), encoding: .utf8)
        let press = recorded.split(separator: "\n").first { $0.contains(#""ev":"press""#) }
            .map { $0.replacingOccurrences(of: #""t":\d+,"#, with: "", options: .regularExpression) }
        #expect(press != nil && again.split(separator: "\n").contains {
            $0.replacingOccurrences(of: #""t":\d+,"#, with: "", options: .regularExpression) == press
        }, "clicked where the recording did: \(press ?? "")")
    }

    /// X11 against Wayland: the recording (ibus-anthy on X11) rerun through fcitx5-anthy as
    /// sway's input method. The app sees no key fcitx5 takes there: the states are cut where
    /// the rerun sent each key, and the first difference is what the engines showed.
    @Test(.timeLimit(.minutes(3)))
    func aRecordingOnX11RerunsOnWaylandAndShowsHowItDiffers() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (result, session) = try Self.rerun([Self.recording, "--engine", "fcitx5-anthy", "--backend", "wayland", "--json"],
                                               in: folder)
        defer { session.stop() }
        #expect(result.status == 1, "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["engine"] as? String == "wayland-fcitx5-anthy" && object["backend"] as? String == "wayland", "\(object)")
        #expect(object["keys"] as? Int == 11, "every recorded key was typed: \(object)")
        let difference = try #require(object["difference"] as? String)
        #expect(difference.hasPrefix("was composing") && difference.contains(", now never: "), "\(difference)")
    }

    @Test func aMalformedTranscriptIsAUsageErrorNamingItsLine() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("ibus-anthy-broken.jsonl")
        let lines = try String(contentsOf: folder.appendingPathComponent(Self.recording), encoding: .utf8).split(separator: "\n")
        try (lines.prefix(3).joined(separator: "\n") + "\n{\"ev\":\"key\",\"t\":\n").write(to: broken, atomically: true, encoding: .utf8)
        let (result, session) = try Self.rerun([broken.lastPathComponent], in: folder, timeout: .seconds(30))
        defer { session.stop() }
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("ibus-anthy-broken.jsonl:4:"), "\(result.stderr)")
    }

    @Test(arguments: [
        ([String](), "its folder or name names no engine the lab knows: say which with --engine"),
        (["--engine", "ibus-klingon"], "--engine ibus-klingon: no such engine"),
        (["--engine", "ibus-anthy", "--backend", "wayland"], "--backend wayland: ibus-anthy has no wayland row"),
    ])
    func aWrongCommandLineIsAUsageError(_ arguments: [String], _ message: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.moveItem(at: folder.appendingPathComponent(Self.recording),
                                         to: folder.appendingPathComponent("recording.jsonl"))
        let (result, session) = try Self.rerun(["recording.jsonl"] + arguments, in: folder, timeout: .seconds(30))
        defer { session.stop() }
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func withoutXvfbOnThePathItExitsThree() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (result, session) = try Self.rerun([Self.recording], in: folder, environment: ["PATH": folder.path],
                                               timeout: .seconds(30))
        defer { session.stop() }
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("ibus-anthy cannot run here") && result.stderr.contains("Xvfb"), "\(result.stderr)")
    }
}
