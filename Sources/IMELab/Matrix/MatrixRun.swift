import ComposerCore
import Foundation

extension MatrixScenario {
    /// people.jsonl with one person whose name starts with the engine's word (the
    /// completion scenario's query).
    public static func writeData(for engine: MatrixEngine, in session: TestSession) throws -> URL {
        let dir = session.directory.appendingPathComponent("matrix-data", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let person: [String: String] = ["id": "m1", "name": engine.word + "X", "display": engine.word + "X",
                                       "reading": engine.word + "X", "latin": "matrix"]
        let line = String(decoding: try JSONSerialization.data(withJSONObject: person, options: [.sortedKeys]), as: UTF8.self)
        try (line + "\n").write(to: dir.appendingPathComponent("people.jsonl"), atomically: true, encoding: .utf8)
        try "".write(to: dir.appendingPathComponent("channels.jsonl"), atomically: true, encoding: .utf8)
        return dir
    }

    /// The filler before the composition in the limit scenarios (limit 3): two letters when
    /// the engine's commit is two graphemes or more (one fits, the rest is over), else three
    /// (the limit is full: all of it is over).
    public static func filler(_ engine: MatrixEngine) -> String { engine.committed.count >= 2 ? "ab" : "abc" }

    /// The app's arguments for the scenario; every cell traces its painted frames (the
    /// key → painted frame timing).
    public func arguments(_ engine: MatrixEngine, data: String) -> [String] {
        ["--trace-frames"] + ownArguments(engine, data: data)
    }

    private func ownArguments(_ engine: MatrixEngine, data: String) -> [String] {
        switch self {
        case .composeCommit, .enter, .backSpace, .focusOut: ["--text", ""]
        case .hardLimit: ["--text", engine.hardLimitFiller ?? Self.filler(engine), "--limit", "3", "--limit-mode", "hard"]
        case .softLimit: ["--text", Self.filler(engine), "--limit", "3"]
        case .completion: ["--text", "@", "--data", data]
        case .click: ["--text", "abc"]
        }
    }
}

/// One scenario against the running app on X11; returns the passed cell's one-line reason.
public struct MatrixRun: MatrixTraceReading {
    let cs: ComposerSession
    let engine: MatrixEngine

    public init(cs: ComposerSession, engine: MatrixEngine) {
        self.cs = cs
        self.engine = engine
    }
    var trace: TraceLog { cs.trace }

    public func run(_ scenario: MatrixScenario) throws -> String {
        switch scenario {
        case .composeCommit: try composeAndCommit()
        case .enter: try enterConfirmsThenSends()
        case .hardLimit: try hardLimit()
        case .softLimit: try softLimit()
        case .completion: try completion()
        case .backSpace: try backSpace()
        case .focusOut: try focusOut()
        case .click: try click()
        }
    }

    // MARK: scenarios

    func composeAndCommit() throws -> String {
        let from = try compose()
        try cs.xdotool.key(engine.commitKeys)
        try waitSettled(text: engine.committed)
        try require(!events("send", from: from), "a commit key sent the message")
        try send(engine.committed)
        return "\(keys(engine.compose)) showed \(engine.showing), \(keys(engine.commitKeys)) committed \(quoted(engine.committed)), Enter sent it"
    }

    func enterConfirmsThenSends() throws -> String {
        _ = try compose()
        let enter = trace.entries.count
        try cs.xdotool.key(["Return"])
        try waitSettled(text: engine.enterCommits)
        try require(!events("send", from: enter), "Enter while composing sent the message")
        try send(engine.enterCommits)
        return "Enter while composing committed \(quoted(engine.enterCommits)) and did not send; the next Enter sent it"
    }

    func hardLimit() throws -> String {
        let filler = engine.hardLimitFiller ?? MatrixScenario.filler(engine)
        let keep = max(0, 3 - filler.count)
        let expected = filler + engine.committed.prefix(keep)
        let from = try compose()
        let showing = trace.lastMatchIndex
        let commitFrom = trace.entries.count
        try cs.xdotool.key(engine.commitKeys)
        let cut = String(engine.committed.dropFirst(keep))
        if !cut.isEmpty { try waitForCut(cut, from: commitFrom) }
        try waitSettled(text: expected)
        let entries = trace.entries
        let firstCommit = entries[showing...].first { $0.name == "commit" }?.index ?? entries.count
        try require(!entries[showing..<firstCommit].contains { $0.name == "limit" }, "a cut while the engine composed")
        let removed = cutText(from: from)
        try require(removed == cut, "cut \(quoted(removed)), expected \(quoted(cut))")
        try send(expected)
        return removed.isEmpty
            ? "\(quoted(filler + engine.committed)) fits the limit 3 (\(engine.committed.unicodeScalars.count) scalars, one grapheme): nothing cut"
            : "nothing cut while composing; after the commit \(quoted(removed)) was cut, \(quoted(expected)) kept"
    }

    func softLimit() throws -> String {
        let filler = MatrixScenario.filler(engine)
        let expected = filler + engine.committed
        _ = try compose()
        try cs.xdotool.key(engine.commitKeys)
        try waitSettled(text: expected)
        let overflow = try require(trace.events(named: "overflow").last, "no overflow line")
        let over = expected.count - 3
        try require(overflow["over"]?.intValue == over, "overflow \(overflow), expected over \(over)")
        try require(overflow["start"]?.intValue == expected.prefix(3).unicodeScalars.count, "overflow starts at \(overflow)")
        try require(trace.events(named: "limit").isEmpty, "soft mode cut the text")
        return "\(quoted(expected)): \(over) over the limit 3 coloured, nothing cut"
    }

    func completion() throws -> String {
        let from = trace.entries.count
        try cs.xdotool.key(Array(engine.wordKeys.dropLast()))
        try trace.waitFor("a composition", from: from) { isPreedit($0) && !($0["text"]?.stringValue ?? "").isEmpty }
        let composing = trace.lastMatchIndex
        let commitFrom = trace.entries.count
        try cs.xdotool.key([engine.wordKeys.last!])
        let opened = try trace.waitFor("the list for \(engine.word)", from: commitFrom) {
            $0["ev"]?.stringValue == "completion" && $0["query"]?.stringValue == engine.word
        }
        let entries = trace.entries
        let commit = entries[composing...].first { $0.name == "commit" }?.index ?? entries.count
        try require(!entries[composing..<commit].contains { $0.name == "completion" }, "the list changed while composing")
        try require(opened["items"]?.arrayValue?.first?.stringValue == "m1", "list \(opened)")
        return "the list stayed as it was while composing; after the commit it offered \(engine.word)X for @\(engine.word)"
    }

    func backSpace() throws -> String {
        _ = try compose()
        let at = trace.entries.count
        let base = try settledText(upTo: at)
        try cs.xdotool.key(["BackSpace"])
        if engine.afterBackSpace.isEmpty {
            // The composition was one character: BackSpace takes it (m17n commits it and lets
            // BackSpace delete it): the text is as it was before the composition.
            try waitSettled(text: base)
            return "BackSpace took the composition's only character: the text is \(quoted(base)) again"
        }
        try trace.waitFor("the composition showing \(engine.afterBackSpace)", from: at) {
            isPreedit($0) && $0["text"]?.stringValue == engine.afterBackSpace
        }
        try require(isComposing(trace.entries), "the composition ended")
        try require(!events("commit", from: at), "BackSpace committed")
        return "BackSpace left \(quoted(engine.afterBackSpace)) composing; nothing committed"
    }

    func focusOut() throws -> String {
        let (other, otherWindow) = try cs.launchOtherWindow()
        defer { other.terminate(signal: SIGTERM) }
        try cs.xdotool.focus(cs.window)
        let from = try compose()
        try cs.xdotool.focus(otherWindow)
        try trace.waitFor("focus out", from: from) { $0["ev"]?.stringValue == "focus" && $0["in"]?.boolValue == false }
        let out = trace.lastMatchIndex
        // What was committed before focus left (an engine may commit a first part before
        // its composition starts: vi-telex's initial consonant).
        let base = try settledText(upTo: out)
        var text = base
        switch engine.focusOut {
        case .commits(let committed):
            text = base + committed
            try waitSettled(text: text)
        case .drops:
            try waitSettled(text: text)
            try require(!events("commit", from: out), "the engine committed on focus out")
        case .keeps, .commitsWhereClicked:
            break
        }
        try cs.xdotool.focus(cs.window)
        try trace.waitFor("focus back", from: out) { $0["ev"]?.stringValue == "focus" && $0["in"]?.boolValue == true }
        if case .keeps(let confirmed) = engine.focusOut {
            let enter = trace.entries.count
            try cs.xdotool.key(["Return"])
            text = base + confirmed
            try waitSettled(text: text)
            try require(!events("send", from: enter), "Enter sent while the composition was kept")
        }
        // Typing goes on: the same keys compose and commit again (what they give may differ:
        // a Vietnamese engine reads the word already before the caret), and Enter sends
        // exactly the text.
        let again = trace.entries.count
        try cs.xdotool.key(engine.compose)
        try trace.waitFor("a composition again", from: again) { isPreedit($0) && !($0["text"]?.stringValue ?? "").isEmpty }
        let commitFrom = trace.entries.count
        try cs.xdotool.key(engine.commitKeys)
        // The text the commit keys left: settled after the last of them reached the app (an
        // engine may commit a first letter on its own before composing the rest: vi-telex's
        // "t" gave a settled "…t" while "iếng" was still on its way).
        try trace.waitFor("the last commit key", from: commitFrom) {
            $0["ev"]?.stringValue == "key" && $0["keyval"]?.stringValue == engine.commitKeys.last
        }
        let keyIndex = trace.lastMatchIndex
        let all = try Wait.until("a commit after focus came back", timeout: .seconds(20),
                                 diagnostics: { trace.diagnostics(lastLines: 25) }) { () -> String? in
            let entries = trace.entries
            guard !isComposing(entries), let settled = entries.last(where: { $0.name == "text" }), settled.index > keyIndex,
                  let last = settled.value["text"]?.stringValue,
                  last.unicodeScalars.starts(with: text.unicodeScalars), last != text else { return nil }
            return last
        }
        try send(all)
        return "focus out: the engine \(engine.focusOut); the text stayed consistent and typing went on"
    }

    func click() throws -> String {
        _ = try compose()
        let before = try settledText()
        let clickAt = trace.entries.count
        try cs.clickInTheInput()
        let moved = try trace.waitFor("the caret moved by the click", from: clickAt) {
            $0["ev"]?.stringValue == "selection" && ($0["caret"]?.intValue ?? 99) < before.unicodeScalars.count
        }
        let caret = moved["caret"]?.intValue ?? 0
        var text = before
        switch engine.click {
        case .drops:
            try waitSettled(text: before)
            try require(!events("commit", from: clickAt), "the engine committed on the click")
        case .commits(let committed):
            // Committed where it was drawn (the caret before the click: the text's end).
            text = before + committed
            try waitSettled(text: text)
        case .commitsWhereClicked(let committed):
            let scalars = Array(before.unicodeScalars)
            var view = String.UnicodeScalarView(scalars[..<caret])
            view.append(contentsOf: committed.unicodeScalars)
            view.append(contentsOf: scalars[caret...])
            text = String(view)
            try waitSettled(text: text)
        case .keeps(let confirmed):
            text = before + confirmed
        }
        try send(text)
        let how: String
        switch engine.click {
        case .drops: how = "the composition was dropped"
        case .commits(let kept): how = "the composition was finished first, \(quoted(kept)) kept where it was drawn"
        case .commitsWhereClicked(let kept): how = "the composition was finished first; fcitx5 committed \(quoted(kept)) where the click put the caret"
        case .keeps(let kept): how = "the composition went on (\(quoted(kept)))"
        }
        return "a click mid-composition (caret to \(caret)): \(how); Enter then sent \(quoted(text))"
    }

    // MARK: steps

    /// Types the engine's compose keys and waits until the composition shows; returns the
    /// index the keys started at.
    func compose() throws -> Int {
        let from = trace.entries.count
        try cs.xdotool.key(engine.compose)
        try trace.waitFor("the composition showing \(engine.showing)", from: from) {
            isPreedit($0) && ($0["text"]?.stringValue ?? "").contains(engine.showing)
        }
        return from
    }

    /// Enter, and the `send` of exactly `text` (after the composition ended: an engine may
    /// end its emptied preedit just after its commit, and an Enter before that only
    /// confirms).
    func send(_ text: String) throws {
        try waitSettled(text: text)
        let from = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("Enter to send \(quoted(text))", from: from) {
            $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue == text
        }
    }

    /// Waits until the settled text is `text` and nothing is composing.
    func waitSettled(text: String) throws {
        _ = try Wait.until("the text \(quoted(text)) with nothing composing", timeout: .seconds(20),
                       diagnostics: { trace.diagnostics(lastLines: 25) },
                       failFast: {
                           if let app = trace.watchedProcess, !app.isRunning { throw MatrixFailure("the app exited\n" + trace.diagnostics()) }
                       }) { () -> Bool? in
            let entries = trace.entries
            let last = entries.last { $0.name == "text" }?.value["text"]?.stringValue
            return last == text && !isComposing(entries) ? true : nil
        }
    }
}

func require<T>(_ value: T?, _ message: @autoclosure () -> String) throws -> T {
    guard let value else { throw MatrixFailure(message()) }
    return value
}
