import ComposerCore
import Foundation

/// A transcript's recorded input driven again through a live engine (`ime-composer rerun`):
/// its keys, clicks (`press` lines) and focus changes, in order, each one waited on until the app has settled, in
/// a private X11 session with the engine; then the engine's answers compared with the
/// recording's (`InputMethodStates`: each key's, and what it showed and had committed
/// wherever the recording's engine had answered).
public struct TranscriptRerun: Sendable {
    /// One recorded input, with its line in the transcript.
    public enum Step: Sendable, Equatable {
        /// `answered`: the recording's engine answered it (a preedit change, a commit, a
        /// surrounding deletion) before the next key: the rerun waits for an answer too.
        case key(name: String, shift: Bool, line: Int, answered: Bool)
        case focus(in: Bool, line: Int)
        /// A press in the text at window coordinates; `fromBottom`: its height above the
        /// panel's bottom edge when the recording had laid the panel out (the input bar sits
        /// there whatever the window's height: a rerun clicks at that height in its window).
        case press(x: Int, y: Int, fromBottom: Int?, line: Int)
    }

    public let transcript: Transcript
    /// The transcript's non-blank line (0-based) the rerun starts at: a matrix cell's first
    /// line (after the session's engine probe), else 0.
    public let firstLine: Int
    public let steps: [Step]
    /// The text in the input when the rerun starts (the last `text` line before `firstLine`).
    public let initialText: String

    public init(transcript: Transcript, firstLine: Int = 0) {
        self.transcript = transcript
        self.firstLine = firstLine
        var steps: [Step] = []
        var text = ""
        var panelHeight: Int?
        for (index, line) in transcript.lines.enumerated() {
            if index < firstLine {
                if case .text(let snapshot) = line.event { text = snapshot.text }
                if case .layout(let layout) = line.event { panelHeight = layout.panelHeight }
                continue
            }
            switch line.event {
            case .key(let keyval, _, let shift, _):
                steps.append(.key(name: keyval, shift: shift, line: line.number, answered: false))
            case .preeditStart, .preedit, .preeditEnd, .commit, .surroundingDelete:
                if case .key(let name, let shift, let number, false)? = steps.last {
                    steps[steps.count - 1] = .key(name: name, shift: shift, line: number, answered: true)
                }
            case .focus(let isIn): steps.append(.focus(in: isIn, line: line.number))
            case .press(let x, let y, _): steps.append(.press(x: x, y: y, fromBottom: panelHeight.map { $0 - y }, line: line.number))
            case .layout(let layout): panelHeight = layout.panelHeight
            default: break
            }
        }
        self.steps = steps
        initialText = text
    }

    /// The app's arguments for the rerun: the recorded limit, mode and unit, the text, and
    /// what the input method was told about the field (surrounding text, purpose, hints).
    public var arguments: [String] {
        let limit = transcript.settings.limit
        return ["--text", initialText, "--limit", String(limit.limit), "--limit-mode", limit.mode.rawValue,
                "--count", limit.unit.rawValue] + transcript.settings.inputMethodFacing.arguments
    }

    /// `key` as xdotool names it: Shift held for a key whose keysym does not say it already.
    static func xdotoolKey(_ name: String, shift: Bool) -> String {
        guard shift else { return name }
        if name.count == 1, name.uppercased() == name, name.lowercased() != name { return name }
        return "shift+" + name
    }

    /// The first line of the cell `file` is the transcript of, when it sits in a matrix
    /// report's directory (`DIR/transcripts/ENGINE/SCENARIO.jsonl` with `DIR/matrix.json`).
    public static func matrixFirstLine(of file: URL) -> Int? {
        let out = file.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        guard let data = try? Data(contentsOf: out.appendingPathComponent("matrix.json")),
              let report = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let cells = report["cells"] as? [[String: Any]] else { return nil }
        let target = file.standardizedFileURL.resolvingSymlinksInPath().path
        for cell in cells {
            guard let path = cell["transcript"] as? String else { continue }
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : out.appendingPathComponent(path)
            if url.standardizedFileURL.resolvingSymlinksInPath().path == target { return cell["first_line"] as? Int }
        }
        return nil
    }

    public struct Outcome: Sendable {
        /// The first difference of the rerun's answers from the recording's, naming the
        /// lines of both; nil when the engine answered the same.
        public let difference: String?
        public let keys: Int
        public let answers: Int
    }

    /// Runs the steps through `engine` in a private X11 session; the rerun's own transcript
    /// (from after the session's engine probe) is written to `output`.
    public func run(_ engine: MatrixEngine, output: URL, recordedFile: String) throws -> Outcome {
        let cs = try ComposerSession(engine.kind, arguments: arguments, name: "rerun-\(engine.kind.slug)") { session in
            for setting in engine.gsettings {
                try IBus.gsettingsSet(session, schema: setting.schema, key: setting.key, value: setting.value)
            }
        }
        defer { cs.stop() }
        let trace = cs.trace
        let start = cs.probeEndIndex
        var focused = true
        var other: AppProcess?
        var otherWindow: String?
        defer { other?.terminate(signal: SIGTERM) }
        for step in steps {
            switch step {
            case .key(let name, let shift, let line, let answered):
                let from = trace.entries.count
                try cs.xdotool.key([Self.xdotoolKey(name, shift: shift)])
                try trace.waitFor("the key \(name) (recorded at line \(line))", from: from) {
                    $0["ev"]?.stringValue == "key" && $0["keyval"]?.stringValue == name
                }
                let key = trace.lastMatchIndex
                if answered {
                    // The recording's engine answered this key: so must this one before the
                    // next key goes (another engine may not: then the difference shows).
                    _ = trace.poll("an answer to \(name)", timeout: .seconds(10), from: key + 1) {
                        ["preedit-start", "preedit", "preedit-end", "commit"].contains($0["ev"]?.stringValue ?? "")
                            || ($0["ev"]?.stringValue == "surrounding" && $0["kind"]?.stringValue == "delete")
                    }
                }
                try waitUntilQuiet(trace, settledAfter: key)
            case .press(let x, let y, let fromBottom, let line):
                let from = trace.entries.count
                if let fromBottom {
                    try cs.clickInTheInput(x: x, fromBottom: fromBottom)
                } else {
                    try cs.session.runChecked("xdotool", ["mousemove", "--window", cs.window, String(x), String(y), "click", "1"])
                }
                try trace.waitFor("the press at \(x),\(y) (recorded at line \(line))", from: from) {
                    $0["ev"]?.stringValue == "press"
                }
                try waitUntilQuiet(trace, settledAfter: trace.lastMatchIndex)
            case .focus(let isIn, let line):
                guard isIn != focused else { continue }
                let from = trace.entries.count
                if isIn {
                    try cs.xdotool.focus(cs.window)
                } else {
                    if other == nil { (other, otherWindow) = try cs.launchOtherWindow() }
                    try cs.xdotool.focus(otherWindow!)
                }
                try trace.waitFor("focus \(isIn ? "back" : "out") (recorded at line \(line))", from: from) {
                    $0["ev"]?.stringValue == "focus" && $0["in"]?.boolValue == isIn
                }
                try waitUntilQuiet(trace, settledAfter: trace.lastMatchIndex)
                focused = isIn
            }
        }
        let status = try cs.terminateApp()
        if status != 0 { throw HarnessError("the app exited with status \(status) after the rerun\n" + trace.diagnostics()) }
        let text = try String(contentsOf: trace.url, encoding: .utf8)
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: output, atomically: true, encoding: .utf8)
        let recordedText = try String(contentsOfFile: transcript.name, encoding: .utf8)
        let recorded = InputMethodStates(trace: recordedText, fromLine: firstLine)
        let now = InputMethodStates(trace: text, fromLine: start)
        return Outcome(difference: now.firstDifference(from: recorded, recordedFile: recordedFile, nowFile: output.path),
                       keys: now.keys.count, answers: InputMethodAnswers(trace: text, fromLine: start).answers.count)
    }

    /// Runs the steps through a Wayland engine (`wayland-fcitx5-…`: fcitx5 as sway's input
    /// method, GTK's text-input-v3) in a private headless sway session. The app does not see
    /// the keys fcitx5 takes, so how the engine took each key is not compared, only what it
    /// showed and committed.
    public func runWayland(_ engine: MatrixEngine, output: URL, recordedFile: String) throws -> Outcome {
        guard let wayland = engine.wayland else { throw HarnessError("\(engine.kind.slug) does not run on Wayland") }
        let wl = try WaylandIMSession.start(name: "rerun-\(engine.kind.slug)", desktop: WaylandEngine(engine)?.desktop ?? .sway,
                                            inputMethod: wayland.inputMethod, probe: engine.kind.probe,
                                            appArguments: arguments)
        defer { wl.stop() }
        let trace = wl.trace
        let start = trace.lineCount
        var keysSent = 0
        var focused = true
        var other: AppProcess?
        defer { other?.terminate() }
        func inputContextFocused() throws {
            try Wait.until("fcitx5's input context to have focus", timeout: .seconds(20),
                           diagnostics: { trace.diagnostics(lastLines: 12) }) {
                (try? wl.fcitxController("DebugInfo")).map(WaylandIMSession.hasFocusedWaylandContext) ?? false
            }
        }
        for step in steps {
            switch step {
            case .key(let name, let shift, _, let answered):
                let from = trace.entries.count
                keysSent += 1
                let lower = name.count == 1 && name.uppercased() == name && name.lowercased() != name
                try wl.key([lower ? "shift+" + name.lowercased() : shift ? "shift+" + name : name])
                if answered {
                    _ = trace.poll("an answer to \(name)", timeout: .seconds(10), from: from) {
                        ["preedit-start", "preedit", "preedit-end", "commit"].contains($0["ev"]?.stringValue ?? "")
                            || ($0["ev"]?.stringValue == "surrounding" && $0["kind"]?.stringValue == "delete")
                    }
                }
                try waitUntilQuiet(trace)
            case .focus(let isIn, let line):
                guard isIn != focused else { continue }
                let from = trace.entries.count
                if isIn {
                    try wl.focus(pid: wl.app.pid)
                } else if let other {
                    try wl.focus(pid: other.pid)
                } else {
                    other = try wl.launchOtherWindow().process  // sway focuses it as it maps
                }
                try trace.waitFor("focus \(isIn ? "back" : "out") (recorded at line \(line))", from: from) {
                    $0["ev"]?.stringValue == "focus" && $0["in"]?.boolValue == isIn
                }
                if isIn { try inputContextFocused() }
                try waitUntilQuiet(trace)
                focused = isIn
            case .press(let x, let y, let fromBottom, let line):
                let window = try wl.windowRect(pid: wl.app.pid)
                guard let window else { throw HarnessError("the app's window is not in sway's tree") }
                let from = trace.entries.count
                try wl.click(x: window.x + x, y: window.y + (fromBottom.map { window.height - $0 } ?? y))
                try trace.waitFor("the press (recorded at line \(line))", from: from) { $0["ev"]?.stringValue == "press" }
                // Finishing a composition disables and enables the text input: keys sent
                // before fcitx5's input context has the focus back are lost.
                try inputContextFocused()
                try waitUntilQuiet(trace)
            }
        }
        let status = try wl.terminateApp()
        if status != 0 { throw HarnessError("the app exited with status \(status) after the rerun\n" + trace.diagnostics()) }
        let text = try String(contentsOf: trace.url, encoding: .utf8)
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: output, atomically: true, encoding: .utf8)
        let recorded = InputMethodStates(trace: try String(contentsOfFile: transcript.name, encoding: .utf8), fromLine: firstLine)
        var now = InputMethodStates(trace: text, fromLine: start)
        now.keys = []  // the app saw only the keys fcitx5 passed on: nothing to compare them with
        return Outcome(difference: now.firstDifference(from: recorded, recordedFile: recordedFile, nowFile: output.path),
                       keys: keysSent, answers: InputMethodAnswers(trace: text, fromLine: start).answers.count)
    }

    /// Until the trace has stayed as it is for 200 ms and, with `settledAfter`, the input has
    /// settled after that entry with no answer of the engine since (`settled(after:)`). The
    /// still trace is what lets an answer that comes after a key's first settle arrive before
    /// the next key: overtaken, the rerun would answer differently for no reason of the
    /// engine's. On Wayland the app sees no key fcitx5 takes: the trace's stillness alone.
    private func waitUntilQuiet(_ trace: TraceLog, settledAfter: Int? = nil) throws {
        var seen = (count: -1, since: ContinuousClock.now)
        _ = try Wait.until("the input to settle", timeout: .seconds(20), diagnostics: { trace.diagnostics(lastLines: 20) },
                           failFast: {
                               if let app = trace.watchedProcess, !app.isRunning {
                                   throw HarnessError("the app exited\n" + trace.diagnostics())
                               }
                           }) { () -> Bool? in
            let entries = trace.entries
            if let settledAfter, !entries.settled(after: settledAfter) { return nil }
            let now = ContinuousClock.now
            if entries.count != seen.count { seen = (entries.count, now) }
            return now - seen.since >= .milliseconds(200) ? true : nil
        }
    }
}
