import ArgumentParser
import ComposerCore
import Foundation

/// `ime-composer replay FILE`: runs a recorded session again through the composer's
/// decisions, without a display or an input method, and prints the trace it produces.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a recorded trace (a transcript) without a display and print the trace it produces.",
        discussion: """
            The recorded input events (keys, preedits, commits, surrounding-text requests, edits, \
            selections, settles, commands) are fed to the composer with the recorded settings, or \
            with the ones given here. The same transcript always gives the same output. \
            A malformed transcript is reported as FILE:LINE: reason (exit status 2).
            """)

    @Argument(help: ArgumentHelp("A trace written by `ime-composer --trace FILE`.", valueName: "FILE"))
    var file: String

    @Option(help: "Message length limit (default: the recorded one).")
    var limit: Int?

    @Option(name: .customLong("limit-mode"), help: "soft or hard (default: the recorded mode).")
    var limitMode: LengthLimit.Mode?

    @Option(help: "What the limit counts: graphemes, scalars or utf16 (default: the recorded unit).")
    var count: CountUnit?

    @Option(help: ArgumentHelp("Directory with people.jsonl, channels.jsonl and emoji.jsonl (default: the recorded "
                               + "one if it exists, else the app's default).", valueName: "DIR"))
    var data: String?

    @Flag(help: "Compare the replay's text, edit, limit, overflow, completion, accept and send events with the recording's; exit 1 and show the first difference when they differ.")
    var check = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit \(limit): the limit must be 0 or more") }
    }

    func run() throws {
        let transcript: Transcript
        do {
            transcript = try Transcript(contentsOf: file)
        } catch {
            throw TranscriptFailure(error: error)
        }
        var settings = transcript.settings
        if let limit { settings.limit.limit = limit }
        if let limitMode { settings.limit.mode = limitMode }
        if let count { settings.limit.unit = count }
        settings.dataDirectory = dataDirectory(recorded: transcript.settings.dataDirectory)
        let replayData = ReplayData.load(from: settings.dataDirectory)
        let output: Replayer.Output
        do {
            output = try Replayer(transcript: transcript, settings: settings, data: replayData).run()
        } catch {
            throw TranscriptFailure(error: error)
        }
        for problem in replayData.problems.prefix(20) + output.warnings {
            FileHandle.standardError.write(Data("ime-composer: warning: \(problem)\n".utf8))
        }
        FileHandle.standardOutput.write(Data(output.jsonLines.utf8))
        if check, let difference = ReplayComparison.firstDifference(recorded: transcript, replayed: output) {
            FileHandle.standardError.write(Data("ime-composer: \(file): \(difference)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// `--data`, else the recorded directory if it is still there, else the app's default.
    private func dataDirectory(recorded: String) -> String {
        if let data { return data }
        var isDirectory: ObjCBool = false
        if recorded.isEmpty || (FileManager.default.fileExists(atPath: recorded, isDirectory: &isDirectory) && isDirectory.boolValue) {
            return recorded
        }
        return DataDirectory.defaultPath
    }
}

/// A transcript that cannot be replayed: its message as is (`FILE:LINE: reason`), status 2.
struct TranscriptFailure: Error, CustomStringConvertible {
    let error: TranscriptError
    var description: String { error.description }
}
