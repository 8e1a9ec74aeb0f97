import ComposerCore
import Foundation

/// An engine on the Wayland path and what each scenario expects of it: its
/// `MatrixEngine` file with a "wayland" section.
///
/// fcitx5 5.0.21 on Wayland drops a composition when sway deactivates it: on the `done`
/// after `deactivate` it releases the grab and resets the engine, and sends no
/// `commit_string` (its protocol log, both engines; on X11 the matrix expects fcitx5 to
/// commit). GTK's text-input `disable` meanwhile clears the preedit it drew.
/// - Focus leaving for another window: the app's composition is gone (`.drops`); the app
///   finishes compositions only on a press.
/// - A click: the composer finishes the composition first (`Effect.finishComposition`:
///   `gtk_im_context_focus_out` and `focus_in`, so text-input disable and enable, so sway's
///   deactivate and activate); fcitx5 drops it and GTK erases the preedit, so the composer
///   types what was drawn, where it was drawn (`.commits`), exactly once.
public struct WaylandEngine: Sendable, CustomStringConvertible {
    public let matrix: MatrixEngine
    private let expectations: MatrixEngine.WaylandExpectations

    /// `matrix` on the Wayland path; nil when its file has no "wayland" section.
    public init?(_ matrix: MatrixEngine) {
        guard let expectations = matrix.wayland else { return nil }
        self.matrix = matrix
        self.expectations = expectations
    }

    public var inputMethod: Fcitx5.InputMethod { expectations.inputMethod }
    /// sway, or KWin for a `kde-fcitx5-…` engine.
    public var desktop: WaylandIMSession.Desktop { matrix.backend.desktop ?? .sway }
    var convert: MatrixEngine.WaylandExpectations.Convert? { expectations.convert }
    var hardLimit: MatrixEngine.WaylandExpectations.HardLimit { expectations.hardLimit }

    /// Scenarios that fail today for a known reason: the test expects the failure (Swift
    /// Testing's `withKnownIssue`, which fails once it no longer happens) and the matrix shows
    /// it as failed, with the reason.
    public var knownFailures: [MatrixScenario: String] {
        Dictionary(uniqueKeysWithValues: (expectations.knownFailures ?? [:]).compactMap { name, reason in
            MatrixScenario(rawValue: name).map { ($0, reason) }
        })
    }

    public var description: String { matrix.kind.slug }

    /// All of them, each with the X11 matrix's arguments (`MatrixScenario.arguments`).
    public static let scenarios: [MatrixScenario] = [.composeCommit, .enter, .backSpace, .hardLimit, .softLimit,
                                                     .completion, .focusOut, .click]

    /// Every engine file with a "wayland" section.
    public static var all: [WaylandEngine] { ((try? MatrixEngine.load()) ?? []).compactMap(WaylandEngine.init) }
}

/// One scenario against the running app on Wayland; returns the passed cell's reason.
public struct WaylandMatrixRun: MatrixTraceReading {
    let wl: WaylandIMSession
    let engine: WaylandEngine

    public init(wl: WaylandIMSession, engine: WaylandEngine) {
        self.wl = wl
        self.engine = engine
    }
    var matrix: MatrixEngine { engine.matrix }
    /// The compositor's name for the cells' accounts.
    var compositor: String {
        switch wl.desktop {
        case .sway: "sway"
        case .kde: "KWin"
        case .gnome: "GNOME Shell"
        }
    }
    /// The input method the compositor hands text input to.
    var inputMethodName: String { wl.desktop == .gnome ? "IBus" : "fcitx5" }
    var trace: TraceLog { wl.trace }

    public func run(_ scenario: MatrixScenario) throws -> String {
        switch scenario {
        case .composeCommit: try composeAndCommit()
        case .enter: try enterConfirmsThenSends()
        case .backSpace: try backSpace()
        case .hardLimit: try hardLimit()
        case .softLimit: try softLimit()
        case .completion: try completion()
        case .focusOut: try focusOut()
        case .click: try click()
        }
    }

    // MARK: scenarios

    func composeAndCommit() throws -> String {
        let from = try compose(matrix.compose, showing: matrix.showing)
        let how = "\(keys(matrix.compose)) showed \(quoted(matrix.showing))" + (try convert())
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
            + (passedOn.isEmpty ? "" : " (\(inputMethodName) passed that Return on to the app after its commit; "
                + (wl.desktop == .kde ? "KWin gives such a key no time, and its arrival right after the commit marked it forwarded)"
                                      : "its press time marked it forwarded)"))
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
        let commit = trace.entries.count
        try wl.key(limit.commitKeys)
        try waitForCut(limit.cut, from: commit)
        try waitSettled(text: limit.kept, noSendFrom: commit)
        let entries = trace.entries
        // Not "before the last commit": on GNOME ibus-hangul's Space commits 글 and then
        // comes as a commit of " " itself, and a settle between the two cuts 글 with nothing
        // composing (seen once, the cut before the second commit).
        let cuts = entries[from...].cutsWhileComposing
        try require(cuts.isEmpty, "a cut while the engine composed: \(cuts.map(\.line).joined(separator: ", "))")
        let removed = cutText(from: from)
        try require(removed == limit.cut, "cut \(quoted(removed)), expected \(quoted(limit.cut))")
        try barrier()
        try require(!events("send", from: from), "the commit key sent the message")
        try send(limit.kept)
        return "\(quoted("ab")) + \(keys(limit.compose)): nothing cut while composing; after the commit "
            + "\(quoted(removed)) was cut, \(quoted(limit.kept)) kept and sent"
    }

    func softLimit() throws -> String {
        let expected = MatrixScenario.filler(matrix) + matrix.committed
        let from = try compose(matrix.compose, showing: matrix.showing)
        _ = try convert()
        let commit = trace.entries.count
        try wl.key(matrix.commitKeys)
        try waitSettled(text: expected, noSendFrom: commit)
        let overflow = try require(trace.events(named: "overflow").last, "no overflow line")
        let over = expected.count - 3
        try require(overflow["over"]?.intValue == over, "overflow \(overflow), expected over \(over)")
        try require(overflow["start"]?.intValue == expected.prefix(3).unicodeScalars.count, "overflow starts at \(overflow)")
        try require(!events("limit", from: from), "soft mode cut the text")
        return "\(quoted(expected)): \(over) over the limit 3 coloured, nothing cut"
    }

    /// The text starts "@"; the word's keys but the last compose, the last commits. The
    /// list must not change while anything is composing (hangul commits 한 and composes
    /// 글 in one go), and opens for the whole word after the commit.
    func completion() throws -> String {
        let from = trace.entries.count
        try wl.key(Array(matrix.wordKeys.dropLast()))
        try trace.waitFor("the composition showing \(matrix.showing)", from: from) {
            isPreedit($0) && ($0["text"]?.stringValue ?? "").contains(matrix.showing)
        }
        let commit = trace.entries.count
        try wl.key([matrix.wordKeys.last!])
        let opened = try trace.waitFor("the list for \(matrix.word)", from: commit) {
            $0["ev"]?.stringValue == "completion" && $0["query"]?.stringValue == matrix.word
        }
        let entries = trace.entries
        let whileComposing = entries[from...].filter { $0.name == "completion" && isComposing(Array(entries[..<$0.index])) }
        try require(whileComposing.isEmpty, "the list changed while composing: \(whileComposing.map(\.line))")
        try require(opened["items"]?.arrayValue?.first?.stringValue == "m1", "list \(opened)")
        // A Return fcitx5 passes on after its commit (hangul) only confirms: it neither
        // sends nor takes the completion.
        try barrier()
        try require(!events("send", from: commit), "the commit key sent the message")
        let text = try settledText()
        try require(text == "@" + matrix.word, "the text is \(quoted(text)) after the commit")
        return "the list stayed as it was while composing; after the commit it offered \(matrix.word)X for @\(matrix.word)"
    }

    /// Focus goes to a second window mid-composition and comes back; typing goes on.
    func focusOut() throws -> String {
        let mapped = trace.entries.count
        let (other, otherTrace) = try wl.launchOtherWindow()
        defer { if other.isRunning { other.terminate() } }
        // sway focused the new window as it mapped; the app takes focus back.
        try trace.waitFor("focus out to the new window", from: mapped) { isFocus($0, in: false) }
        try focusApp(from: trace.lastMatchIndex)
        let from = try compose(matrix.compose, showing: matrix.showing)
        // What the text was when focus moved: an input method may commit before the app
        // hears focus leave (GNOME Shell has IBus commit, then sends the keyboard's leave).
        let moved = trace.entries.count
        try wl.focus(pid: other.pid)
        try trace.waitFor("focus out", from: from) { isFocus($0, in: false) }
        let out = trace.lastMatchIndex
        let base = try settledText(upTo: moved)
        var text = base
        switch matrix.focusOut {
        case .commits(let committed):
            text = base + committed
            try waitSettled(text: text)
        case .drops:
            try waitSettled(text: text)
        case .keeps, .commitsWhereClicked:
            throw MatrixFailure("no Wayland engine is expected to \(matrix.focusOut) on focus out")
        }
        try focusApp(from: out)
        if case .drops = matrix.focusOut {
            // fcitx5 handles sway's deactivate before the activate and a key after it: once
            // the key is in, a focus-out commit would have come.
            try barrier()
            try require(!events("commit", from: moved), "the engine's commit reached the app after focus left")
        }
        // Where fcitx5's focus-out commit went: the window that took focus, or nowhere.
        let elsewhere = otherTrace.entries.filter { $0.name == "commit" }.compactMap { $0.value["text"]?.stringValue }.joined()
        // Typing goes on: the same keys compose, convert and commit again (the engines'
        // composition starts afresh: what they give is known), Enter sends exactly the text.
        let again = try compose(matrix.compose, showing: matrix.showing)
        _ = try convert()
        let commit = trace.entries.count
        try wl.key(matrix.commitKeys)
        try waitSettled(text: text + matrix.committed, noSendFrom: commit)
        try barrier()
        try require(!events("send", from: again), "the commit key sent the message")
        try send(text + matrix.committed)
        other.terminate()
        let status = try other.waitForExit()
        try require(status == 0, "the second window exited with \(status)\n" + other.diagnostics())
        return "focus left for another window mid-composition: the engine \(matrix.focusOut)"
            + (elsewhere.isEmpty ? "" : " (\(inputMethodName)'s focus-out commit \(quoted(elsewhere)) went to the window that took focus)")
            + "; focus came back and typing went on"
    }

    /// A left click in the input bar, 10 px from its left edge (the text "abc" starts
    /// there: the caret goes to 0) mid-composition.
    func click() throws -> String {
        _ = try compose(matrix.compose, showing: matrix.showing)
        let before = try settledText()
        let layout = try require(trace.events(named: "layout").last, "no layout line")
        guard let input = layout["input"]?.intValue, let keyboard = layout["keyboard"]?.intValue else {
            throw MatrixFailure("layout \(layout)")
        }
        // The panel ends at the window's bottom edge, and the input bar sits on its bottom
        // (above an on-screen keyboard's overlap, none here).
        let window = try require(try wl.windowRect(pid: wl.app.pid), "the app's window is not in \(compositor)'s window list")
        let clickAt = trace.entries.count
        try wl.click(x: window.x + 10, y: window.y + window.height - keyboard - input / 2)
        let moved = try trace.waitFor("the caret moved by the click", from: clickAt) {
            $0["ev"]?.stringValue == "selection" && ($0["caret"]?.intValue ?? 99) < before.unicodeScalars.count
        }
        let caret = moved["caret"]?.intValue ?? 0
        var text = before
        switch matrix.click {
        case .drops:
            try waitSettled(text: before)
            try require(!events("commit", from: clickAt), "the engine committed on the click")
        case .commits(let committed):
            // Kept where it was drawn (the caret before the click: the text's end).
            text = before + committed
            try waitSettled(text: text)
        case .commitsWhereClicked(let committed):
            let scalars = Array(before.unicodeScalars)
            var view = String.UnicodeScalarView(scalars[..<caret])
            view.append(contentsOf: committed.unicodeScalars)
            view.append(contentsOf: scalars[caret...])
            text = String(view)
            try waitSettled(text: text)
        case .keeps:
            throw MatrixFailure("no Wayland engine is expected to \(matrix.click) on a click")
        }
        // Finishing the composition disables and enables the text input (focus out and in
        // on the IM context): sway deactivates fcitx5 and activates it again, and a key sent
        // before fcitx5's input context has its focus back is lost between them (seen: the
        // Enter after the click never reached the app). Its DebugInfo can still show the
        // focus from before the click, so a key that changes nothing (End: the caret is
        // where the click put it) is sent until one reaches the app.
        try waitForInputContextFocus()
        try keysReachTheApp()
        try send(text)
        let how: String
        if case .commits(let kept) = matrix.click, wl.desktop == .gnome {
            // gnome-shell resets IBus on the press before the app hears of it: the engine
            // commits then (ibus-hangul), or drops the composition and the composer, seeing
            // a press made before that end, types what was drawn.
            if events("commit", from: clickAt) {
                how = "gnome-shell reset IBus on the press and the engine committed \(quoted(kept)) where it was drawn"
            } else {
                let press = trace.entries.dropFirst(clickAt).last { $0.name == "press" }
                try require(press?.value["im_reset_first"]?.boolValue == true,
                            "nothing committed, and the press is not marked as one the input method was reset for: "
                                + (press?.line ?? "no press line"))
                how = "gnome-shell reset IBus on the press and the engine dropped the composition; the composer, seeing the press made before that end, typed \(quoted(kept)) where it was drawn"
            }
        } else if case .commits(let kept) = matrix.click {
            how = "the composer finished the composition first (fcitx5 drops it on \(compositor)'s deactivate) and typed \(quoted(kept)) where it was drawn"
        } else {
            how = "the engine \(matrix.click)"
        }
        return "a click mid-composition (caret to \(caret)): \(how); Enter then sent \(quoted(text))"
    }

    // MARK: steps

    /// The engine's conversion keys, when it has them, and the converted composition;
    /// returns the words for the reason ("" without).
    func convert() throws -> String {
        guard let convert = engine.convert else { return "" }
        let at = trace.entries.count
        try wl.key(convert.keys)
        try trace.waitFor("the composition converted to \(convert.showing)", from: at) {
            isPreedit($0) && $0["text"]?.stringValue == convert.showing
        }
        try require(!events("commit", from: at), "\(keys(convert.keys)) committed instead of converting")
        return ", \(keys(convert.keys)) converted it to \(quoted(convert.showing))"
    }

    /// Focuses the app's window and waits for its text view's `focus` in:true after trace
    /// index `from`, then for fcitx5's input context to have focus (it follows the text
    /// input's enable; keys sent before it grabs the keyboard would reach the app raw).
    func focusApp(from: Int) throws {
        try wl.focus(pid: wl.app.pid)
        try trace.waitFor("focus back in the app", from: from) { isFocus($0, in: true) }
        try waitForInputContextFocus()
    }

    /// Waits until fcitx5's Wayland input context has the focus: it follows the text
    /// input's enable, and keys sent before fcitx5 grabs the keyboard again are lost or
    /// reach the app raw.
    func waitForInputContextFocus() throws {
        try wl.waitForInputMethodFocus()
    }

    func isFocus(_ line: JSONValue, in focused: Bool) -> Bool {
        line["ev"]?.stringValue == "focus" && line["in"]?.boolValue == focused
    }


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

    /// Sends End until one reaches the app (at most 10, each waited for 2 s): keys typed
    /// from then on are the app's. End changes no text, so a key delivered late is harmless.
    func keysReachTheApp() throws {
        for _ in 0..<10 {
            let from = trace.entries.count
            try wl.key(["End"])
            let reached = trace.poll("End to reach the app", timeout: .seconds(2), from: from) {
                $0["ev"]?.stringValue == "key" && $0["keyval"]?.stringValue == "End"
            }
            if reached != nil { return }
        }
        throw MatrixFailure("no End reached the app in 10 tries\n" + trace.diagnostics(lastLines: 25))
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
}
