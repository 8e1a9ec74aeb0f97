import Foundation

/// Xvfb, D-Bus, ibus-daemon, the scripted IBus engine (Tests/EndToEndTests/Engines/
/// scripted_engine.py, which misbehaves exactly on demand) and `ime-composer` through GTK's
/// ibus module, with the engine proven attached (its F6 probe preedit shown, then cancelled).
public final class ScriptedEngineSession: @unchecked Sendable {
    public static let engineName = "ime-composer-scripted"
    public static let engines = ComposerBinary.packageRoot.appendingPathComponent("Tests/EndToEndTests/Engines")

    public let session: TestSession
    public let app: AppProcess
    public let trace: TraceLog
    public let traceURL: URL
    public let xdotool: XDoTool

    /// - Parameter arguments: extra `ime-composer` arguments (e.g. `["--text", "…"]`).
    public init(name: String, arguments: [String] = []) throws {
        try Prerequisites.require(Prerequisites.x11 + Prerequisites.ibus)
        session = try TestSession(name: name)
        do {
            _ = try Xvfb.start(in: session)
            _ = try DBusSession.start(in: session)
            let ibus = try IBus.start(in: session)
            // The daemon answers before it has published its address for other clients.
            let session = session
            let address = try Wait.until("ibus-daemon to publish its address", timeout: .seconds(20)) { () -> String? in
                let printed = try session.run("ibus", ["address"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                return printed.hasPrefix("unix:") ? printed : nil
            }
            let engine = try session.launch("scripted-engine", executable: "/usr/bin/python3",
                                            arguments: [Self.engines.appendingPathComponent("scripted_engine.py").path],
                                            environment: ["IBUS_ADDRESS": address])
            _ = try Wait.until("the scripted engine to register", timeout: .seconds(20),
                               diagnostics: { engine.diagnostics() },
                               failFast: { if !engine.isRunning { throw HarnessError("engine died\n" + engine.diagnostics()) } }) {
                engine.stdout.contains("registered") ? true : nil
            }
            try ibus.setEngine(Self.engineName)
            traceURL = session.directory.appendingPathComponent("trace.jsonl")
            app = try session.launch("ime-composer", executable: try ComposerBinary.path,
                                     arguments: ["--trace", traceURL.path, "--profile", session.dataHome.path] + arguments,
                                     environment: ["GTK_IM_MODULE": "ibus", "GDK_BACKEND": "x11"]
                                        .merging(ComposerSession.fatalGLibProblems) { _, fatal in fatal })
            trace = TraceLog(url: traceURL, watching: app, session: session)
            xdotool = XDoTool(session: session)
            try xdotool.focus(try xdotool.waitForWindow(pid: app.pid, name: ComposerSession.windowTitle, process: app))
            try trace.waitFor(event: "ready")
            try waitUntilEngineAnswers()
        } catch {
            session.markFailed()
            session.stop()
            throw error
        }
    }

    /// The engine is attached once it answers the probe key with its preedit.
    private func waitUntilEngineAnswers() throws {
        var answered = false
        for _ in 0..<8 where !answered {
            let from = trace.entries.count
            try xdotool.key(["F6"])
            answered = trace.poll("the probe preedit", timeout: .milliseconds(1500), from: from, where: {
                $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "probe"
            }) != nil
        }
        guard answered else { throw session.failure("the scripted engine never answered its probe key F6") }
        let cancel = trace.entries.count
        try xdotool.key(["Escape"])
        try trace.waitFor("the probe preedit to end", from: cancel) { $0["ev"]?.stringValue == "preedit-end" }
    }

    public func stop() { session.stop() }
}
