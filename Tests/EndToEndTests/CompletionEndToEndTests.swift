import Foundation
import Testing
import ComposerCore
import TestHarness

/// Autocomplete with real input methods: a mention typed in kana opens the list only once
/// the engine has committed, Enter while composing only commits, the next Enter accepts.
@Suite(.serialized)
struct CompletionEndToEndTests {
    static let artifacts = RunOutput.artifacts

    static func finish(_ cs: ComposerSession, transcript: String) throws {
        #expect(try cs.terminateApp() == 0)
        #expect(try cs.trace.schemaViolations() == [])
        try Transcripts.replayAndKeep(cs.traceURL, as: transcript, in: cs.session)
    }

    @Test(.timeLimit(.minutes(2)), arguments: [InputMethodKind.ibusAnthy, .fcitxAnthy])
    func aMentionTypedInKanaOffersTanakaAndEnterAcceptsIt(kind: InputMethodKind) throws {
        let cs = try ComposerSession(kind, name: "e2e-completion-\(kind.slug)")
        defer { cs.stop() }
        let trace = cs.trace
        let from = cs.probeEndIndex
        // "@" then "tanaka": the engine composes ＠たなか (or @たなか) in its preedit.
        try cs.xdotool.key(["at", "t", "a", "n", "a", "k", "a"])
        try trace.waitFor("the kana preedit", from: from) {
            $0["ev"]?.stringValue == "preedit" && ($0["text"]?.stringValue ?? "").hasSuffix("たなか")
        }
        #expect(!trace.entries[from...].contains { $0.name == "completion" },
                "the list never opens while the input method is composing")
        // Enter while composing only commits.
        let commitFrom = trace.entries.count
        try cs.xdotool.key(["Return"])
        let commit = try trace.waitFor("the commit", from: commitFrom) { $0["ev"]?.stringValue == "commit" }
        #expect(commit["text"]?.stringValue?.hasSuffix("たなか") == true)
        let opened = try trace.waitFor("the list to open", from: commitFrom) {
            $0["ev"]?.stringValue == "completion" && $0["state"]?.stringValue == "open"
        }
        #expect(opened["query"]?.stringValue == "たなか")
        #expect(opened["items"]?.arrayValue?.first?.stringValue == "u0001", "田中 太郎 first: \(opened)")
        #expect(!trace.entries.contains { $0.name == "accept" || $0.name == "send" })
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        try cs.screenshotWindow(to: Self.artifacts.appendingPathComponent("completion-\(kind.slug).png"))

        // Enter with nothing composing accepts the selected row.
        let acceptFrom = trace.entries.count
        try cs.xdotool.key(["Return"])
        let accept = try trace.waitFor("the accept", from: acceptFrom) { $0["ev"]?.stringValue == "accept" }
        #expect(accept["item"]?.stringValue == "u0001")
        #expect(accept["text"]?.stringValue == "@tanaka ")
        try trace.waitFor("the accepted text", from: acceptFrom) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "@tanaka "
        }
        let edits = trace.entries[acceptFrom...].filter { $0.name == "edit" }
        #expect(edits.allSatisfy { $0.value["origin"]?.stringValue == "program" }, "\(edits.map(\.line))")
        #expect(!trace.entries.contains { $0.name == "send" }, "accepting never sends")
        try Self.finish(cs, transcript: "completion-\(kind == .ibusAnthy ? "ibus" : "fcitx5")-anthy-kana-mention")
    }

    /// Issue #31: through ibus-anthy, `:neko`, Return (commits `：ねこ`), Return sent `：ねこ`
    /// on the session's first emoji word: the emoji index was built on that word and came
    /// after the second Return. It now comes with people and channels, before "ready": the
    /// second Return accepts an emoji and nothing is sent.
    @Test(.timeLimit(.minutes(2)))
    func theFirstEmojiWordOfASessionCompletes() throws {
        let cs = try ComposerSession(.ibusAnthy, name: "e2e-completion-first-emoji")
        defer { cs.stop() }
        let trace = cs.trace
        let from = cs.probeEndIndex
        try cs.xdotool.key(["colon", "n", "e", "k", "o"])
        try trace.waitFor("the kana preedit", from: from) {
            $0["ev"]?.stringValue == "preedit" && ($0["text"]?.stringValue ?? "").hasSuffix("ねこ")
        }
        let commitFrom = trace.entries.count
        try cs.xdotool.key(["Return"])
        let commit = try trace.waitFor("the commit", from: commitFrom) { $0["ev"]?.stringValue == "commit" }
        #expect(commit["text"]?.stringValue?.hasSuffix("ねこ") == true)
        let acceptFrom = trace.entries.count
        try cs.xdotool.key(["Return"])
        let accept = try trace.waitFor("an emoji accepted", from: acceptFrom) { $0["ev"]?.stringValue == "accept" }
        let inserted = accept["text"]?.stringValue ?? ""
        #expect(inserted.unicodeScalars.first?.properties.isEmojiPresentation == true, "\(accept)")
        try trace.waitFor("the accepted text", from: acceptFrom) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == inserted
        }
        #expect(!trace.entries.contains { $0.name == "send" }, "nothing sent")
        try Self.finish(cs, transcript: "completion-ibus-anthy-first-emoji")
    }

    @Test(.timeLimit(.minutes(2)))
    func gtkBuiltInInputMethodAtTanaDownTab() throws {
        let cs = try ComposerSession(.gtkSimple, name: "e2e-completion-simple")
        defer { cs.stop() }
        let trace = cs.trace
        try cs.xdotool.type("@tana")
        let list = try trace.waitFor("the list for tana") {
            $0["ev"]?.stringValue == "completion" && $0["query"]?.stringValue == "tana"
        }
        let items = list["items"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(items.first == "u0001")
        try cs.xdotool.key(["Down"])
        try trace.waitFor("the selection to move") {
            $0["ev"]?.stringValue == "completion" && $0["selected"]?.intValue == 1
        }
        try cs.xdotool.key(["Tab"])
        let accept = try trace.waitFor("the accept") { $0["ev"]?.stringValue == "accept" }
        #expect(accept["item"]?.stringValue == items.dropFirst().first)
        try trace.waitFor("the list to close") {
            $0["ev"]?.stringValue == "completion" && $0["state"]?.stringValue == "close"
        }
        // Escape closes only the list: the text stays, the window stays.
        try cs.xdotool.type(":cat")
        try trace.waitFor("the emoji list") { $0["ev"]?.stringValue == "completion" && $0["query"]?.stringValue == "cat" }
        try cs.xdotool.key(["Escape"])
        let closed = try trace.waitFor("Escape closes the list") {
            $0["ev"]?.stringValue == "completion" && $0["state"]?.stringValue == "close" && $0["query"]?.stringValue == "cat"
        }
        _ = closed
        #expect(trace.events(named: "text").last?["text"]?.stringValue?.hasSuffix(":cat") == true)
        try Self.finish(cs, transcript: "completion-gtk-down-tab-emoji")
    }
}
