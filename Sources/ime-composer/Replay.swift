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
            A start line without the settings (a recording from before they were written there) \
            takes them from these options, else from what that build used (limit 200, soft, graphemes, \
            the default data directory), and a note on stderr says which. \
            A malformed transcript is reported as FILE:LINE: reason (exit status 2).
            """)

    @Argument(help: ArgumentHelp("A trace written by `ime-composer --trace FILE`.", valueName: "FILE"))
    var file: String

    @Option(help: "Message length limit (default: the recorded one; 200 when the recording has none).")
    var limit: Int?

    @Option(name: .customLong("limit-mode"), help: "soft or hard (default: the recorded mode; soft when the recording has none).")
    var limitMode: LengthLimit.Mode?

    @Option(help: "What the limit counts: graphemes, scalars or utf16 (default: the recorded unit; graphemes when the recording has none).")
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
        let transcript = try TranscriptFailure.read(file)
        // An older recording's start line lacks settings: the flags give them, else what
        // that build used; either way the note says so before anything else is printed.
        let chosen = ReplaySettings(transcript: transcript,
                                    flags: .init(limit: limit, limitMode: limitMode, count: count, data: data),
                                    defaultDataDirectory: DataDirectory.defaultPath)
        if let note = chosen.note { FileHandle.standardError.write(Data("ime-composer: \(note)\n".utf8)) }
        var settings = chosen.settings
        if !chosen.dataIsDefault { settings.dataDirectory = dataDirectory(recorded: transcript.settings.dataDirectory) }
        let replayData = ReplayData.load(from: settings.dataDirectory)
        let output: Replayer.Output
        do {
            output = try Replayer(transcript: transcript, settings: settings, data: replayData).run()
        } catch {
            throw TranscriptFailure(error: error)
        }
        for note in output.notes { FileHandle.standardError.write(Data("ime-composer: \(note)\n".utf8)) }
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

    /// Reads and checks `file`; a malformed one is this failure (exit status 2).
    static func read(_ file: String) throws -> Transcript {
        do {
            return try Transcript(contentsOf: file)
        } catch {
            throw TranscriptFailure(error: error)
        }
    }
}
