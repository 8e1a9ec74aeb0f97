import CGtk
@_spi(Testing) import ComposerApp
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
    /// The fixture's private session (Xvfb, D-Bus), for suites that add an input method.
    static var testSession: TestSession? { session }
    private(set) static var xdotool: XDoTool!
    /// The X window id of the newest composer window.
    private(set) static var windowID: String?

    static func start() throws {
        guard session == nil else { return }
        try Prerequisites.require(Prerequisites.x11)
        let session = try TestSession(name: "gtk-tests")
        // A desktop's screen: room for the composer and the inspector side by side.
        _ = try Xvfb.start(in: session, screen: "1920x1080x24")
        // A private session bus: without one GLib autolaunches a dbus-daemon (and GTK an
        // accessibility bus) that outlive the test process.
        _ = try DBusSession.start(in: session)
        setenv("DISPLAY", session.display!, 1)
        setenv("DBUS_SESSION_BUS_ADDRESS", session.dbusAddress!, 1)
        setenv("GDK_BACKEND", "x11", 1)
        setenv("GTK_IM_MODULE", "gtk-im-context-simple", 1)
        setenv("GSETTINGS_BACKEND", "memory", 1)
        setenv("NO_AT_BRIDGE", "1", 1)
        // GSK's cairo renderer, not GL: a GL context is current on one OS thread, and the
        // main actor here is not one thread. Swift Testing's main thread parks in
        // dispatchMain(), and libdispatch drains the main queue on a worker thread that it
        // retires when the queue has been idle a while (seen: two threads across a 70 s
        // pause) — after which GSK's GL renderer drew on a thread where its context was not
        // current and Mesa crashed (SIGSEGV in swrast_dri.so on "-qos.overcommit", during
        // fiftyWindowsOpenedAndClosedLeaveNothingBehind; once before, a call through a bad
        // pointer on the same kind of thread). The app runs GTK on its main thread and
        // renders with GL; the end-to-end tests and `make bench` cover that.
        setenv("GSK_RENDERER", "cairo", 1)
        _ = failTestsOnGLibProblems
        guard gtk_init_check() != 0 else { throw HarnessError("gtk_init_check failed on \(session.display!)") }
        Self.session = session
        var keys: UnsafeMutablePointer<GdkKeymapKey>?
        var count: Int32 = 0
        if gdk_display_map_keyval(gdk_display_get_default(), guint(GDK_KEY_apostrophe), &keys, &count) != 0, let keys {
            apostropheKeycode = keys[0].keycode
        }
        g_free(keys)
        xdotool = XDoTool(session: session)
        stopAtExit = session
        atexit(stopSessionAtExit)
    }

    /// As g_test_init does for GNOME's tests: a GLib warning or critical is a bug, so it
    /// fails the test during which it was logged. Installed once (GLib allows one writer).
    private static let failTestsOnGLibProblems: Void = GLibLog.reportProblems { problem in
        guard !UpstreamProblem.isKnown(problem) else { return false }
        Issue.record("GLib logged \(problem)")
        return !provokingProblems
    }

    /// Set while a test provokes a GLib problem on purpose: still recorded, not printed.
    nonisolated(unsafe) static var provokingProblems = false

    /// A new, empty profile directory for one composer (its recents file and whatever else
    /// the app keeps), inside the fixture's session directory: no test sees another's
    /// state, and nothing is left in /tmp.
    static func newProfile() throws -> String {
        try start()
        return try makeDirectory(in: session!.directory, prefix: "profile")
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

    /// Sends each of `messages` as the user would (put in the input, then Send), and waits
    /// until the list shows the newest.
    static func send(_ messages: [String], from composer: ComposerController) async throws {
        let buffer = gtk_text_view_get_buffer(cast(composer.textView))
        for message in messages {
            gtk_text_buffer_set_text(buffer, message, -1)
            composer.send()
        }
        try await wait("the newest message shown") { composer.messageListShowsNewest }
    }

    /// Waits for two frames painted from now (each asked for if none comes): what a
    /// snapshot then holds is what those frames drew.
    static func paintedTwice(_ composer: ComposerController) async throws {
        var painted = 0
        let clock = gtk_widget_get_frame_clock(composer.window)!
        let handler = onSignal(clock, "after-paint") { painted += 1 }
        defer { g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), handler) }
        try await wait("two frames") {
            if painted < 2 { gtk_widget_queue_draw(composer.window) }
            return painted >= 2
        }
    }

    /// Waits until the clipboard holds text starting with `prefix` (the app owns it: read
    /// back through the composer's own display) and returns that text.
    static func clipboardText(_ composer: ComposerController, startingWith prefix: String) async throws -> String {
        var text = ""
        try await wait("“\(prefix)…” on the clipboard") {
            text = composer.clipboardTextForTests ?? ""
            return text.hasPrefix(prefix)
        }
        return text
    }

    /// Waits until `condition` holds *and* input has settled: the settle that the last
    /// handled event asked for has run, so everything a settle produces (counter, hint,
    /// Trim, Send, overflow colour, completion, highlighting, the "text" event) is current.
    /// Use it wherever a test asserts on what a settle produces.
    static func settled(_ composer: ComposerController, _ what: String, timeoutMilliseconds: Int = 20_000,
                        until condition: () -> Bool = { true }) async throws {
        try await wait("\(what), settled", timeoutMilliseconds: timeoutMilliseconds) {
            condition() && composer.isSettled
        }
    }

    /// Switches the X keyboard layout (`setxkbmap ARGS`) and waits until GTK translates
    /// with the new keymap: `deadAcute` says whether the apostrophe key now types dead_acute
    /// (US international) or ' (US). Pair every change with `restoreKeyboardLayout()` in a
    /// `defer`.
    static func setKeyboardLayout(_ arguments: [String], deadAcute: Bool) throws {
        try start()
        try session!.runChecked("setxkbmap", arguments)
        let expected = guint(deadAcute ? GDK_KEY_dead_acute : GDK_KEY_apostrophe)
        let seen = MainLoop.iterate(until: { keyvalOfApostropheKey() == expected }, timeoutMilliseconds: 10_000)
        guard seen else { throw HarnessError("GTK did not see the keymap of setxkbmap \(arguments)") }
    }

    /// The keycode of the key that types ' in the US layout (read once, at start).
    private static var apostropheKeycode: guint = 0

    /// What GTK's current keymap makes of the apostrophe key, unshifted.
    private static func keyvalOfApostropheKey() -> guint {
        var keyval: guint = 0
        guard gdk_display_translate_key(gdk_display_get_default(), apostropheKeycode, GdkModifierType(rawValue: 0), 0,
                                        &keyval, nil, nil, nil) != 0 else { return 0 }
        return keyval
    }

    /// Back to the plain US layout every other test types with (for `defer`: records a
    /// failure instead of throwing).
    static func restoreKeyboardLayout() {
        do { try setKeyboardLayout(["-layout", "us"], deadAcute: false) } catch {
            Issue.record(error, "restoring the US keyboard layout")
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
    /// - Parameter options: nil for the defaults with a new profile directory.
    /// - Parameter traced: false for a composer without `--trace` (the app's usual state).
    /// - Parameter loadingData: the data comes as in the app, from this loader run off the
    ///   main thread after the first frame (`directory` and `emoji` are then not used).
    static func composer(_ options: ComposerOptions? = nil, directory: WorkspaceDirectory = .empty, emoji: [EmojiEntry] = [],
                         loadingData: (@Sendable () -> ComposerData)? = nil,
                         traced: Bool = true, profile: ProfileOpening? = nil,
                         beforePresent: (ComposerController) -> Void = { _ in })
        async throws -> (ComposerController, QuitRecorder) {
        try start()
        let options = try options ?? ComposerOptions(profileDirectory: newProfile())
        let quit = QuitRecorder()
        let trace = traced ? try TraceWriter(path: try makeDirectory(in: session!.directory, prefix: "trace") + "/trace.jsonl")
            : TraceWriter.disabled()
        let data = loadingData == nil ? ComposerData(directory: directory, emoji: emoji) : nil
        let composer = ComposerController(options: options, trace: trace, data: data, profile: profile) {
            quit.count += 1
        }
        if let loadingData { composer.loadDataAfterFirstFrame(loadingData) }
        beforePresent(composer)
        composer.present()
        try await wait("the window to map") { gtk_widget_get_mapped(composer.window) != 0 }
        // This window exactly: a window of an earlier test may still carry the same title.
        let window = try #require(composer.x11WindowID, "the composer window has no X11 id")
        windowID = window
        try xdotool.focus(window)
        try await wait("focus in the text view") { gtk_widget_has_focus(composer.textView) != 0 }
        return (composer, quit)
    }

    /// Destroys the composer's window and waits until GTK has finalized it (so the next
    /// test starts with no window of this one left, and its sources are gone).
    static func close(_ composer: ComposerController) {
        guard !composer.isWindowDestroyed else { return }  // closed by the test itself
        var finalized = false
        onFinalize(composer.window) { finalized = true }
        composer.destroy()  // the window pointer is gone after this: never touch it again
        if !MainLoop.iterate(until: { finalized }, timeoutMilliseconds: 20_000) {
            Issue.record("the composer window was not finalized after it was destroyed")
        }
    }
}

/// A new directory `<parent>/<prefix>-XXXXXX`.
private func makeDirectory(in parent: URL, prefix: String) throws -> String {
    var template = Array(parent.appendingPathComponent("\(prefix)-XXXXXX").path.utf8CString)
    guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp in \(parent.path) failed: errno \(errno)") }
    return String(cString: made)
}

nonisolated(unsafe) private var stopAtExit: TestSession?
/// Stops the private Xvfb when the test process exits (nonisolated: atexit runs it on
/// whatever thread calls exit).
private let stopSessionAtExit: @convention(c) () -> Void = { stopAtExit?.stop() }

/// Counts calls of the composer's quit callback.
final class QuitRecorder { var count = 0 }

@MainActor
extension ComposerController {
    /// Names of the trace events emitted so far.
    var eventNames: [String] { trace.emitted.map(\.name) }

    var lastTextEvent: TextSnapshot? {
        trace.emitted.reversed().lazy.compactMap { event -> TextSnapshot? in
            if case .text(let snapshot) = event { return snapshot } else { return nil }
        }.first
    }
}
