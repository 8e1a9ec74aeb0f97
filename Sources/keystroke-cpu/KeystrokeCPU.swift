import ArgumentParser
import Foundation

/// `keystroke-cpu`'s command line (`make bench` runs it; see the top of main.swift for what
/// it measures). Any usage error exits 2 (main.swift).
///
/// The same executable is the child that valgrind runs (`--child` with `--bytes`, `--data`,
/// `--profile` and `--facts`, hidden from the help): see `measure` and Child.swift.
struct KeystrokeCPU: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keystroke-cpu",
        abstract: "Count the composer's CPU instructions per committed keystroke, 1 KB vs 1 MB draft.",
        discussion: """
            Re-runs itself under valgrind --tool=callgrind (instruction counts are repeatable on a noisy \
            machine) in a private Xvfb + D-Bus session, once per draft size; the child opens a real \
            composer window and commits keystrokes through its input method context. The callgrind \
            files are read back and a table is printed. Exit status: 0 when it measured (a missed goal, \
            controllers not flat within 1.5× from the first size to the last, is a FAIL row), 1 when the \
            run went wrong, 2 on a usage error.
            """)

    @Option(help: ArgumentHelp("Also write the results as a Markdown section to FILE.", valueName: "FILE"))
    var markdown: String?

    @Option(help: ArgumentHelp("Draft sizes in bytes, comma-separated, each at least 64 (the first and last are "
                               + "compared).", valueName: "BYTES,BYTES"))
    var sizes = "1024,1048576"

    @Option(help: ArgumentHelp("Keep the callgrind files in DIR (default: keystroke-cpu/ next to the Markdown file; "
                               + "without --markdown they are not kept).", valueName: "DIR"))
    var profiles: String?

    @Option(help: ArgumentHelp("Directory with people, channels and emoji (default: $IME_COMPOSER_DATA, else data/ "
                               + "above the executable or in the current directory).", valueName: "DIR"))
    var data: String?

    // The child's (this executable run again by valgrind).
    @Flag(help: .hidden)
    var child = false

    @Option(help: .hidden)
    var bytes: Int?

    @Option(help: .hidden)
    var profile: String?

    @Option(help: .hidden)
    var facts: String?

    /// `--sizes` as numbers (0 for one that is not a number).
    var draftSizes: [Int] { sizes.split(separator: ",").map { Int($0) ?? 0 } }

    /// Where the callgrind files are kept: `--profiles`, else next to the Markdown file.
    var profilesDirectory: String? {
        profiles ?? markdown.map { (($0 as NSString).deletingLastPathComponent as NSString).appendingPathComponent("keystroke-cpu") }
    }

    func validate() throws {
        if child {
            guard bytes != nil, data != nil, profile != nil, facts != nil else {
                throw ValidationError("--child needs --bytes, --data, --profile and --facts")
            }
            return
        }
        guard bytes == nil, profile == nil, facts == nil else {
            throw ValidationError("--bytes, --profile and --facts are for --child only")
        }
        guard !draftSizes.isEmpty, draftSizes.allSatisfy({ $0 >= 64 }) else {
            throw ValidationError("--sizes: byte counts of at least 64")
        }
    }

    func run() throws {
        // ArgumentParser calls run() on the process's main thread (main.swift), where GTK must run.
        if child, let bytes, let data, let profile, let facts {
            let status = MainActor.assumeIsolated {
                Child.run(bytes: bytes, dataDirectory: data, profileDirectory: profile, factsPath: facts)
            }
            throw ExitCode(status)
        }
        // A missed goal is a FAIL row in the report, not an error: `make bench` goes on and
        // writes the whole report. Only a measurement that could not be made exits 1.
        do {
            _ = try MainActor.assumeIsolated { try measure(self) }
        } catch {
            FileHandle.standardError.write(Data("keystroke-cpu: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
