import Foundation

/// One scenario against another application (`PeerSession`); returns the passed cell's
/// one-line account, throws what failed. The same keys and expectations as the composer's
/// `MatrixRun` (the engine's file), judged by what a person sees: the input's text and the
/// conversation, read through AT-SPI. A composition is not in the accessible text (GTK keeps
/// it out of the buffer), so each scenario ends with keys whose result shows whether
/// anything was lost, doubled or sent too soon.
public struct PeerRun {
    /// The scenarios the lab runs against an app; an app's file says why the others do
    /// not apply to it (`PeerApp.notApplicable`).
    public static let scenarios: [MatrixScenario] = [.composeCommit, .enter, .backSpace, .focusOut, .click]

    let ps: PeerSession
    let engine: MatrixEngine

    public init(ps: PeerSession, engine: MatrixEngine) {
        self.ps = ps
        self.engine = engine
    }

    /// Why `scenario` cannot be judged with `engine` through what an app shows, if so.
    public static func notApplicable(_ scenario: MatrixScenario, engine: MatrixEngine, app: PeerApp) -> String? {
        switch scenario {
        case .focusOut where engine.focusOut.isKeeps && app.knownFailure(engine: engine.kind.slug, scenario: .enter) != nil:
            return "\(engine.kind.slug) keeps composing through focus out, judged by confirming with Return, which "
                + "\(app.title) does not give the input method (enter-confirms-then-sends's known failure)"
        case .focusOut where app.knownFailure(engine: engine.kind.slug, scenario: .composeCommit) != nil,
             .click where app.knownFailure(engine: engine.kind.slug, scenario: .composeCommit) != nil:
            // (Judged by what the next commit and Enter take: the engine's commit key must
            // reach it.)
            return "it is judged by composing and committing again with \(engine.commitKeys.joined(separator: " ")), "
                + "which \(app.title) does not give \(engine.kind.slug) (compose-commit's known failure)"
        case .backSpace where engine.afterBackSpace.isEmpty:
            return "BackSpace takes the whole composition of \(engine.kind.slug): nothing is left to read"
        case .backSpace where engine.enterCommits != engine.showing:
            return "\(engine.kind.slug)'s Enter commits other text than it shows (\(engine.showing) → \(engine.enterCommits)): "
                + "what BackSpace left cannot be read back"
        default:
            return nil
        }
    }

    public func run(_ scenario: MatrixScenario) throws -> String {
        try ps.clear()
        switch scenario {
        case .composeCommit: return try composeAndCommit()
        case .enter: return try enterWhileComposing(then: engine.enterCommits, keys: engine.compose)
        case .backSpace:
            let account = try enterWhileComposing(then: engine.afterBackSpace, keys: engine.compose + ["BackSpace"])
            return "BackSpace in the composition, then " + account
        case .focusOut: return try focusOut()
        case .click: return try click()
        default:
            throw MatrixFailure("the lab does not run \(scenario.rawValue) against an app")
        }
    }

    // MARK: scenarios

    func composeAndCommit() throws -> String {
        let log = ps.log
        try ps.xdotool.key(engine.compose + engine.commitKeys)
        let outcome = try settle(expecting: engine.committed, logBefore: log)
        if let sent = outcome.sent {
            throw MatrixFailure("\(keys(engine.commitKeys)) (the engine's commit key) sent \(quoted(sent)): the app took it as its own")
        }
        try require(outcome.text == engine.committed, "the input holds \(quoted(outcome.text)), expected \(quoted(engine.committed))")
        let account = "\(keys(engine.compose)) \(keys(engine.commitKeys)) committed \(quoted(engine.committed))"
        return account + ", " + (try pressEnterOnCommittedText(engine.committed))
    }

    /// Types `keys` (a composition), presses Return and judges it: the engine either keeps
    /// Enter (it only commits: the text then holds `commits`, nothing sent, no new line) or
    /// passes it on after its commit (ibus-hangul: the app then sends `commits` whole, or
    /// starts a line after it). Anything else lost, doubled or sent part of the text.
    func enterWhileComposing(then commits: String, keys typed: [String]) throws -> String {
        let log = ps.log
        try ps.xdotool.key(typed + ["Return"])
        let outcome = try settle(expecting: commits, logBefore: log)
        switch ps.peer.enter {
        case .sends:
            if outcome.sent == nil {
                try require(outcome.text == commits,
                            "Enter while composing left \(quoted(outcome.text)) in the input, expected \(quoted(commits)) committed")
            }
            // Then Enter again: the conversation must have gained exactly the text, once —
            // sent by the first Enter (an engine that passes it on after its commit:
            // ibus-hangul) or by this one. A first Enter that sent part of it, or sent before
            // the commit, shows as a second message or a wrong one.
            try ps.xdotool.key(["Return"])
            let messages = try settledMessages(since: log)
            // (An app read through labels shows its sender and time as lines of their own.)
            let exact = ps.peer.readsMessagesExactly
            try require(messages.last == asSent(commits) && messages.filter { $0 == asSent(commits) }.count == 1
                            && (!exact || messages.count == 1),
                        "Enter while composing, then Enter: the conversation gained \(messages.map(quoted)), expected \(quoted(asSent(commits))) once")
            try require(ps.text.isEmpty, "the input kept \(quoted(ps.text)) after the send")
            return outcome.sent == nil
                ? "Enter while composing committed \(quoted(commits)) and sent nothing; the next Enter sent it"
                : "Enter while composing: the engine committed \(quoted(commits)) and passed Enter on, which sent it whole"
        case .newline:
            // Then Enter alone (a key the engine lets go of comes after the keys typed with
            // it in one burst: Enter and a word typed together gave "いいぬ\n"), and its line.
            if outcome.text == commits + "\n" {
                return "Enter while composing: the engine committed \(quoted(commits)) and passed Enter on: a new line after it"
            }
            try require(outcome.text == commits,
                        "Enter while composing left \(quoted(outcome.text)), expected \(quoted(commits)) (or it and a new line)")
            try ps.xdotool.key(["Return"])
            // Two lines when the engine's passed-on Enter came after its commit was read.
            let lines = try Wait.until("\(ps.peer.app) to start a line", timeout: .seconds(20),
                                       diagnostics: { "the input holds \(quoted(ps.text))\n" + ps.trace.diagnostics() }) { () -> Int? in
                ps.text == commits + "\n" ? 1 : ps.text == commits + "\n\n" ? 2 : nil
            }
            return lines == 1 ? "Enter while composing committed \(quoted(commits)) and started no line; the next Enter started one"
                : "Enter while composing: the engine committed \(quoted(commits)) and passed Enter on (a line after it, read late); the next Enter started another"
        }
    }

    /// The messages the conversation gained since it held `before`, once the input is
    /// empty after a send (the last Enter's effect shown).
    func settledMessages(since before: String) throws -> [String] {
        try Wait.until("\(ps.peer.app) to send", timeout: .seconds(20),
                       diagnostics: { "the input holds \(quoted(ps.text)); the conversation: \(quoted(ps.log))\n" + ps.trace.diagnostics() }) { () -> [String]? in
            ps.text.isEmpty && ps.log != before ? messages(since: before) : nil
        }
    }

    /// Focus leaves mid-composition (another window takes it) and comes back. The engine
    /// then commits the composition, drops it (as its file's `focus_out` may say: the
    /// composer loses it too) or keeps composing; anything else is lost or doubled text.
    /// The same keys compose and commit again after it and Enter takes it all: that last
    /// text tells what focus left (the keys reach the engine after the focus change, so
    /// nothing of it can come later).
    func focusOut() throws -> String {
        let (other, otherWindow) = try launchOtherWindow()
        defer { other.terminate(signal: SIGTERM) }
        try ps.xdotool.focus(ps.window)
        try waitForFocus(true)
        try typeComposition()
        try ps.xdotool.focus(otherWindow)
        try waitForFocus(false)
        try ps.xdotool.focus(ps.window)
        try waitForFocus(true)
        if case .keeps(let kept) = engine.focusOut {
            try ps.xdotool.key(["Return"])
            try ps.waitForText(kept)
            return "focus out: the composition went on (\(quoted(kept))); " + (try typingGoesOn(after: kept))
        }
        let typed = ps.trace.entries.count
        try ps.xdotool.key(engine.compose + engine.commitKeys)
        try waitForCommitAtTheEnd(from: typed)
        let all = try finishWithEnter()
        let tail = asSent(engine.committed)
        guard all.hasSuffix(tail) else {
            throw MatrixFailure("after focus came back, \(keys(engine.compose)) \(keys(engine.commitKeys)) and Enter gave \(quoted(all))")
        }
        let left = String(all.dropLast(tail.count))
        let composed = composition(engine.focusOut) ?? engine.showing
        if left.isEmpty {
            guard engine.focusOut == .drops else {
                throw MatrixFailure("focus out lost the composition \(quoted(composed)): Enter took \(quoted(all))")
            }
            return "focus out dropped the composition (as the engine does in the composer); typing went on and Enter took \(quoted(all))"
        }
        guard Self.unique([composed, engine.showing, engine.enterCommits, engine.committed]).contains(left) else {
            throw MatrixFailure("focus out left \(quoted(left)) (the composition showed \(quoted(engine.showing))); Enter took \(quoted(all))")
        }
        return "focus out committed \(quoted(left)); typing went on and Enter took \(quoted(all))"
    }

    /// A click in the input mid-composition, left of the text, after a committed word. The
    /// composition is committed where it was drawn or where the click put the caret, or
    /// dropped where the engine's file says the composer drops it too; anything else lost
    /// or doubled text. Then the caret goes to the end, the same keys compose and commit
    /// again, and Enter takes it all: that last text tells what the click did.
    func click() throws -> String {
        try ps.xdotool.key(engine.compose + engine.commitKeys)
        let before = engine.committed
        try ps.waitForText(before)
        try typeComposition()
        let shown = ps.trace.events(named: "text").last
        let first = try require(shown?["first"]?.arrayValue?.compactMap(\.intValue), "the watcher gave no place for the first character")
        try require(first.count == 4 && first[3] > 0, "the first character's place \(first)")
        let point = try ps.windowPoint(x: first[0] + 1, y: first[1] + first[3] / 2,
                                       frame: shown?["frame"]?.arrayValue?.compactMap(\.intValue) ?? [])
        // On the first character's left edge: the caret goes before the text (or the
        // composition is committed first), then typing goes on at the end as a person's
        // would, once the click has shown (keys in the same instant as the click's reset of
        // the input method reach ibus-hangul in pieces).
        let clicked = ps.trace.entries.count
        try ps.session.runChecked("xdotool", ["mousemove", "--window", ps.window, String(point.x), String(point.y), "click", "1"])
        try ps.trace.waitFor("the click's effect on the input", from: clicked) { $0["ev"]?.stringValue == "text" }
        // Control+End alone first, answered: an engine lets it go back to the app, which
        // moves the caret when it gets it; typed with the word, it came after the word's
        // first keys and its reset of the input method took them (GNOME Text Editor ×
        // ibus-hangul: "ㄴ " where g k s space type "한 ").
        let mark = ps.keyAnswers?.mark
        try ps.xdotool.key(["ctrl+End"])
        if let mark { try ps.keyAnswers?.waitUntilAnswered(since: mark, last: "ctrl+End") }
        let typed = ps.trace.entries.count
        try ps.xdotool.key(engine.compose + engine.commitKeys)
        try waitForCommitAtTheEnd(from: typed)
        let all = try finishWithEnter()
        if all == asSent(before + engine.committed) {
            guard engine.click == .drops else {
                throw MatrixFailure("a click mid-composition lost \(quoted(engine.showing)): Enter took \(quoted(all))")
            }
            return "a click mid-composition dropped it (as the engine does in the composer); typing went on and Enter took \(quoted(all))"
        }
        // What the composition is as text: what it showed, or what it commits (GTK's simple
        // context shows "ue9" for é).
        for composed in Self.unique([composition(engine.click), engine.showing, engine.enterCommits, engine.committed].compactMap { $0 }) {
            if all == asSent(before + composed + engine.committed) {
                return "a click mid-composition committed \(quoted(composed)) where it was drawn; typing went on and Enter took \(quoted(all))"
            }
            if all == asSent(composed + before + engine.committed) {
                return "a click mid-composition committed \(quoted(composed)) where the click put the caret; typing went on and Enter took \(quoted(all))"
            }
        }
        throw MatrixFailure("a click mid-composition after \(quoted(before)) (composing \(quoted(engine.showing))), then typing: Enter took \(quoted(all))")
    }

    /// After a cell that did not pass: ends a composition it may have left in the input
    /// method, which would take the next cell's keys (Dino kept Return from the engine), and
    /// waits until what the input method still had to answer has landed, before the next
    /// cell's clear(). Escape cancels it for the engines whose probe it ends (anthy, GTK's
    /// simple context); the others (Hangul: a BackSpace takes one jamo, and ibus-hangul's
    /// Escape is its off key, to Latin input) end it on focus out, the focus going to another
    /// window and back. Dino × fcitx5-hangul's send left 하 composing, which the next cell's
    /// first key committed ("하한" for 한); BackSpaces, one per key, still left "ㅎ" once.
    func endLeftoverComposition() throws {
        if (engine.kind.probe?.cancelKey ?? "Escape") == "Escape" {
            try ps.xdotool.key(["Escape"])
        } else {
            let (other, otherWindow) = try launchOtherWindow()
            defer { other.terminate(signal: SIGTERM) }
            try ps.xdotool.focus(otherWindow)
            try waitForFocus(false)
            try ps.xdotool.focus(ps.window)
            try waitForFocus(true)
        }
        try ps.settle()
    }

    static func unique(_ texts: [String]) -> [String] {
        texts.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// Waits until the commit keys' text is at the end of the input (a text line read after
    /// the keys, index `from` on, the latest), before Enter: an engine that commits and
    /// passes its key on (ibus-hangul's space) has that key typed after the next one when
    /// they come in one burst (IBus's GTK module: GNOME Text Editor got "한\n " for space
    /// and Return), which is not what these scenarios are about.
    func waitForCommitAtTheEnd(from: Int) throws {
        // The text when the keys were sent: the commit makes it longer (a line read after
        // the keys may still be an earlier key's).
        let before = ps.trace.entries.prefix(from).last(where: { $0.name == "text" })?.value["text"]?.stringValue ?? ""
        _ = try Wait.until("\(quoted(engine.committed)) committed at the end of \(ps.peer.app)'s input", timeout: .seconds(20),
                           diagnostics: { "the input holds \(quoted(ps.text))\n" + ps.trace.diagnostics() }) { () -> Bool? in
            guard let last = ps.trace.entries.last(where: { $0.name == "text" }), last.index >= from,
                  let text = last.value["text"]?.stringValue, text.hasSuffix(engine.committed),
                  text.unicodeScalars.count >= before.unicodeScalars.count + engine.committed.unicodeScalars.count else { return nil }
            return true
        }
    }

    /// What an ending commits, if it commits.
    func composition(_ ending: MatrixEngine.Ending) -> String? {
        switch ending {
        case .commits(let text), .commitsWhereClicked(let text), .keeps(let text): text
        case .drops: nil
        }
    }

    /// Presses Return on committed text and gives what it took: the message a chat app sent
    /// (the input then empty), or an editor's text before the new line.
    func finishWithEnter() throws -> String {
        let log = ps.log
        try ps.xdotool.key(["Return"])
        switch ps.peer.enter {
        case .sends:
            let outcome = try settle(expecting: nil, logBefore: log)
            let sent = try requireSent(outcome)
            try require(outcome.text.isEmpty, "Enter sent \(quoted(sent)) but left \(quoted(outcome.text)) in the input")
            return sent
        case .newline:
            let text = try Wait.until("\(ps.peer.app) to start a line", timeout: .seconds(20),
                                      diagnostics: { "the input holds \(quoted(ps.text))\n" + ps.trace.diagnostics() }) { () -> String? in
                let text = ps.text
                return text.hasSuffix("\n") ? text : nil
            }
            return String(text.dropLast())
        }
    }

    /// The same keys compose and commit again after `text`, and Enter takes the whole text.
    func typingGoesOn(after text: String) throws -> String {
        try ps.xdotool.key(engine.compose + engine.commitKeys)
        let all = text + engine.committed
        try ps.waitForText(all)
        return "typing went on (\(quoted(all))), " + (try pressEnterOnCommittedText(all))
    }

    /// Types the engine's composition and waits until the input method has answered each
    /// of its keys (`KeyAnswers`): what focus out or a click then does is the engine's
    /// answer to the whole composition, not to the keys it had taken so far.
    func typeComposition() throws {
        let mark = ps.keyAnswers?.mark
        try ps.xdotool.key(engine.compose)
        if let mark, let last = engine.compose.last { try ps.keyAnswers?.waitUntilAnswered(since: mark, last: last) }
    }

    /// A second X client (xev) to take the keyboard focus, and its window once mapped.
    func launchOtherWindow() throws -> (process: AppProcess, window: String) {
        let other = try ps.session.launch("xev", executable: "xev", arguments: ["-event", "focus"])
        return (other, try ps.xdotool.waitForWindow(pid: other.pid, name: "Event Tester", process: other))
    }

    func waitForFocus(_ focused: Bool) throws {
        _ = try Wait.until("\(ps.peer.app)'s input to \(focused ? "have" : "lose") the focus", timeout: .seconds(20),
                           diagnostics: { ps.trace.diagnostics() }) {
            ps.trace.events(named: "focus").last?["in"]?.boolValue == focused ? true : nil
        }
    }

    /// Presses Return with `text` committed and nothing composing: a chat app sends exactly
    /// it (and nothing before: the conversation gains it once), an editor starts one line.
    func pressEnterOnCommittedText(_ text: String) throws -> String {
        let took = try finishWithEnter()
        switch ps.peer.enter {
        case .sends:
            try require(took == asSent(text), "Enter sent \(quoted(took)), expected \(quoted(asSent(text)))")
            return "the next Enter sent it"
        case .newline:
            try require(took == text, "Enter left \(quoted(took + "\n")), expected \(quoted(text + "\n"))")
            return "the next Enter started a line"
        }
    }

    // MARK: reading what the app shows

    struct Outcome {
        /// The input's text once settled.
        var text: String
        /// A message that appeared in the conversation meanwhile (its text), if any.
        var sent: String?
    }

    /// Waits until the input holds `expected` (nil: is empty after a send), a line more
    /// (an editor's Enter) or the conversation gained a message, and tells which.
    /// Nothing of that in 20 s is the scenario's failure (the app did nothing with the keys
    /// it can show: Dino 0.4.2's Return, dino/dino#1419), not the lab's.
    func settle(expecting expected: String?, logBefore: String) throws -> Outcome {
        let outcome: Outcome
        do {
            outcome = try Wait.until("\(ps.peer.app) to show the keys' result", timeout: .seconds(20),
                                     diagnostics: { "the input holds \(quoted(ps.text)); the conversation: \(quoted(ps.log))\n"
                                         + ps.trace.diagnostics() }) { () -> Outcome? in
                let text = ps.text
                if let message = message(since: logBefore) {
                    // The input is emptied by the same send; wait for that too (or for text
                    // the app kept, which stays).
                    return Outcome(text: text, sent: message)
                }
                if let expected, text == expected || text == expected + "\n" { return Outcome(text: text, sent: nil) }
                return nil
            }
        } catch let timeout as HarnessError {
            throw MatrixFailure("the keys showed no result in 20 s: the input holds \(quoted(ps.text))"
                + (expected.map { ", expected \(quoted($0))" } ?? "") + ", and nothing was sent\n" + timeout.message)
        }
        guard outcome.sent != nil else { return outcome }
        // A send empties the input: read it once the app has done so, or give what stayed.
        let after = try? Wait.until("the input emptied by the send", timeout: .seconds(3)) { ps.text.isEmpty ? true : nil }
        return Outcome(text: after == nil ? ps.text : "", sent: outcome.sent)
    }

    /// The message the conversation gained since it held `before` (the last of
    /// `messages(since:)`), if any.
    func message(since before: String) -> String? {
        ps.log == before ? nil : messages(since: before).last
    }

    /// The conversation's lines added since it held `before`, the app's decoration left
    /// out (`PeerApp.Accessible.log`): with `message_after`, each message is what follows
    /// it on its line (Polari's "nick<Tab>message"), and the app's own lines (its
    /// `decoration`: Polari's time lines, "20∶07") go.
    func messages(since before: String) -> [String] {
        let now = ps.log
        let added = now.hasPrefix(before) ? String(now.dropFirst(before.count)) : now
        var lines = added.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        if let separator = ps.peer.accessible.log?.messageAfter {
            let decoration = ps.peer.accessible.log?.decoration
            lines = lines.filter { line in line.contains(separator) || !(decoration.map { line.contains($0) } ?? false) }.map { line in
                line.range(of: separator, options: .backwards).map { String(line[$0.upperBound...]) } ?? line
            }
        }
        return lines.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    func requireSent(_ outcome: Outcome) throws -> String {
        guard let sent = outcome.sent else { throw MatrixFailure("nothing was sent") }
        return sent
    }

    /// `text` as a chat app sends it: without the spaces at its ends (Polari and IRC drop
    /// them; ibus-hangul's space commits "한 ").
    func asSent(_ text: String) -> String {
        ps.peer.enter == .sends ? text.trimmingCharacters(in: .whitespaces) : text
    }

    func keys(_ names: [String]) -> String { names.joined(separator: " ") }
    func quoted(_ s: String) -> String { "\u{201C}\(s)\u{201D}" }
}
