import ArgumentParser
import Foundation

/// `completion-benchmark`'s command line (`make bench` runs it; see the top of main.swift
/// for what it measures). Any usage error exits 2 (main.swift).
struct CompletionBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completion-benchmark",
        abstract: "Time completion over 100,000 people: ours against GtkSourceView 5's fuzzy match.",
        discussion: """
            The top 20 people for each query with our matcher (CompletionSource.search, highlights \
            included) and with gtk_source_completion_fuzzy_match (a full scan and a sort by its \
            priority, on the handle only and on all four keys), side by side in the same run; whether \
            each labelled query's first result is the one a person typing it expects; and the time per \
            keystroke when a name is typed letter by letter; and the memory the people and the emoji \
            indexes keep once built (glibc's heap in use after, less before). The people are data/people.jsonl scaled up \
            deterministically (copy k of each person gets the suffix k). Run it with `make bench` (a \
            release build). Exit status: 0 when it ran (a missed goal is a FAIL in the output), 1 when \
            there are no people or the Markdown file cannot be written, 2 on a usage error.
            """)

    @Option(help: ArgumentHelp("Directory with people.jsonl (default: the source tree's data/).", valueName: "DIR"))
    var data: String?

    @Option(help: ArgumentHelp("How many people to search: the data's, repeated with numbered suffixes.", valueName: "N"))
    var people = 100_000

    @Option(name: .customLong("runs"),
            help: ArgumentHelp("Timed runs per query, of which the median counts (at least 1; GtkSourceView gets a "
                               + "third and a sixth as many, at least 3).", valueName: "N"))
    var requestedRuns = 31

    @Option(name: .customLong("query"),
            help: ArgumentHelp("Run only this query (repeat for more); one not in the built-in set is timed but not "
                               + "labelled.", valueName: "Q"))
    var only: [String] = []

    @Option(help: ArgumentHelp("Also write the results as a Markdown section (\"## Completion\") to FILE.",
                               valueName: "FILE"))
    var markdown: String?

    @Flag(help: "Skip GtkSourceView and the typing loop (for profiling ours, e.g. under valgrind --tool=callgrind).")
    var oursOnly = false

    /// `--data`, else `data/` in the source tree (from this file's path at build time).
    var dataDirectory: URL {
        if let data { return URL(fileURLWithPath: data) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data")
    }

    var markdownURL: URL? { markdown.map { URL(fileURLWithPath: $0) } }

    /// `--runs`, at least 1.
    var runs: Int { max(1, requestedRuns) }

    func validate() throws {
        guard people >= 0 else { throw ValidationError("--people \(people): a number of people, 0 or more") }
    }

    func run() throws {
        // ArgumentParser calls run() on the process's main thread (main.swift).
        let status = MainActor.assumeIsolated { benchmark(self) }
        if status != 0 { throw ExitCode(status) }
    }
}
