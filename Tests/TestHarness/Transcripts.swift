import Foundation

/// Every end-to-end session is a transcript: once the app has exited, its trace must replay
/// to the same decisions (`ime-composer replay --check`), and the same bytes every time.
///
/// With `IME_RECORD_TRANSCRIPTS=1` in the environment (`make transcripts`) the trace is
/// also kept as `Tests/Transcripts/NAME.jsonl`, for the replay suite that runs on every
/// `make test` without any input method (its expected outcome is written by hand, beside
/// it, as `NAME.expected.json`).
public enum Transcripts {
    public static let directory = ComposerBinary.packageRoot.appendingPathComponent("Tests/Transcripts")
    public static let recordVariable = "IME_RECORD_TRANSCRIPTS"
    public static var recording: Bool { ProcessInfo.processInfo.environment[recordVariable] == "1" }

    /// Replays `trace` twice with the recorded settings: both must match the recording and
    /// each other byte for byte. Returns the replay's output. Keeps it as NAME when recording.
    @discardableResult
    public static func replayAndKeep(_ trace: URL, as name: String, in session: TestSession) throws -> String {
        let first = try session.run(try ComposerBinary.path, ["replay", "--check", trace.path], timeout: .seconds(60))
        guard first.succeeded else {
            session.markFailed()
            throw HarnessError("`ime-composer replay --check \(trace.path)` exited \(first.status):\n\(first.stderr)")
        }
        let second = try session.run(try ComposerBinary.path, ["replay", trace.path], timeout: .seconds(60))
        guard second.succeeded, second.stdout == first.stdout else {
            session.markFailed()
            throw HarnessError("a second replay of \(trace.path) printed other bytes (status \(second.status))")
        }
        if recording {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let kept = directory.appendingPathComponent(name + ".jsonl")
            try? FileManager.default.removeItem(at: kept)
            try FileManager.default.copyItem(at: trace, to: kept)
        }
        return first.stdout
    }
}
