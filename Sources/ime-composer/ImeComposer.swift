import ArgumentParser
import ComposerApp
import ComposerCore
import Foundation

/// `ime-composer`: the composer window (default subcommand `run`).
struct ImeComposer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ime-composer",
        abstract: "A chat message composer that is correct with real input methods.",
        version: AppVersion.current,
        subcommands: [Run.self, Replay.self, DoctorCommand.self, MatrixCommand.self, RerunCommand.self],
        defaultSubcommand: Run.self
    )
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open the composer window.")

    @Option(help: "Text to start with.")
    var text: String?

    /// A long draft does not fit in one argument (Linux caps one at 128 KiB).
    @Option(name: .customLong("text-file"),
            help: ArgumentHelp("Start with the UTF-8 text of PATH (for long drafts).", valueName: "PATH"))
    var textFile: String?

    @Option(help: "Caret position in Unicode scalars (default: end of text).")
    var caret: Int?

    @Option(help: ArgumentHelp("Write the JSON Lines trace to PATH, or - for stdout.", valueName: "PATH|-"))
    var trace: String?

    @Option(help: ArgumentHelp("Directory for the app's state (default: $XDG_DATA_HOME/ime-composer).",
                               valueName: "DIR"))
    var profile: String?

    @Option(help: ArgumentHelp("Directory with people.jsonl and channels.jsonl (default: $IME_COMPOSER_DATA, "
                               + "else <prefix>/share/ime-composer next to the executable, else the "
                               + "source tree's data/).", valueName: "DIR"))
    var data: String?

    @Option(help: "Message length limit (non-negative).")
    var limit: Int = 200

    @Option(name: .customLong("limit-mode"),
            help: "soft: accept everything and colour the overflow; hard: cut what was just inserted back to the limit once input settles.")
    var limitMode: LengthLimit.Mode = .soft

    @Option(help: "What the limit counts: graphemes (what a person calls a character), scalars or utf16.")
    var count: CountUnit = .graphemes

    @Option(name: .customLong("osk-inset"), help: ArgumentHelp(
        "Simulate an on-screen keyboard PX tall, up while the input has the focus (its toggle in the input bar hides or forces it), for X11 and manual testing.",
        valueName: "PX"))
    var oskInset: Int?

    @Option(help: ArgumentHelp("The simulated colleague behind the typing indicator: off, on, or seed:N (reproducible).",
                               valueName: "off|on|seed:N"))
    var peer: String = "off"

    @Flag(name: .customLong("trace-frames"),
          help: "With --trace: also trace the first frame painted after each key or input-method answer (`paint`), for key → painted frame timing.")
    var traceFrames = false

    @Flag(name: .customLong("trace-placement"),
          help: "With --trace: also trace where the caret is told to the input method, what its GTK module sends and where its candidate window is (`placement`).")
    var tracePlacement = false

    @Option(help: ArgumentHelp("Whether the input method gets the text around the caret when it asks. "
        + "off answers none and ignores its requests to delete around the caret, as many terminals and Electron apps do: "
        + "for testing an engine's fallback.", valueName: "on|off"))
    var surrounding: InputMethodFacing.Surrounding = .on

    @Option(name: .customLong("input-purpose"), help: ArgumentHelp(
        "GTK's input purpose the input method is told: "
            + InputMethodFacing.Purpose.allCases.map(\.rawValue).joined(separator: ", ") + ".",
        valueName: "PURPOSE"))
    var inputPurpose: InputMethodFacing.Purpose = .freeForm

    @Option(name: .customLong("input-hints"), help: ArgumentHelp(
        "GTK's input hints the input method is told, separated by commas: "
            + InputMethodFacing.Hint.allCases.map(\.rawValue).joined(separator: ", ") + ".",
        valueName: "HINT,..."))
    var inputHints: String = ""

    func validate() throws {
        do { _ = try InputMethodFacing.hints(parsing: inputHints) } catch { throw ValidationError("--input-hints \(error)") }
        if let oskInset, oskInset <= 0 { throw ValidationError("--osk-inset \(oskInset): the height must be positive") }
        do { _ = try PeerSetting(argument: peer) } catch { throw ValidationError("--peer \(error)") }
        guard limit >= 0 else { throw ValidationError("--limit \(limit): the limit must be 0 or more") }
        if let caret {
            let text = try initialText()
            do {
                try TextDocument(text).validateCaret(caret)
            } catch {
                throw ValidationError("--caret \(caret): \(error)")
            }
        }
    }

    /// `--text`, or the contents of `--text-file` (one or the other).
    func initialText() throws -> String {
        guard let textFile else { return text ?? "" }
        guard text == nil else { throw ValidationError("--text and --text-file: give one or the other") }
        guard let data = FileManager.default.contents(atPath: textFile) else {
            throw ValidationError("--text-file \(textFile): cannot read the file")
        }
        guard let contents = String(validating: data, as: UTF8.self) else {
            throw ValidationError("--text-file \(textFile): the file is not UTF-8 text")
        }
        return contents
    }

    func run() throws {
        let directory = try ProfileDirectory.prepare(profile)
        let options = ComposerOptions(initialText: try initialText(), caret: caret, tracePath: trace,
                                      profileDirectory: directory,
                                      dataDirectory: absolute(data ?? DataDirectory.defaultPath),
                                      limit: LengthLimit(limit: limit, mode: limitMode, unit: count),
                                      simulatedKeyboardInset: oskInset,
                                      peer: try PeerSetting(argument: peer),
                                      restoresDraft: text == nil && textFile == nil, tracesFrames: traceFrames, tracesPlacement: tracePlacement,
                                      inputMethodFacing: InputMethodFacing(
                                          surrounding: surrounding, purpose: inputPurpose,
                                          hints: try InputMethodFacing.hints(parsing: inputHints)))
        // ArgumentParser calls run() on the process's main thread, where GTK must run.
        let status = MainActor.assumeIsolated { ComposerApplication.run(options: options) }
        if status != 0 { throw ExitCode(status) }
    }
}

/// The trace records the data directory for replay, which may run elsewhere: absolute.
private func absolute(_ path: String) -> String {
    path.isEmpty ? path : URL(fileURLWithPath: path).standardizedFileURL.path
}

extension LengthLimit.Mode: ExpressibleByArgument {}
extension InputMethodFacing.Surrounding: ExpressibleByArgument {}
extension InputMethodFacing.Purpose: ExpressibleByArgument {}
extension CountUnit: ExpressibleByArgument {}

/// Where the app keeps its state: the given directory, or the XDG data directory. It holds
/// what the user typed: made readable by its owner only (0700).
enum ProfileDirectory {
    static func prepare(_ requested: String?) throws -> String {
        let path = requested ?? defaultPath
        do {
            try PrivateFiles.prepareDirectory(URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("--profile \(path): cannot create the directory or make it private (\(error))")
        }
        return path
    }

    static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/ime-composer"
    }
}

/// Where people and channels come from when `--data` is not given, first match wins:
/// 1. `$IME_COMPOSER_DATA` if set and not empty;
/// 2. `<executable dir>/../share/ime-composer` if it exists (an installed copy);
/// 3. the source tree's `data/` (from this file's path at build time: `swift run`, tests).
/// The app reports a missing directory on stderr and starts without data.
enum DataDirectory {
    static var defaultPath: String {
        if let path = ProcessInfo.processInfo.environment["IME_COMPOSER_DATA"], !path.isEmpty {
            return path
        }
        if let installed = installedPath { return installed }
        return sourceTreePath
    }

    static var installedPath: String? {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        let candidate = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/ime-composer").standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
              isDirectory.boolValue else { return nil }
        return candidate.path
    }

    /// `<repo>/data`, from `<repo>/Sources/ime-composer/ImeComposer.swift`.
    static var sourceTreePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data").path
    }
}
