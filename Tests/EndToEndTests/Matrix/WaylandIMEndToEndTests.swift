import ComposerCore
import Foundation
import TestHarness
import Testing

/// The Wayland input-method path end to end: the composer on headless sway 1.7 with GTK's
/// `wayland` IM module (text-input-v3) and fcitx5 as the compositor's input method
/// (input-method-v2), typed into through one persistent virtual keyboard
/// (`WaylandIMSession`, Tests/Drivers/vkbd.c). One test per engine, each in its own
/// session; the app is started anew for each scenario. Each cell is recorded for
/// docs/ime-matrix.md (`MatrixRow`, rows `wayland-fcitx5-anthy` and `wayland-fcitx5-hangul`);
/// a failed cell fails the test. The scenarios not run here (soft limit, completion, focus
/// out, click) are not recorded: they apply, they are just not covered on Wayland yet.
@Suite(.serialized)
struct WaylandIMEndToEndTests {
    @Test(.timeLimit(.minutes(3)), arguments: WaylandEngine.all)
    func engineThroughTheWaylandScenarios(_ engine: WaylandEngine) throws {
        let row = MatrixRow(engine.matrix)
        defer { try? row.write() }
        let wl = try WaylandIMSession.start(name: engine.matrix.kind.slug, inputMethod: engine.inputMethod,
                                            appArguments: WaylandEngine.scenarios[0].arguments)
        defer { wl.stop() }
        print("WaylandIMSession \(engine): " + wl.startupTimings
            .map { "\($0.step) \(Self.ms($0.duration))" }.joined(separator: ", "))

        // GTK_IM_MODULE=wayland: the app reports that module, on the Wayland backend (with
        // it unset the app reports "auto", though GTK then picks the same module).
        let start = try #require(wl.trace.events(named: "start").first)
        #expect(start["backend"]?.stringValue == "wayland", "start: \(start)")
        #expect(start["im_module"]?.stringValue == "wayland", "start: \(start)")

        for (number, scenario) in WaylandEngine.scenarios.enumerated() {
            if let known = engine.knownFailures[scenario.scenario] {
                var failure: String?
                withKnownIssue(Comment(rawValue: known)) {
                    do {
                        try wl.restartApp(arguments: scenario.arguments)
                        _ = try WaylandMatrixRun(wl: wl, engine: engine).run(scenario.scenario)
                    } catch {
                        failure = "\(error)".split(separator: "\n").first.map(String.init)
                        throw error
                    }
                }
                row.record(scenario.scenario, .failed, "known failure: \(known) (seen: \(failure ?? "it passed: update the expectation"))")
                continue
            }
            do {
                if number > 0 { try wl.restartApp(arguments: scenario.arguments) }
                let reason = try WaylandMatrixRun(wl: wl, engine: engine).run(scenario.scenario)
                row.record(scenario.scenario, .passed, reason)
            } catch {
                wl.session.markFailed()
                row.record(scenario.scenario, .failed, "\(error)")
                Issue.record("\(engine.matrix.kind.slug) \(scenario.scenario.rawValue): \(error)")
            }
        }
        #expect(try wl.terminateApp() == 0, "\(wl.app.diagnostics())")
        wl.stop()
        #expect(wl.leftoverProcesses().isEmpty, "processes left after stop: \(wl.leftoverProcesses())")
    }

    static func ms(_ d: Duration) -> String {
        let c = d.components
        return "\(c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000) ms"
    }
}

/// An engine on the Wayland path and what each scenario expects of it.
struct WaylandEngine: Sendable, CustomStringConvertible {
    let matrix: MatrixEngine
    let inputMethod: Fcitx5.InputMethod
    /// Keys that turn the composition into something else before it is committed (anthy's
    /// Space converts), and what the composition then shows.
    let convert: (keys: [String], showing: String)?
    /// The hard-limit scenario (text "ab", limit 3): the keys, what the composition shows
    /// while over the limit, the commit keys, what is kept and what is cut.
    let hardLimit: (compose: [String], showing: String, commitKeys: [String], kept: String, cut: String)

    /// Scenarios that fail today for a known reason: the test expects the failure (Swift
    /// Testing's `withKnownIssue`, which fails once it no longer happens) and the matrix shows
    /// it as failed, with the reason.
    var knownFailures: [MatrixScenario: String] = [:]

    var description: String { matrix.kind.slug }

    static let scenarios: [(scenario: MatrixScenario, arguments: [String])] = [
        (.composeCommit, ["--text", ""]),
        (.enter, ["--text", ""]),
        (.backSpace, ["--text", ""]),
        (.hardLimit, ["--text", "ab", "--limit", "3", "--limit-mode", "hard"]),
    ]

    static let all: [WaylandEngine] = [
        // k o n e k o → こねこ; Space converts to 子猫 (a fresh HOME: anthy has learnt
        // nothing); Return commits. fcitx5 keeps anthy's Return (the app never sees it).
        WaylandEngine(
            matrix: MatrixEngine(kind: .waylandFcitxAnthy, compose: ["k", "o", "n", "e", "k", "o"], showing: "こねこ",
                                 commitKeys: ["Return"], committed: "子猫", enterCommits: "こねこ", afterBackSpace: "こね",
                                 wordKeys: ["k", "o", "n", "e", "k", "o", "Return"], word: "こねこ",
                                 focusOut: .commits("こねこ"), click: .commitsWhereClicked("こねこ")),
            inputMethod: .anthy,
            convert: (["space"], "子猫"),
            // ab + 子猫 is one over: 猫 is cut once committed, nothing while composing.
            hardLimit: (["k", "o", "n", "e", "k", "o"], "こねこ", ["space", "Return"], "ab子", "猫")),
        // g k s r m f: 한 is committed at r, 글 composes; Space commits 글 and types the space.
        // Return while composing: fcitx5-hangul commits and passes Return on to the app, which
        // gets it only after the commit; the key's time (before the commit arrived) marks it
        // forwarded, and it only confirms (`ForwardedKeyClock`).
        WaylandEngine(
            matrix: MatrixEngine(kind: .waylandFcitxHangul, compose: ["g", "k", "s", "r", "m", "f"], showing: "글",
                                 commitKeys: ["space"], committed: "한글 ", enterCommits: "한글", afterBackSpace: "그",
                                 wordKeys: ["g", "k", "s", "r", "m", "f", "Return"], word: "한글",
                                 focusOut: .commits("글"), click: .commitsWhereClicked("글")),
            inputMethod: .hangul,
            convert: nil,
            // ab + 한 fills the limit; 글 composes over it, uncut; Space commits "글 ": cut.
            hardLimit: (["g", "k", "s", "r", "m", "f"], "글", ["space"], "ab한", "글 ")),
    ]
}

/// One scenario against the running app on Wayland; returns the passed cell's reason.
struct WaylandMatrixRun {
    let wl: WaylandIMSession
    let engine: WaylandEngine
    var matrix: MatrixEngine { engine.matrix }
    var trace: TraceLog { wl.trace }

    func run(_ scenario: MatrixScenario) throws -> String {
        switch scenario {
        case .composeCommit: try composeAndCommit()
        case .enter: try enterConfirmsThenSends()
        case .backSpace: try backSpace()
        case .hardLimit: try hardLimit()
        default: throw MatrixFailure("\(scenario.rawValue) is not covered on Wayland")
        }
    }

    // MARK: scenarios

    func composeAndCommit() throws -> String {
        let from = try compose(matrix.compose, showing: matrix.showing)
        var how = "\(keys(matrix.compose)) showed \(quoted(matrix.showing))"
        if let convert = engine.convert {
            let at = trace.entries.count
            try wl.key(convert.keys)
            try trace.waitFor("the composition converted to \(convert.showing)", from: at) {
                isPreedit($0) && $0["text"]?.stringValue == convert.showing
            }
            try require(!events("commit", from: at), "\(keys(convert.keys)) committed instead of converting")
            how += ", \(keys(convert.keys)) converted it to \(quoted(convert.showing))"
        }
        let commit = trace.entries.count
        try wl.key(matrix.commitKeys)
        try waitSettled(text: matrix.committed, noSendFrom: commit)
        try barrier()
        try require(!events("send", from: from), "the commit key sent the message")
        try send(matrix.committed)
        return how + ", \(keys(matrix.commitKeys)) committed \(quoted(matrix.committed)), Enter sent it"
    }

    func enterConfirmsThenSends() throws -> String {
        _ = try compose(matrix.compose, showing: matrix.showing)
        let enter = trace.entries.count
        try wl.key(["Return"])
        try waitSettled(text: matrix.enterCommits, noSendFrom: enter)
        // A Return the input method passes on after its commit arrives after the commit:
        // a later key that reaches the app proves it was handled (or never came).
        try barrier()
        let sent = trace.entries.dropFirst(enter).filter { $0.name == "send" }.map(\.line)
        try require(sent.isEmpty, "Enter while composing sent the message: \(sent.joined(separator: " "))")
        let passedOn = trace.entries.dropFirst(enter).filter { $0.name == "key" && $0.value["keyval"]?.stringValue == "Return" }
        try require(passedOn.allSatisfy { $0.value["forwarded"]?.boolValue == true },
                    "a Return passed on after the commit is not marked forwarded: \(passedOn.map(\.line))")
        try send(matrix.enterCommits)
        return "Enter while composing committed \(quoted(matrix.enterCommits)) and did not send"
            + (passedOn.isEmpty ? "" : " (fcitx5 passed that Return on to the app after its commit; its press time marked it forwarded)")
            + "; the next Enter sent it"
    }

    func backSpace() throws -> String {
        _ = try compose(matrix.compose, showing: matrix.showing)
        let at = trace.entries.count
        let before = try settledText(upTo: at)
        try wl.key(["BackSpace"])
        try trace.waitFor("the composition showing \(matrix.afterBackSpace)", from: at) {
            isPreedit($0) && $0["text"]?.stringValue == matrix.afterBackSpace
        }
        try require(isComposing(trace.entries), "the composition ended")
        try require(!events("commit", from: at), "BackSpace committed")
        let after = try settledText()
        try require(after == before, "BackSpace changed the committed text to \(quoted(after))")
        return "BackSpace left \(quoted(matrix.afterBackSpace)) composing; nothing committed, the text unchanged"
    }

    func hardLimit() throws -> String {
        let limit = engine.hardLimit
        let from = try compose(limit.compose, showing: limit.showing)
        let showing = trace.lastMatchIndex
        let commit = trace.entries.count
        try wl.key(limit.commitKeys)
        try waitSettled(text: limit.kept, noSendFrom: commit)
        let entries = trace.entries
        let lastCommit = entries[showing...].last { $0.name == "commit" }?.index ?? entries.count
        try require(!entries[from..<lastCommit].contains { $0.name == "limit" }, "a cut while the engine composed")
        let removed = entries[from...].filter { $0.name == "limit" }.compactMap { $0.value["removed"]?.stringValue }.joined()
        try require(removed == limit.cut, "cut \(quoted(removed)), expected \(quoted(limit.cut))")
        try barrier()
        try require(!events("send", from: from), "the commit key sent the message")
        try send(limit.kept)
        return "\(quoted("ab")) + \(keys(limit.compose)): nothing cut while composing; after the commit "
            + "\(quoted(removed)) was cut, \(quoted(limit.kept)) kept and sent"
    }

    // MARK: steps

    /// Types `keys` and waits until the composition shows `showing`; returns the trace
    /// index the keys started at.
    func compose(_ keys: [String], showing: String) throws -> Int {
        let from = trace.entries.count
        try wl.key(keys)
        try trace.waitFor("the composition showing \(showing)", from: from) {
            isPreedit($0) && ($0["text"]?.stringValue ?? "").contains(showing)
        }
        return from
    }

    /// A key that every engine passes on when nothing is composing and that changes
    /// nothing at the end of the text (Right): once the app traced it, every key before
    /// it was handled.
    func barrier() throws {
        let from = trace.entries.count
        try wl.key(["Right"])
        try trace.waitFor("Right to reach the app", from: from) {
            $0["ev"]?.stringValue == "key" && $0["keyval"]?.stringValue == "Right"
        }
    }

    /// Enter, and the `send` of exactly `text`.
    func send(_ text: String) throws {
        try waitSettled(text: text)
        let from = trace.entries.count
        try wl.key(["Return"])
        try trace.waitFor("Enter to send \(quoted(text))", from: from) {
            $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue == text
        }
    }

    /// Waits until the settled text is `text` and nothing is composing; fails at once if
    /// the message was sent at or after trace index `noSendFrom`.
    func waitSettled(text: String, noSendFrom: Int? = nil) throws {
        _ = try Wait.until("the text \(quoted(text)) with nothing composing", timeout: .seconds(20),
                           diagnostics: { trace.diagnostics(lastLines: 25) },
                           failFast: {
                               if let app = trace.watchedProcess, !app.isRunning { throw MatrixFailure("the app exited\n" + trace.diagnostics()) }
                               if let noSendFrom, let sent = trace.entries.dropFirst(noSendFrom).first(where: { $0.name == "send" }) {
                                   let passedOn = trace.entries.dropFirst(noSendFrom)
                                       .contains { $0.name == "key" && $0.value["keyval"]?.stringValue == "Return" }
                                   throw MatrixFailure("the message was sent before the commit was confirmed: \(sent.line)"
                                       + (passedOn ? " (the input method committed and passed Return on to the app)" : "")
                                       + "\n" + trace.diagnostics(lastLines: 25))
                               }
                           }) { () -> Bool? in
            let entries = trace.entries
            let last = entries.last { $0.name == "text" }?.value["text"]?.stringValue
            return last == text && !isComposing(entries) ? true : nil
        }
    }

    func settledText(upTo end: Int? = nil) throws -> String {
        let entries = trace.entries
        return try require(entries.prefix(end ?? entries.count).last { $0.name == "text" }?.value["text"]?.stringValue,
                           "no text line")
    }

    func events(_ name: String, from: Int) -> Bool {
        trace.entries.dropFirst(from).contains { $0.name == name }
    }

    func isPreedit(_ line: JSONValue) -> Bool { line["ev"]?.stringValue == "preedit" }

    func isComposing(_ entries: [TraceLog.Entry]) -> Bool {
        var composing = false
        for e in entries {
            switch e.name {
            case "preedit-start": composing = true
            case "preedit": composing = !(e.value["text"]?.stringValue ?? "").isEmpty
            case "preedit-end": composing = false
            default: break
            }
        }
        return composing
    }

    func keys(_ names: [String]) -> String { names.joined(separator: " ") }
    func quoted(_ s: String) -> String { "\u{201C}\(s)\u{201D}" }
}
