import Foundation
import Testing
import ComposerCore
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
}
