import CGtk
import ComposerCore
import Foundation
import GtkBinding

/// The AdwApplication around one composer window, and the process's exit paths.
public enum ComposerApplication {
    public static let applicationID = "io.github.imecomposer.ImeComposer"

    /// Runs the app until it exits; returns the process exit status.
    ///
    /// Non-unique: a second instance must not hand its window to the first (it would exit
    /// at once with an empty trace). Only argv[0] reaches GApplication: our options were
    /// parsed already and GApplication would reject them.
    public static func run(options: ComposerOptions) -> Int32 {
        // The language first: the window's words are looked up as it is built.
        Gettext.prepareLocale()
        Localization.setUp()
        // The draft and messages kept in the profile, read before the window exists: the
        // draft is in the first frame (and in the trace's start line, for replay).
        let profile = ProfileOpening.open(directory: options.profileDirectory)
        let options = options.restoring(profile)
        let trace: TraceWriter
        do {
            trace = try options.tracePath.map { try TraceWriter(path: $0, keepsHistory: false) } ?? TraceWriter.disabled(keepsHistory: false)
        } catch {
            FileHandle.standardError.write(Data("ime-composer: \(error)\n".utf8))
            return 1
        }
        // A trace reader that goes away (`--trace - | head -1`) must not kill the app: the
        // write fails with EPIPE instead and the trace stops (TraceWriter).
        signal(SIGPIPE, SIG_IGN)
        let facing = options.inputMethodFacing
        watchGLibProblems(expected: { expectedProblems(facing) })
        MainLoop.drainDispatchMainQueue()
        // libadwaita's application: its styles, and the system's dark and high-contrast
        // styles followed at run time (`SystemStyle`).
        let app = adw_application_new(applicationID, G_APPLICATION_NON_UNIQUE)!
        var controller: ComposerController?
        onSignal(app, "activate") {
            guard controller == nil else { return }
            trace.emit(ComposerController.startEvent(options))
            let composer = ComposerController(options: options, trace: trace, data: nil, profile: profile) {
                g_application_quit(cast(app))
            }
            var inhibitCookie: guint = 0
            composer.inhibitLogout = { [weak composer] on in
                if on, inhibitCookie == 0, let window = composer?.window {
                    inhibitCookie = gtk_application_inhibit(cast(app), cast(window), GTK_APPLICATION_INHIBIT_LOGOUT,
                                                            tr("Saving your draft"))
                } else if !on, inhibitCookie != 0 {
                    gtk_application_uninhibit(cast(app), inhibitCookie)
                    inhibitCookie = 0
                }
            }
            gtk_application_add_window(cast(app), cast(composer.window))
            controller = composer
            // People, channels and emoji are read and indexed once the first frame is on
            // screen, off the main thread. Completion and highlighting start when they
            // arrive ("ready" waits for them).
            let dataDirectory = options.dataDirectory
            composer.loadDataAfterFirstFrame { ComposerData.load(from: dataDirectory) }
            composer.present()
        }
        // Installed before the loop runs, so a signal that arrives before the window exists
        // still ends with an exit event and status 0.
        for (signal, reason) in [(SIGTERM, ExitReason.sigterm), (SIGINT, .sigint)] {
            MainLoop.onUnixSignal(signal) {
                if let controller {
                    controller.exit(reason: reason)
                } else {
                    trace.emit(.exit(text: options.initialText, caret: options.caret
                                     ?? options.initialText.unicodeScalars.count, preedit: "", reason: reason))
                    g_application_quit(cast(app))
                }
            }
        }
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(CommandLine.arguments.first ?? "ime-composer"), nil]
        defer { free(argv[0]) }
        let status = g_application_run(cast(app), 1, &argv)
        // However the loop ended (a window closed by the window manager ends it without
        // our exit), nothing pending is left unwritten, and the database is closed with all
        // of it in its file (not only in the WAL).
        controller?.closeProfile()
        controller = nil
        g_object_unref(app.rawPointer)
        return status
    }

    /// Set (to anything) in the environment, a GLib warning or critical ends the app at
    /// once, as `g_test_init` does in GNOME's tests: the end-to-end tests run it so.
    nonisolated public static let fatalProblemsVariable = "IME_COMPOSER_FATAL_WARNINGS"

    /// GLib's warnings and criticals are printed as usual, except the exact upstream ones of
    /// `UpstreamProblem.known` (each a GTK bug we cannot fix here) and those the options
    /// provoke on purpose (`expected`). With `IME_COMPOSER_FATAL_WARNINGS` set, any other
    /// one aborts the app.
    /// `expected` is asked when a problem comes (the program name it needs is GTK's by then).
    static func watchGLibProblems(expected: @escaping @Sendable () -> [UpstreamProblem] = { [] }) {
        let fatal = ProcessInfo.processInfo.environment[fatalProblemsVariable] != nil
        GLibLog.reportProblems { problem in
            guard !UpstreamProblem.isKnown(problem), !expected().contains(where: { $0.matches(problem) }) else { return false }
            if fatal {
                FileHandle.standardError.write(Data("ime-composer: fatal GLib problem (\(fatalProblemsVariable)): \(problem)\n".utf8))
                abort()
            }
            return true
        }
    }

    /// The warnings an option provokes on purpose. `--surrounding off` answers IBus's GTK
    /// module no surrounding text, as terminals and Electron apps do; the module then warns
    /// "PROGRAM has no capability of surrounding-text feature" on every request
    /// (ibusimcontext.c, `_request_surrounding_text`), as it does for those apps.
    nonisolated static func expectedProblems(_ facing: InputMethodFacing) -> [UpstreamProblem] {
        guard facing.surrounding == .off else { return [] }
        let program = string(fromBorrowed: g_get_prgname())
        return [UpstreamProblem(level: .warning, domain: "IBUS", exactly: "\(program) has no capability of surrounding-text feature",
                                bug: "ibus/ibus#2436: an app without surrounding text cannot say so; IBus warns on each request")]
    }

    /// Most problems printed at startup; the rest are counted, not listed.
    nonisolated static let problemsShown = 20

    /// Loads the emoji for `:` completion from `path`/emoji.jsonl. The file is optional (a
    /// data directory of people only is fine); bad lines are reported like the others.
    nonisolated static func loadEmoji(_ path: String) -> [EmojiEntry] {
        guard !path.isEmpty else { return [] }
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent(EmojiLoader.fileName).path) else { return [] }
        let result = EmojiLoader.load(from: url)
        let report = result.problems.prefix(problemsShown).map { "ime-composer: \($0)\n" }.joined()
        if !report.isEmpty { FileHandle.standardError.write(Data(report.utf8)) }
        return result.emoji
    }

    /// Loads people and channels from `path` ("" = none). Problems go to stderr, one
    /// `ime-composer: <file>:<line>: <message>` line each; the app starts regardless, with
    /// whatever could be read (nothing, if the directory is missing).
    nonisolated static func loadDirectory(_ path: String) -> WorkspaceDirectory {
        guard !path.isEmpty else { return .empty }
        let url = URL(fileURLWithPath: path)
        let result = DirectoryLoader.load(from: url)
        var report = result.problems.prefix(problemsShown).map { "ime-composer: \($0)\n" }.joined()
        if result.problems.count > problemsShown {
            report += "ime-composer: … and \(result.problems.count - problemsShown) more problems in \(url.path)\n"
        }
        if !result.problems.isEmpty {
            let loaded = result.directory
            report += "ime-composer: continuing with \(loaded.people.count) people and "
                + "\(loaded.channels.count) channels from \(url.path)\n"
            FileHandle.standardError.write(Data(report.utf8))
        }
        return result.directory
    }
}
