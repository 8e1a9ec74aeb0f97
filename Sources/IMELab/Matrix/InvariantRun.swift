import ComposerCore
import Foundation

/// One scenario for an engine the lab has no expectations for, on X11: typed with the
/// engine's `invariantKeys` and judged by `MatrixInvariants` (and, for focus loss and a
/// click, by what the text may be after them), never by what it composes.
public struct InvariantRun: MatrixTraceReading {
    /// The scenarios an engine without expectations goes through: each needs only a
    /// composition on screen, not knowing what it shows or which key commits it.
    public static let scenarios: [MatrixScenario] = [.enter, .hardLimit, .focusOut, .click]

    let cs: ComposerSession
    let engine: MatrixEngine
    let keys: [String]

    public init(cs: ComposerSession, engine: MatrixEngine) {
        self.cs = cs
        self.engine = engine
        keys = engine.invariantKeys ?? MatrixEngine.defaultInvariantKeys
    }
    var trace: TraceLog { cs.trace }

    public func run(_ scenario: MatrixScenario) throws -> String {
        let from = trace.entries.count
        let reason: String
        switch scenario {
        case .enter: reason = try enter()
        case .hardLimit: reason = try hardLimit()
        case .focusOut: reason = try focusOut()
        case .click: reason = try click()
        default: throw MatrixFailure("\(scenario.rawValue) needs the engine's expectations (an engine file)")
        }
        let problems = MatrixInvariants.violations(in: trace.events.dropFirst(from))
        guard problems.isEmpty else { throw MatrixFailure(problems.joined(separator: "; ")) }
        return reason + "; every invariant held"
    }

    // MARK: scenarios

    /// Enter while composing must not send; the next Enter sends exactly the text.
    func enter() throws -> String {
        let drawn = try compose()
        let enter = trace.entries.count
        try cs.xdotool.key(["Return"])
        let text = try waitUntilNothingComposes(after: enter)
        try require(!events("send", from: enter), "Enter while composing \(quoted(drawn)) sent the message")
        try send(text)
        return "Enter while composing \(quoted(drawn)) did not send and left \(quoted(text)); the next Enter sent it"
    }

    /// With "ab" and a hard limit of 3, nothing is cut while composing (checked by the
    /// invariants); after the composition ends the text keeps the limit.
    func hardLimit() throws -> String {
        let drawn = try compose()
        let enter = trace.entries.count
        try cs.xdotool.key(["Return"])
        let text = try waitUntilNothingComposes(after: enter)
        try require(text.hasPrefix("ab") && text.count <= 3,
                    "after the composition the text is \(quoted(text)): not \u{201C}ab\u{201D} plus at most one character")
        try send(text)
        let cut = trace.entries.dropFirst(enter).filter { $0.name == "limit" }.compactMap { $0.value["removed"]?.stringValue }.joined()
        return "nothing cut while \(quoted(drawn)) was composing; after it " + (cut.isEmpty ? "" : "\(quoted(cut)) was cut, ")
            + "\(quoted(text)) kept (limit 3)"
    }

    /// Focus leaves mid-composition: the text then holds nothing, what was drawn or what
    /// the engine committed — once; typing goes on when focus is back.
    func focusOut() throws -> String {
        let (other, otherWindow) = try cs.launchOtherWindow()
        defer { other.terminate(signal: SIGTERM) }
        try cs.xdotool.focus(cs.window)
        let drawn = try compose()
        let leaving = trace.entries.count
        try cs.xdotool.focus(otherWindow)
        try trace.waitFor("focus out", from: leaving) {
            $0["ev"]?.stringValue == "focus" && $0["in"]?.boolValue == false
        }
        let out = trace.lastMatchIndex
        // What was committed before focus left (an engine may commit part of a word while
        // it composes the rest).
        let base = try settledText(upTo: out)
        let after = try settledAfterLettingGo(out)
        let kept = try consistent(after, base: base, drawn: drawn, since: out, what: "focus out", anywhere: false)
        try cs.xdotool.focus(cs.window)
        try trace.waitFor("focus back", from: out) { $0["ev"]?.stringValue == "focus" && $0["in"]?.boolValue == true }
        // Typing goes on: the keys compose again, Enter ends the composition, the next sends.
        let again = try compose()
        let enter = trace.entries.count
        try cs.xdotool.key(["Return"])
        let text = try waitUntilNothingComposes(after: enter)
        try send(text)
        return "focus out while \(quoted(drawn)) was composing left \(quoted(after)) (\(kept)); "
            + "after it \(quoted(again)) composed and Enter sent \(quoted(text))"
    }

    /// A click in the text mid-composition: the text then holds nothing, what was drawn or
    /// what was committed — at the end or where the click put the caret — once.
    func click() throws -> String {
        let drawn = try compose()
        let clickAt = trace.entries.count
        let base = try settledText(upTo: clickAt)
        try cs.clickInTheInput()
        try trace.waitFor("the caret moved by the click", from: clickAt) {
            $0["ev"]?.stringValue == "selection" && ($0["caret"]?.intValue ?? 99) < base.unicodeScalars.count
        }
        let after = try settledAfterLettingGo(clickAt)
        let kept = try consistent(after, base: base, drawn: drawn, since: clickAt, what: "the click", anywhere: true)
        let enter = trace.entries.count
        if isComposing(trace.entries) {
            try cs.xdotool.key(["Return"])
            _ = try waitUntilNothingComposes(after: enter)
        }
        let text = try settledText()
        try send(text)
        return "a click while \(quoted(drawn)) was composing left \(quoted(after)) (\(kept)); Enter sent \(quoted(text))"
    }

    // MARK: steps

    /// Types the keys; waits until the last one is traced and a composition shows; returns
    /// what it shows once the engine's answers to the keys have settled.
    func compose() throws -> String {
        let from = trace.entries.count
        try cs.xdotool.key(keys)
        try trace.waitFor("the key \(keys.last ?? "")", from: from) {
            $0["ev"]?.stringValue == "key" && $0["keyval"]?.stringValue == keys.last
        }
        let lastKey = trace.lastMatchIndex
        return try Wait.until("a composition after \(self.keys(keys)) (keys the engine composes: --keys)",
                              timeout: .seconds(20), diagnostics: { trace.diagnostics(lastLines: 25) }) { () -> String? in
            let entries = trace.entries
            guard isComposing(entries), let settle = entries.last(where: { $0.name == "settle" }), settle.index > lastKey,
                  let preedit = entries.last(where: { $0.name == "preedit" }), preedit.index < settle.index else { return nil }
            return preedit.value["text"]?.stringValue
        }
    }

    /// Waits until nothing composes and the input has settled after trace index `after`;
    /// returns the committed text.
    func waitUntilNothingComposes(after: Int) throws -> String {
        try waitUntilSettled(after: after, allowComposing: false)
    }

    func waitUntilSettled(after: Int, allowComposing: Bool, timeout: Duration = .seconds(20)) throws -> String {
        try Wait.until(allowComposing ? "the input to settle" : "the composition to end and the input to settle",
                       timeout: timeout, diagnostics: { trace.diagnostics(lastLines: 25) },
                       failFast: {
                           if let app = trace.watchedProcess, !app.isRunning { throw MatrixFailure("the app exited\n" + trace.diagnostics()) }
                       }) { () -> String? in
            let entries = trace.entries
            guard entries.settled(after: after), allowComposing || !entries.isComposing else { return nil }
            return try? committedText(in: entries)
        }
    }

    /// The committed text once the input settled after `index` (focus out, a click): the
    /// composition ended then, or — an engine that keeps composing (GTK's simple context
    /// across focus) — it is still on screen after three seconds.
    func settledAfterLettingGo(_ index: Int) throws -> String {
        if let text = try? waitUntilSettled(after: index, allowComposing: false, timeout: .seconds(3)) { return text }
        return try waitUntilSettled(after: index, allowComposing: true)
    }

    /// `after` is `base` with nothing, `drawn`, or what the engine committed since `since`
    /// inserted once — at the end, or (a click) anywhere; the account for the reason.
    func consistent(_ after: String, base: String, drawn: String, since: Int, what: String, anywhere: Bool) throws -> String {
        let committed = trace.entries.dropFirst(since).filter { $0.name == "commit" }
            .compactMap { $0.value["text"]?.stringValue }.joined()
        let options: [(String, String)] = [("", "nothing kept"), (drawn, "what was drawn kept"),
                                           (committed, "the engine's commit kept")]
        let scalars = Array(base.unicodeScalars)
        for (piece, account) in options {
            for at in anywhere ? Array(0...scalars.count) : [scalars.count] {
                var view = String.UnicodeScalarView(scalars[..<at])
                view.append(contentsOf: piece.unicodeScalars)
                view.append(contentsOf: scalars[at...])
                if String(view) == after { return account }
            }
        }
        throw MatrixFailure("after \(what) the text is \(quoted(after)): not \(quoted(base)) with nothing, "
            + "\(quoted(drawn)) (drawn) or \(quoted(committed)) (committed) inserted once")
    }

    /// Enter, and the `send` of exactly `text`.
    func send(_ text: String) throws {
        let from = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("Enter to send \(quoted(text))", from: from) {
            $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue == text
        }
    }
}
