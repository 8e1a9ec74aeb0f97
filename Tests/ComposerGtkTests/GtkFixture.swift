import CGtk
import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import TestHarness
import Testing

/// Every GTK suite lives inside this one: they share one display and one keyboard focus,
/// so they must never run at the same time (`.serialized` applies to nested suites too).
@MainActor
@Suite(.serialized)
enum GtkWindowSuites {}

/// One private Xvfb for this test process, GTK initialised on it with GTK's built-in input
/// method, and helpers that pump the GLib loop while waiting on a condition.
///
/// Swift Testing's @MainActor tests are not on the process main thread on Linux, but GTK
/// works if every GTK call stays on that one executor: every suite here is @MainActor and
/// serialized.
@MainActor
enum GtkFixture {
    private static var session: TestSession?
    private(set) static var xdotool: XDoTool!
    /// The X window id of the newest composer window.
    private(set) static var windowID: String?

    static func start() throws {
        guard session == nil else { return }
        try Prerequisites.require(Prerequisites.x11)
        let session = try TestSession(name: "gtk-tests")
        _ = try Xvfb.start(in: session)
        setenv("DISPLAY", session.display!, 1)
        setenv("GDK_BACKEND", "x11", 1)
        setenv("GTK_IM_MODULE", "gtk-im-context-simple", 1)
        setenv("GSETTINGS_BACKEND", "memory", 1)
        setenv("NO_AT_BRIDGE", "1", 1)
        guard gtk_init_check() != 0 else { throw HarnessError("gtk_init_check failed on \(session.display!)") }
        Self.session = session
        xdotool = XDoTool(session: session)
        stopAtExit = session
        atexit(stopSessionAtExit)
    }

    /// Pumps the GLib loop (and lets main-queue work run) until `condition` holds.
    static func wait(_ what: String, timeoutMilliseconds: Int = 20_000,
                     until condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(Double(timeoutMilliseconds) / 1000)
        while !condition() {
            guard Date() < deadline else { throw HarnessError("timed out waiting for \(what)") }
            MainLoop.iterate(until: { false }, timeoutMilliseconds: 10)
            await Task.yield()
        }
    }

    /// Runs xdotool while this process keeps handling X events: keysyms missing from the
    /// keymap (dead_acute) are typed by remapping a keycode for the moment of the press,
    /// so GTK must read the event before xdotool restores the mapping.
    static func xdotool(_ arguments: [String]) async throws {
        try await run("/usr/bin/xdotool", arguments)
    }

    /// Runs an X client on the test display while pumping the GLib loop.
    static func run(_ executable: String, _ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = session!.environment
        try process.run()
        try await wait("\(executable) \(arguments.joined(separator: " "))") { !process.isRunning }
        guard process.terminationStatus == 0 else {
            throw HarnessError("\(executable) \(arguments) exited with \(process.terminationStatus)")
        }
    }

    /// A composer in a shown, focused window.
    static func composer(_ options: ComposerOptions = ComposerOptions(profileDirectory: NSTemporaryDirectory()),
                         directory: Directory = .empty, emoji: [EmojiEntry] = [])
        async throws -> (ComposerController, QuitRecorder) {
        try start()
        let quit = QuitRecorder()
        let trace = try TraceWriter(path: NSTemporaryDirectory() + "gtk-test-\(UUID().uuidString).jsonl")
        let composer = ComposerController(options: options, trace: trace, directory: directory, emoji: emoji) {
            quit.count += 1
        }
        composer.present()
        try await wait("the window to map") { gtk_widget_get_mapped(composer.window) != 0 }
        // This window exactly: a window of an earlier test may still carry the same title.
        let window = try #require(composer.x11WindowID, "the composer window has no X11 id")
        windowID = window
        try xdotool.focus(window)
        try await wait("focus in the text view") { gtk_widget_has_focus(composer.textView) != 0 }
        return (composer, quit)
    }

    /// Destroys the composer's window and waits until GTK has finished with it.
    static func close(_ composer: ComposerController) {
        composer.destroy()  // the window pointer is gone after this: never touch it again
        MainLoop.iterate(until: { false }, timeoutMilliseconds: 20)
    }
}

nonisolated(unsafe) private var stopAtExit: TestSession?
/// Stops the private Xvfb when the test process exits (nonisolated: atexit runs it on
/// whatever thread calls exit).
private let stopSessionAtExit: @convention(c) () -> Void = { stopAtExit?.stop() }

/// Counts calls of the composer's quit callback.
final class QuitRecorder { var count = 0 }

extension ComposerController {
    /// Names of the trace events emitted so far.
    var eventNames: [String] { trace.emitted.map(\.name) }

    var lastTextEvent: TextSnapshot? {
        trace.emitted.reversed().lazy.compactMap { event -> TextSnapshot? in
            if case .text(let snapshot) = event { return snapshot } else { return nil }
        }.first
    }
}
