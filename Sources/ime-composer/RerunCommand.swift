import ArgumentParser
import ComposerCore
import Foundation
import IMELab

/// `ime-composer rerun FILE`: a transcript's recorded keys and focus changes typed again
/// into the composer through a live engine in a private session; the engine's answers
/// compared with the recording's.
struct RerunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rerun",
        abstract: "Drive a transcript's recorded keys through a live engine and compare its answers with the recording.",
        discussion: """
            The keys, clicks and focus changes of FILE (from its scenario's first line when FILE is a cell of \
            an `ime-composer matrix` report) are typed again, one at a time, each waited on until the \
            app settled, into the composer started with the recorded limit and text, in a private X11 \
            session (Xvfb, D-Bus, IBus or Fcitx5 with the engine selected). The engine's answers — \
            preedits with their cursor and segments, commits, surrounding deletions, and whether it \
            consumed each key — are compared with the recording's, in order. --engine runs a \
            recording made with one engine against another: the difference is how they differ. \
            Exit status: 0 when the answers are the same, 1 with the first difference (recorded vs \
            now, FILE:LINE each), 2 for a malformed transcript or a wrong command line, 3 when the \
            session cannot be had.
            """)

    @Argument(help: ArgumentHelp("A transcript (a trace written by `ime-composer --trace FILE`).", valueName: "FILE"))
    var file: String

    @Option(help: ArgumentHelp(
        "The engine to run it through: a lab engine (ibus-anthy, fcitx5-anthy, …) or ibus:NAME / fcitx5:NAME. Default: the engine the transcript's folder or name says (a matrix report's transcripts/ENGINE/).",
        valueName: "ID"))
    var engine: String?

    @Option(help: ArgumentHelp("Which session: x11, wayland (headless sway with fcitx5 as its input method: the engine's wayland-fcitx5-… row) kde (headless KWin with fcitx5: the kde-fcitx5-… row) or gnome (headless GNOME Shell with IBus: the gnome-ibus-… row). Default: the engine's.",
                               valueName: "x11|wayland|kde|gnome"))
    var backend: MatrixBackend?

    @Option(help: ArgumentHelp("Where the rerun's own transcript goes (default: FILE's name with .rerun.jsonl, in the working directory).",
                               valueName: "PATH"))
    var out: String?

    @Flag(help: "Print the outcome as JSON on stdout and nothing else.")
    var json = false

    func run() throws {
        let transcript = try TranscriptFailure.read(file)
        guard transcript.backend == "x11" else {
            throw TranscriptFailure(error: TranscriptError(file: file, line: 1, reason:
                "recorded on \(transcript.backend): the keys the input method consumed there are not in it; rerun needs an X11 recording"))
        }
        let known: [MatrixEngine]
        do {
            known = try MatrixEngine.load()
        } catch {
            throw Unavailable("the engines' expectations cannot be read: \(error)")
        }
        let url = URL(fileURLWithPath: file).standardizedFileURL
        let id = try engine ?? Self.engineID(for: url, known: known)
        var chosen: MatrixEngine
        if let match = known.first(where: { $0.kind.slug == id }) {
            chosen = match
        } else if let named = try MatrixCommand.engine(named: id, known: known,
                                                       keys: MatrixEngine.defaultInvariantKeys) {
            chosen = named
        } else {
            throw ValidationError("--engine \(id): no such engine; the lab knows " + known.map(\.kind.slug).joined(separator: ", ")
                + ", and any installed engine as ibus:NAME or fcitx5:NAME")
        }
        // --backend picks the row of the same input method on that backend.
        if let backend, backend != chosen.backend {
            // The same fcitx5 input method, or IBus engine, on the other backend.
            let families: [Set<InputMethodKind.Framework>] = [[.fcitx5, .waylandFcitx5, .kdeFcitx5], [.ibus, .gnomeIBus]]
            let same = known.first { row in
                row.backend == backend && row.kind.engineName == chosen.kind.engineName
                    && families.contains { $0.contains(row.kind.framework) && $0.contains(chosen.kind.framework) }
            }
            guard let same else {
                let rows = known.filter { $0.backend == backend }.map(\.kind.slug).joined(separator: ", ")
                throw ValidationError("--backend \(backend.rawValue): \(chosen.kind.slug) has no \(backend.rawValue) row "
                    + "(the lab's \(backend.rawValue) rows: \(rows))")
            }
            chosen = same
        }
        if let missing = MatrixRunner.missing(for: chosen) { throw Unavailable("\(chosen.kind.slug) cannot run here: \(missing)") }
        if let me = Bundle.main.executableURL?.resolvingSymlinksInPath().path { setenv("IME_COMPOSER_BIN", me, 1) }
        let rerun = TranscriptRerun(transcript: transcript, firstLine: TranscriptRerun.matrixFirstLine(of: url) ?? 0)
        let output = URL(fileURLWithPath: out ?? (url.deletingPathExtension().lastPathComponent + ".rerun.jsonl")).standardizedFileURL
        let outcome: TranscriptRerun.Outcome
        do {
            outcome = chosen.backend == .x11 ? try rerun.run(chosen, output: output, recordedFile: file)
                                             : try rerun.runWayland(chosen, output: output, recordedFile: file)
        } catch {
            throw RerunFailure(description: "the rerun through \(chosen.kind.slug) did not finish: \(error)")
        }
        if json {
            let object: [String: Any] = [
                "recorded": file, "rerun": output.path, "engine": chosen.kind.slug, "backend": chosen.backend.rawValue,
                "same": outcome.difference == nil, "difference": outcome.difference as Any? ?? NSNull(),
                "keys": outcome.keys, "answers": outcome.answers,
            ]
            FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]))
            FileHandle.standardOutput.write(Data("\n".utf8))
        } else if let difference = outcome.difference {
            print("rerun: \(chosen.kind.slug) answered differently from \(file):\n  \(difference)\nthe rerun's transcript: \(output.path)")
        } else {
            print("rerun: \(chosen.kind.slug) answered as recorded in \(file): \(outcome.keys) keys, \(outcome.answers) answers; "
                + "the rerun's transcript: \(output.path)")
        }
        if outcome.difference != nil { throw ExitCode(1) }
    }

    /// The engine a transcript's place names: a matrix report's `transcripts/ENGINE/`, else
    /// the lab engine whose name the file's name starts with (the longest).
    static func engineID(for url: URL, known: [MatrixEngine]) throws -> String {
        let folder = url.deletingLastPathComponent().lastPathComponent
        if known.contains(where: { $0.kind.slug == folder }) || folder.hasPrefix("ibus:") || folder.hasPrefix("fcitx5:") {
            return folder
        }
        let name = url.deletingPathExtension().lastPathComponent
        if let match = known.map(\.kind.slug).filter({ name.hasPrefix($0 + "-") || name == $0 }).max(by: { $0.count < $1.count }) {
            return match
        }
        throw ValidationError("\(url.path): its folder or name names no engine the lab knows: say which with --engine")
    }
}

/// The rerun itself failed (a key never reached the app, the app exited): exit status 1.
struct RerunFailure: Error, CustomStringConvertible {
    let description: String
}
extension MatrixBackend: ExpressibleByArgument {}
