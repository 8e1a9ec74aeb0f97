import CCallgrind
import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding

/// What the measured run saw, for the parent to check and report (JSON).
struct ChildFacts: Codable {
    var bytes: Int
    var scalars: Int
    /// Committed keystrokes measured (one pass of `Workload.keys`, after a warm-up pass).
    var keystrokes: Int
    /// Frame-clock cycles that fell inside the measured keystrokes (left out of the counts).
    var frames: Int
    var underValgrind: Bool
    /// Completion was open after `@tan` in the measured pass.
    var completionOpened: Bool
    /// What each measured keystroke was (see `KeyKind.of`), in `Workload.keys` order; the
    /// profile of keystroke `i` is the callgrind dump whose trigger is `Workload.dumpReason(i)`.
    var kinds: [KeyKind]
    /// The highlighter had @mention ranges at the end (the draft's and the typed ones).
    var mentionsHighlighted: Int
    /// The model mirrors the buffer at the end.
    var modelMatchesBuffer: Bool
    /// GLib warnings and criticals (each is a bug).
    var problems: [String]
}

/// Callgrind's collection state as the child wants it: on only inside a keystroke and
/// outside frame-clock cycles (paint, layout and tick callbacks run at the display's pace,
/// not per key). Globals because C signal trampolines cannot capture.
nonisolated(unsafe) private var inKeystroke = false
nonisolated(unsafe) private var inFrame = false
nonisolated(unsafe) private var collecting = false
nonisolated(unsafe) private var framesInKeystrokes = 0
nonisolated(unsafe) private var quietIdleRan = false

private func updateCollection() {
    let wanted = inKeystroke && !inFrame
    guard wanted != collecting else { return }
    collecting = wanted
    ccallgrind_toggle_collect()
}

/// The process valgrind runs: a real composer window on the parent's Xvfb, a draft of
/// `bytes`, keystrokes committed through the text view's input method context.
@MainActor
enum Child {
    static func run(bytes: Int, dataDirectory: String, profileDirectory: String, factsPath: String) -> Int32 {
        // GLib may log from its worker threads: the list is locked.
        final class Problems: @unchecked Sendable {
            private let lock = NSLock()
            private var entries: [String] = []
            func append(_ entry: String) { lock.withLock { entries.append(entry) } }
            var list: [String] { lock.withLock { entries } }
        }
        let problems = Problems()
        GLibLog.reportProblems { problem in
            guard !UpstreamProblem.isKnown(problem) else { return false }
            problems.append(problem.description)
            return true
        }
        guard gtk_init_check() != 0 else {
            FileHandle.standardError.write(Data("keystroke-cpu: gtk_init_check failed (DISPLAY=\(ProcessInfo.processInfo.environment["DISPLAY"] ?? ""))\n".utf8))
            return 1
        }
        // A blinking caret redraws on its own timer.
        if let settings = gtk_settings_get_default() {
            ccallgrind_set_boolean(UnsafeMutableRawPointer(settings), "gtk-cursor-blink", 0)
        }

        let data = URL(fileURLWithPath: dataDirectory)
        let directory = DirectoryLoader.load(from: data).directory
        let emoji = EmojiLoader.load(from: data).emoji
        let draft = Workload.draft(bytes: bytes)
        let options = ComposerOptions(initialText: draft, profileDirectory: profileDirectory,
                                      dataDirectory: dataDirectory)
        let composer = ComposerController(options: options, trace: .disabled(keepsHistory: false), directory: directory,
                                          emoji: emoji) {}
        composer.present()
        iterate { gtk_widget_get_mapped(composer.window) != 0 }
        guard let context = composer.inputMethodContext else {
            FileHandle.standardError.write(Data("keystroke-cpu: the text view has no input method context\n".utf8))
            return 1
        }
        watchFrames(of: composer.window)
        // GtkTextView lays the whole draft out in idles before anything else runs.
        waitUntilQuiet()

        func type(_ text: String) {
            ccallgrind_emit_commit(context, text)
            iterate { composer.isSettled }
        }
        // Warm-up: fonts, glyph caches, the completion rows' widgets, the first scroll to
        // the caret: one-time costs that are not what a keystroke costs.
        for key in Workload.keys {
            type(key)
            waitUntilQuiet()
        }

        ccallgrind_start_instrumentation()
        var completionOpened = false
        var kinds: [KeyKind] = []
        for (index, key) in Workload.keys.enumerated() {
            let openBefore = composer.completion.isOpen
            inKeystroke = true
            updateCollection()
            type(key)
            inKeystroke = false
            updateCollection()
            // One profile per keystroke, so each kind of keystroke has its own numbers.
            ccallgrind_dump_stats(Workload.dumpReason(index))
            kinds.append(KeyKind.of(key, completionOpenBefore: openBefore, after: composer.completion.isOpen))
            if index + 1 == Workload.completionOpenAfter { completionOpened = composer.completion.isOpen }
            waitUntilQuiet()
        }
        ccallgrind_stop_instrumentation()

        let facts = ChildFacts(
            bytes: draft.utf8.count, scalars: draft.unicodeScalars.count, keystrokes: Workload.keys.count,
            frames: framesInKeystrokes, underValgrind: ccallgrind_running_on_valgrind() != 0,
            completionOpened: completionOpened, kinds: kinds,
            mentionsHighlighted: composer.highlightedRanges(.mention).count,
            modelMatchesBuffer: composer.model.text == composer.bufferText,
            problems: problems.list)
        composer.destroy()
        do {
            let encoder = JSONEncoder()
            try encoder.encode(facts).write(to: URL(fileURLWithPath: factsPath))
        } catch {
            FileHandle.standardError.write(Data("keystroke-cpu: cannot write \(factsPath): \(error)\n".utf8))
            return 1
        }
        return 0
    }

    /// Runs the GLib loop until `condition` holds. Every wait here has a pending source
    /// (the settle's idle, the window's map) that makes it true.
    private static func iterate(until condition: () -> Bool) {
        while !condition() { g_main_context_iteration(nil, 1) }
    }

    /// Until a low-priority idle runs: nothing of higher priority is ready (layout
    /// validation, redraws, the composer's settle).
    private static func waitUntilQuiet() {
        for _ in 0..<3 {
            quietIdleRan = false
            g_idle_add_full(G_PRIORITY_LOW, { _ in
                quietIdleRan = true
                return 0
            }, nil, nil)
            while !quietIdleRan { g_main_context_iteration(nil, 1) }
        }
    }

    /// Frame-clock cycles are left out of the collection: from "before-paint" (before the
    /// update phase's tick callbacks) to "after-paint". Connected with the harness's own C
    /// handlers, so the profile never counts them as the composer's.
    private static func watchFrames(of window: UnsafeMutablePointer<GtkWidget>) {
        guard let clock = gtk_widget_get_frame_clock(window) else { return }
        let before: @convention(c) (gpointer?, gpointer?) -> Void = { _, _ in
            if inKeystroke { framesInKeystrokes += 1 }
            inFrame = true
            updateCollection()
        }
        let after: @convention(c) (gpointer?, gpointer?) -> Void = { _, _ in
            inFrame = false
            updateCollection()
        }
        g_signal_connect_data(UnsafeMutableRawPointer(clock), "before-paint", unsafeBitCast(before, to: GCallback.self),
                              nil, nil, GConnectFlags(rawValue: 0))
        g_signal_connect_data(UnsafeMutableRawPointer(clock), "after-paint", unsafeBitCast(after, to: GCallback.self),
                              nil, nil, GConnectFlags(rawValue: 0))
    }
}
