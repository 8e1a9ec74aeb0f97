import Foundation
import Testing
import ComposerCore
import ComposerStore
import TestHarness

/// `ime-composer --trace` into a pipe whose reader goes away after one line (as with
/// `| head -1`): the app is not killed by SIGPIPE; it says on stderr that the trace stopped,
/// goes on composing, and exits 0.
@Suite(.serialized)
struct TracePipeEndToEndTests {
    @Test(.timeLimit(.minutes(2)))
    func aTraceReaderThatGoesAwayStopsTheTraceNotTheApp() throws {
        try Prerequisites.require(Prerequisites.x11 + ["head", "mkfifo"])
        let session = try TestSession(name: "e2e-trace-pipe")
        defer { session.stop() }
        do {
            _ = try Xvfb.start(in: session)
            _ = try DBusSession.start(in: session)
            let fifo = session.directory.appendingPathComponent("trace.fifo").path
            try session.runChecked("mkfifo", [fifo])
            let firstLine = session.directory.appendingPathComponent("first-line.txt").path
            let reader = try session.launch("head", executable: "/bin/sh",
                                            arguments: ["-c", "head -n 1 \"$0\" > \"$1\"", fifo, firstLine])
            let app = try session.launch("ime-composer", executable: try ComposerBinary.path,
                                         arguments: ["--trace", fifo, "--profile", session.dataHome.path],
                                         environment: ["GTK_IM_MODULE": "gtk-im-context-simple", "GDK_BACKEND": "x11"]
                                            .merging(ComposerSession.fatalGLibProblems) { _, fatal in fatal })
            _ = try reader.waitForExit(timeout: .seconds(20))
            #expect(try String(contentsOfFile: firstLine, encoding: .utf8).hasPrefix(#"{"ev":"start""#))
            let xdotool = XDoTool(session: session)
            try xdotool.focus(try xdotool.waitForWindow(pid: app.pid, name: ComposerSession.windowTitle, process: app))
            try xdotool.type("still here")
            _ = try Wait.until("the trace to stop with a message", timeout: .seconds(20), diagnostics: { app.diagnostics() }) {
                app.stderr.contains("ime-composer: the trace stopped: its reader went away; composing goes on") ? true : nil
            }
            #expect(app.isRunning, "SIGPIPE did not kill it")
            app.terminate(signal: SIGTERM)
            #expect(try app.waitForExit(timeout: .seconds(10)) == 0)
            #expect(app.stderr.components(separatedBy: "the trace stopped").count == 2, "said once: \(app.stderr)")
        } catch {
            session.markFailed()
            throw error
        }
    }

    /// A reader that stops reading (a paused pager, a stuck program): the pipe fills at once
    /// (the first `text` line carries a 200 KB draft), yet the window goes on — typing is
    /// handled and saved — and once the reader reads again it gets every line, whole, up to
    /// the exit line.
    @Test(.timeLimit(.minutes(2)))
    func aStalledTraceReaderDoesNotFreezeTheWindow() throws {
        try Prerequisites.require(Prerequisites.x11 + ["mkfifo", "cat"])
        let session = try TestSession(name: "e2e-trace-stalled")
        defer { session.stop() }
        do {
            _ = try Xvfb.start(in: session)
            _ = try DBusSession.start(in: session)
            let fifo = session.directory.appendingPathComponent("trace.fifo").path
            try session.runChecked("mkfifo", [fifo])
            let go = session.directory.appendingPathComponent("go").path
            let received = session.directory.appendingPathComponent("received.jsonl").path
            // Opens the FIFO (so the app's open returns), reads nothing until `go` exists.
            let reader = try session.launch("stalled-reader", executable: "/bin/sh", arguments: [
                "-c", "exec 3<\"$0\"; while [ ! -e \"$1\" ]; do sleep 0.05; done; exec cat <&3 > \"$2\"", fifo, go, received])
            let draft = session.directory.appendingPathComponent("draft.txt")
            let text = String(repeating: "長い下書き long draft ", count: 8_000)  // ~200 KB
            try Data(text.utf8).write(to: draft)
            let profile = session.directory.appendingPathComponent("profile")
            let app = try session.launch("ime-composer", executable: try ComposerBinary.path,
                                         arguments: ["--trace", fifo, "--profile", profile.path, "--text-file", draft.path],
                                         environment: ["GTK_IM_MODULE": "gtk-im-context-simple", "GDK_BACKEND": "x11"]
                                            .merging(ComposerSession.fatalGLibProblems) { _, fatal in fatal })
            let xdotool = XDoTool(session: session)
            try xdotool.focus(try xdotool.waitForWindow(pid: app.pid, name: ComposerSession.windowTitle, process: app))
            try xdotool.type("abc")
            // The window answers: the typed text is settled and saved while the trace waits.
            _ = try Wait.until("the typed text saved", timeout: .seconds(30), diagnostics: { app.diagnostics() }) {
                (try? StoreOpener.open(directory: profile).store?.load().draft.text)?.hasSuffix("abc") == true ? true : nil
            }
            #expect(app.isRunning)
            #expect(!app.stderr.contains("the trace stopped"), "a slow reader is waited for, not dropped")
            _ = FileManager.default.createFile(atPath: go, contents: nil)
            app.terminate(signal: SIGTERM)
            #expect(try app.waitForExit(timeout: .seconds(20)) == 0)
            _ = try reader.waitForExit(timeout: .seconds(20))
            let lines = try String(contentsOfFile: received, encoding: .utf8).split(separator: "\n")
            #expect(lines.first?.hasPrefix(#"{"ev":"start""#) == true)
            #expect(lines.last?.hasPrefix(#"{"ev":"exit""#) == true, "the exit line reached the reader")
            let schema = try TraceSchema(contentsOf: ComposerBinary.packageRoot.appendingPathComponent("docs/trace-schema.json"))
            #expect(lines.allSatisfy { schema.validate(String($0)).isEmpty }, "every line whole")
            // The typed keys' edits, and the long draft's text line by its length.
            #expect(lines.contains { $0.hasPrefix(#"{"ev":"edit""#) && $0.contains(#""inserted":"c""#) })
            let length = text.unicodeScalars.count + 3
            #expect(lines.contains { $0.hasPrefix(#"{"ev":"text""#) && $0.contains("\"length\":\(length),") })
        } catch {
            session.markFailed()
            throw error
        }
    }
}
