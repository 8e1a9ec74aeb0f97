import Foundation
import Testing
import ComposerCore
import TestHarness

/// The IME inspector in the real app with ibus-anthy: F12 opens it beside the composer
/// during a conversion, typing goes on into the input method exactly as before (the trace
/// and its replay decide the same), and a picture of it is kept (docs/inspector.png is one).
@Suite(.serialized)
struct InspectorEndToEndTests {
    static let artifacts = ComposerBinary.packageRoot.appendingPathComponent("out/test-artifacts")

    @Test(.timeLimit(.minutes(2)))
    func theInspectorBesideAnAnthyConversionLeavesTheInputMethodAlone() throws {
        let cs = try ComposerSession(.ibusAnthy, name: "e2e-inspector")
        defer { cs.stop() }
        let trace = cs.trace
        try cs.xdotool.key(["F12"])
        try cs.xdotool.type("kyouhaiitenkidesu")
        try trace.waitFor("the kana", from: cs.probeEndIndex) {
            $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "きょうはいいてんきです"
        }
        let converting = trace.entries.count
        try cs.xdotool.key(["space"])
        try trace.waitFor("the conversion's segments", from: converting) {
            $0["ev"]?.stringValue == "preedit" && ($0["segments"]?.arrayValue?.count ?? 0) >= 2
        }
        #expect(!trace.entries[cs.probeEndIndex...].contains { $0.name == "key" && $0.value["keyval"]?.stringValue == "F12" },
                "F12 is the window's shortcut: it never reaches the input method or the text")
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let shot = try cs.screenshotWindow(to: Self.artifacts.appendingPathComponent("inspector.png"))
        #expect(FileManager.default.fileExists(atPath: shot.path))
        let committing = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("the commit", from: committing) { $0["ev"]?.stringValue == "commit" }
        let sending = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("the send", from: sending) { $0["ev"]?.stringValue == "send" }
        #expect(try cs.terminateApp() == 0)
        #expect(try trace.schemaViolations() == [])
        try Transcripts.replayAndKeep(cs.traceURL, as: "ibus-anthy-with-inspector-open", in: cs.session)
    }
}

/// Anomaly rows from a real IBus engine that misbehaves on purpose (the scripted engine's F8
/// commits twice, F7 deletes what it just committed): the inspector flags them, and "Copy
/// as bug report" (Ctrl+Shift+C) puts them on the clipboard, read back with GTK from outside.
@Suite(.serialized)
struct InspectorAnomalyEndToEndTests {
    static let engines = ComposerBinary.packageRoot.appendingPathComponent("Tests/EndToEndTests/Engines")

    @Test(.timeLimit(.minutes(2)))
    func aScriptedEnginesMisdeedsAreFlaggedInTheBugReport() throws {
        try Prerequisites.require(Prerequisites.x11 + Prerequisites.ibus)
        let session = try TestSession(name: "e2e-inspector-anomalies")
        defer { session.stop() }
        do {
            _ = try Xvfb.start(in: session)
            _ = try DBusSession.start(in: session)
            let ibus = try IBus.start(in: session)
            let address = try Wait.until("ibus-daemon to publish its address", timeout: .seconds(20)) { () -> String? in
                let printed = try session.run("ibus", ["address"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                return printed.hasPrefix("unix:") ? printed : nil
            }
            let engine = try session.launch("scripted-engine", executable: "/usr/bin/python3",
                                            arguments: [Self.engines.appendingPathComponent("scripted_engine.py").path],
                                            environment: ["IBUS_ADDRESS": address])
            _ = try Wait.until("the scripted engine to register", timeout: .seconds(20), diagnostics: { engine.diagnostics() }) {
                engine.stdout.contains("registered") ? true : nil
            }
            try ibus.setEngine("ime-composer-scripted")
            let traceURL = session.directory.appendingPathComponent("trace.jsonl")
            let app = try session.launch("ime-composer", executable: try ComposerBinary.path,
                                         arguments: ["--trace", traceURL.path, "--profile", session.dataHome.path],
                                         environment: ["GTK_IM_MODULE": "ibus", "GDK_BACKEND": "x11"]
                                            .merging(ComposerSession.fatalGLibProblems) { _, fatal in fatal })
            let trace = TraceLog(url: traceURL, watching: app)
            let xdotool = XDoTool(session: session)
            try xdotool.focus(try xdotool.waitForWindow(pid: app.pid, name: "IME Composer", process: app))
            try trace.waitFor(event: "ready")
            var answered = false
            for _ in 0..<8 where !answered {
                let from = trace.entries.count
                try xdotool.key(["F6"])
                answered = (try? trace.waitFor("the probe preedit", timeout: .milliseconds(1500), from: from) {
                    $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "probe"
                }) != nil
            }
            #expect(answered, "the scripted engine never answered")
            let cancel = trace.entries.count
            try xdotool.key(["Escape"])
            try trace.waitFor("the probe preedit to end", from: cancel) { $0["ev"]?.stringValue == "preedit-end" }

            try xdotool.key(["F12"])
            let duplicated = trace.entries.count
            try xdotool.key(["F8"])
            try trace.waitFor("xx", from: duplicated) { $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "xx" }
            let deleting = trace.entries.count
            try xdotool.key(["F7"])
            try trace.waitFor("猫 deleted after its commit", from: deleting) {
                $0["ev"]?.stringValue == "edit" && $0["origin"]?.stringValue == "delete-surrounding" && $0["removed"]?.stringValue == "猫"
            }
            try xdotool.key(["ctrl+shift+c"])
            let report = try Wait.until("the bug report on the clipboard", timeout: .seconds(20)) { () -> String? in
                let read = try session.run("/usr/bin/python3", [Self.engines.appendingPathComponent("read_clipboard.py").path])
                return read.succeeded && read.stdout.hasPrefix("## Input method session") ? read.stdout : nil
            }
            #expect(report.contains("google/mozc#930"), "the duplicated commit is flagged: \(report)")
            #expect(report.contains("ibus/ibus#2570"), "the delete after its commit is flagged: \(report)")
            #expect(report.contains("IBus engine: ime-composer-scripted") || report.contains("IM module: ibus"), "\(report)")
            app.terminate(signal: SIGTERM)
            #expect(try app.waitForExit(timeout: .seconds(10)) == 0)
            try Transcripts.replayAndKeep(traceURL, as: "ibus-scripted-misdeeds", in: session)
        } catch {
            session.markFailed()
            throw error
        }
    }
}

/// fcitx5-anthy keeps its preedit cursor at 0 while the kana grow at the end (fcitx5 5.0.21):
/// the inspector flags it, and the bug report names it with the styled segments of the
/// conversion that follows.
@Suite(.serialized)
struct InspectorFcitxEndToEndTests {
    static let engines = ComposerBinary.packageRoot.appendingPathComponent("Tests/EndToEndTests/Engines")

    @Test(.timeLimit(.minutes(2)))
    func fcitx5AnthysStuckCursorIsFlaggedAndTheReportShowsTheSegments() throws {
        let cs = try ComposerSession(.fcitxAnthy, name: "e2e-inspector-fcitx")
        defer { cs.stop() }
        try cs.xdotool.key(["F12"])
        try cs.xdotool.key(["k", "o", "n", "e", "k", "o"])
        try cs.trace.waitFor("the kana", from: cs.probeEndIndex) {
            $0["ev"]?.stringValue == "preedit" && $0["text"]?.stringValue == "こねこ"
        }
        let converting = cs.trace.entries.count
        try cs.xdotool.key(["space"])
        try cs.trace.waitFor("the conversion", from: converting) {
            $0["ev"]?.stringValue == "preedit" && ($0["segments"]?.arrayValue?.isEmpty == false)
        }
        try cs.xdotool.key(["ctrl+shift+c"])
        let report = try Wait.until("the bug report on the clipboard", timeout: .seconds(20)) { () -> String? in
            let read = try cs.session.run("/usr/bin/python3", [Self.engines.appendingPathComponent("read_clipboard.py").path])
            return read.succeeded && read.stdout.contains("preedit “こねこ”") ? read.stdout : nil
        }
        #expect(report.contains("its cursor stays at 0"), "\(report)")
        #expect(report.contains("highlight"), "the conversion's styled segment: \(report)")
        #expect(report.contains("- Fcitx5 input method: anthy") || report.contains("- IM module: fcitx"), "\(report)")
        #expect(try cs.terminateApp() == 0)
        try Transcripts.replayAndKeep(cs.traceURL, as: "fcitx5-anthy-stuck-cursor", in: cs.session)
    }
}
