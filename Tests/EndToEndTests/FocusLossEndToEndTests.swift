import ComposerCore
import Foundation
import TestHarness
import Testing

/// Focus leaves the composer in the middle of a composition (another window takes it),
/// for each engine of the matrix (#15): whatever the engine does with its preedit (commit
/// it, drop it, keep showing it), the composer ends consistent — nothing left composing,
/// the committed text is the buffer's, Send works — and typing goes on when focus is back.
@Suite(.serialized)
struct FocusLossEndToEndTests {
    /// Keys that leave a composition showing, and what each engine does with it when focus
    /// leaves (read from the engines' sources and confirmed here; see `Outcome`).
    struct Case: Sendable, CustomStringConvertible {
        let kind: InputMethodKind
        let composeKeys: [String]
        let preedit: String
        let outcome: Outcome
        var description: String { kind.slug }
        /// The transcript's name part.
        var slug: String { kind.slug }
    }

    enum Outcome: Sendable {
        /// The engine commits what it showed (fcitx5 commits on focus out, ibus-hangul
        /// commits its syllable): it becomes committed text.
        case commits(String)
        /// The engine drops it (ibus-anthy resets on focus out): the committed text stays.
        case drops
        /// The input method keeps composing (GTK's simple context has no focus-out: its
        /// Ctrl+Shift+U sequence stays on screen): the composition goes on when focus is back,
        /// and Enter first confirms it (commits `String`), then sends.
        case keeps(committedByEnter: String)
    }

    static let cases: [Case] = [
        Case(kind: .ibusAnthy, composeKeys: ["i", "n", "u"], preedit: "いぬ", outcome: .drops),
        Case(kind: .ibusHangul, composeKeys: ["g", "k", "s"], preedit: "한", outcome: .commits("한")),
        Case(kind: .fcitxAnthy, composeKeys: ["i", "n", "u"], preedit: "いぬ", outcome: .commits("いぬ")),
        Case(kind: .fcitxHangul, composeKeys: ["g", "k", "s"], preedit: "한", outcome: .commits("한")),
        Case(kind: .gtkSimple, composeKeys: ["ctrl+shift+u", "e", "9"], preedit: "ue9", outcome: .keeps(committedByEnter: "é")),
    ]

    @Test(.timeLimit(.minutes(3)), arguments: cases)
    func focusLeavingMidCompositionEndsConsistent(_ test: Case) throws {
        let cs = try ComposerSession(test.kind, arguments: ["--text", "x "], name: "e2e-focus-out-\(test.kind.slug)")
        defer { cs.stop() }
        let trace = cs.trace
        let other = try cs.session.launch("xev", executable: "xev", arguments: ["-event", "focus"])
        let otherWindow = try cs.xdotool.waitForWindow(pid: other.pid, name: "Event Tester", process: other)
        try cs.xdotool.focus(cs.window)
        try cs.xdotool.key(test.composeKeys)
        try trace.waitFor("the composition", from: cs.probeEndIndex) {
            $0["ev"]?.stringValue == "preedit" && ($0["text"]?.stringValue ?? "").contains(test.preedit)
        }
        let before = trace.entries.count
        try cs.xdotool.focus(otherWindow)
        try trace.waitFor("focus out", from: before) { $0["ev"]?.stringValue == "focus" && $0["in"]?.boolValue == false }
        let afterFocusOut = trace.lastMatchIndex
        func isEnd(_ line: JSONValue) -> Bool {
            let name = line["ev"]?.stringValue
            return name == "preedit-end" || (name == "preedit" && line["text"]?.stringValue == "")
        }
        let expected: String
        switch test.outcome {
        case .commits(let text):
            expected = "x " + text
            try trace.waitFor("the committed composition, settled", from: afterFocusOut) {
                $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == expected
            }
            try trace.waitFor("the composition's end", from: afterFocusOut) { isEnd($0) }
        case .drops:
            expected = "x "
            try trace.waitFor("the composition's end", from: afterFocusOut) { isEnd($0) }
            #expect(!trace.entries.dropFirst(afterFocusOut).contains { $0.name == "commit" })
        case .keeps(let committed):
            expected = "x " + committed
        }
        try cs.xdotool.focus(cs.window)
        try trace.waitFor("focus back", from: afterFocusOut) { $0["ev"]?.stringValue == "focus" && $0["in"]?.boolValue == true }
        let focusBack = trace.lastMatchIndex
        if case .keeps = test.outcome {
            try cs.xdotool.key(["Return"])
            try trace.waitFor("Enter confirms the composition that stayed", from: focusBack) {
                $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == expected
            }
            #expect(!trace.entries.dropFirst(focusBack).contains { $0.name == "send" }, "Enter only confirmed")
        }
        // Consistent: Enter sends exactly the committed text (nothing is left composing).
        try cs.xdotool.key(["Return"])
        try trace.waitFor("Enter sends what is committed", from: focusBack) {
            $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue == expected
        }
        #expect(try cs.terminateApp() == 0)
        try Transcripts.replayAndKeep(cs.traceURL, as: "focus-out-mid-composition-\(test.slug)", in: cs.session)
    }
}
