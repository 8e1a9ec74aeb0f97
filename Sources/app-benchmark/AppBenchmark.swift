import ArgumentParser
import Foundation
import IMELab

/// `app-benchmark`'s command line (`make bench` runs it; see the top of main.swift for what
/// it measures). Numbers must be positive; any usage error exits 2 (main.swift).
struct AppBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-benchmark",
        abstract: "Measure the release composer against plain C GTK4 programs, from outside both.",
        discussion: """
            Keystroke to first paint (GTK's simple IM and ibus-anthy; empty, and 1 KB, 100 KB and 1 MB drafts under and over the limit) against a \
            plain GtkTextView; a 10 MB paste from another application's clipboard; idle CPU and wake-ups; \
            start to first frame and memory against the plain GtkTextView and a minimal GTK4 window; \
            other apps' composers (GNOME Text Editor, Polari: keystroke to first paint and CPU per key) against ours in their sessions. Each program runs in a private Xvfb + D-Bus session and is measured the same way \
            by Benchmarks/meter/paint-meter.c (XTest key, then the window's next X Damage), rounds \
            interleaved. The results are printed as a Markdown section. \
            Exit status: 0 when everything was measured (missed goals are FAIL rows in the table), \
            1 on a measurement error, 2 on a usage error.
            """)

    enum Case: String, CaseIterable, ExpressibleByArgument {
        case simple, anthy
    }

    @Option(help: ArgumentHelp("Also write the Markdown section to FILE.", valueName: "FILE"))
    var markdown: String?

    @Option(help: ArgumentHelp("Also write the raw samples (latencies, idle, start-up) as JSON to FILE.",
                               valueName: "FILE"))
    var raw: String?

    @Option(help: ArgumentHelp("The composer to measure (a release build).", valueName: "PATH"))
    var composer = ".build/release/ime-composer"

    @Option(help: ArgumentHelp("Where the C reference programs and the paint meter are compiled to (each only "
                               + "when missing or older than its source).", valueName: "DIR"))
    var tools = ".build/bench"

    /// Rounds and launches vary more between processes than keys within one: the ratios'
    /// run-to-run spread on two cores was ±5 % with 5 rounds and 7 launches.
    @Option(help: ArgumentHelp("Keystroke rounds per program and case, each a fresh process.", valueName: "N"))
    var rounds = 9

    @Option(name: .customLong("keys"), help: ArgumentHelp("Measured keys per round.", valueName: "N"))
    var keysPerRound = 60

    @Option(help: ArgumentHelp("Launches per program for start to first frame.", valueName: "N"))
    var startups = 11

    @Option(name: .customLong("idle-seconds"),
            help: ArgumentHelp("How long idle CPU and wake-ups are measured, in seconds.", valueName: "N"))
    var idleSeconds = 10

    @Option(name: .customLong("draft-bytes"),
            help: ArgumentHelp("Size of a long draft both programs start with, in bytes at most; repeatable, each "
                               + "size its own cases (default: 1 KB, 100 KB and 1 MB).", valueName: "N"))
    var draftSizes: [Int] = [1 << 10, 100 << 10, 1 << 20]

    @Option(name: .customLong("paste-bytes"),
            help: ArgumentHelp("Size of the text pasted from another application's clipboard, in bytes at most "
                               + "(default: 10 MB).", valueName: "N"))
    var pasteBytes = 10 << 20

    @Option(name: .customLong("paste-rounds"),
            help: ArgumentHelp("Pastes per program and case, each into a fresh process.", valueName: "N"))
    var pasteRounds = 3

    @Option(help: ArgumentHelp("GSK_RENDERER for every program (gl, cairo, …); '' leaves GTK's choice.",
                               valueName: "gl|cairo|''"))
    var renderer = "gl"

    @Option(help: ArgumentHelp("Measure only the GTK simple IM session or only the ibus-anthy one (default: both).",
                               valueName: "simple|anthy"))
    var only: Case?

    enum Part: String, CaseIterable, ExpressibleByArgument {
        case startup, idle, keys, paste, peers
    }

    @Option(name: .customLong("part"),
            help: ArgumentHelp("Measure only this part (startup, idle, keys, paste, peers; repeatable; default: all of them).",
                               valueName: "startup|idle|keys|paste|peers"))
    var onlyParts: [Part] = []

    @Option(name: .customLong("peer"),
            help: ArgumentHelp("Another app whose composer the peers part measures against ours (data/lab/peers/NAME.json; "
                               + "repeatable; default: gnome-text-editor, polari and dino).", valueName: "NAME"))
    var peers: [String] = ["gnome-text-editor", "polari", "dino"]

    @Option(name: .customLong("peer-rounds"),
            help: ArgumentHelp("Keystroke rounds per program in the peers part (the app and the composer beside it).",
                               valueName: "N"))
    var peerRounds = 5

    /// The parts to measure: `--part`'s, else all.
    var parts: Set<Part> { onlyParts.isEmpty ? Set(Part.allCases) : Set(onlyParts) }

    /// The sessions to measure: `--only`'s, else both.
    var cases: Set<String> { only.map { [$0.rawValue] } ?? Set(Case.allCases.map(\.rawValue)) }

    func validate() throws {
        for (flag, value) in [("--rounds", rounds), ("--keys", keysPerRound), ("--startups", startups),
                              ("--idle-seconds", idleSeconds), ("--paste-bytes", pasteBytes),
                              ("--paste-rounds", pasteRounds), ("--peer-rounds", peerRounds)] + draftSizes.map({ ("--draft-bytes", $0) }) where value <= 0 {
            throw ValidationError("\(flag) \(value): a positive number")
        }
        if parts.contains(.peers) {
            let known = (try? PeerApp.load().map(\.app)) ?? []
            for name in peers where !known.contains(name) {
                throw ValidationError("--peer \(name): no such app; the lab knows \(known.joined(separator: ", "))")
            }
        }
    }

    func run() throws {
        do {
            let benchmark = try Benchmark(options: self)
            try benchmark.run()
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
            let text = benchmark.markdown(date: formatter.string(from: Date()) + " UTC")
            print(text)
            if let path = markdown {
                try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(),
                                                        withIntermediateDirectories: true)
                try text.write(toFile: path, atomically: true, encoding: .utf8)
            }
            if let path = raw { try benchmark.rawJSON().write(to: URL(fileURLWithPath: path)) }
        } catch {
            FileHandle.standardError.write(Data("app-benchmark: measurement error: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
