import ArgumentParser
import ComposerApp
import ComposerCore
import Foundation

/// `ime-composer`: the composer window (default subcommand `run`).
struct ImeComposer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ime-composer",
        abstract: "A chat message composer that is correct with real input methods.",
        subcommands: [Run.self],
        defaultSubcommand: Run.self
    )
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open the composer window.")

    @Option(help: "Text to start with.")
    var text: String = ""

    @Option(help: "Caret position in Unicode scalars (default: end of text).")
    var caret: Int?

    @Option(help: ArgumentHelp("Write the JSON Lines trace to PATH, or - for stdout.", valueName: "PATH|-"))
    var trace: String?

    @Option(help: ArgumentHelp("Directory for the app's state (default: $XDG_DATA_HOME/ime-composer).",
                               valueName: "DIR"))
    var profile: String?

    func validate() throws {
        if let caret {
            do {
                try TextDocument(text).validateCaret(caret)
            } catch {
                throw ValidationError("--caret \(caret): \(error)")
            }
        }
    }

    func run() throws {
        let directory = try ProfileDirectory.prepare(profile)
        let options = ComposerOptions(initialText: text, caret: caret, tracePath: trace,
                                      profileDirectory: directory)
        let status = ComposerApplication.run(options: options)
        if status != 0 { throw ExitCode(status) }
    }
}

/// Where the app keeps its state: the given directory, or the XDG data directory.
enum ProfileDirectory {
    static func prepare(_ requested: String?) throws -> String {
        let path = requested ?? defaultPath
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ValidationError("--profile \(path): cannot create the directory (\(error.localizedDescription))")
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
