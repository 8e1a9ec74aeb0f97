import Foundation
import TestHarness

/// One engine of the input-method matrix and what it is expected to do, written down from
/// the engines' documented behaviour (and their sources where it is not documented), then
/// checked by `IMEMatrixEndToEndTests`. The engines differ: which key commits, what
/// Enter commits while composing, what they do with a composition when focus leaves or a
/// click moves the caret.
struct MatrixEngine: Sendable, CustomStringConvertible {
    let kind: InputMethodKind
    /// Keys that leave a composition on screen, and a part of what it then shows.
    let compose: [String]
    let showing: String
    /// The engine's usual commit key(s) after `compose`, and everything compose and commit
    /// insert together (an engine may commit a first part before the composition starts).
    let commitKeys: [String]
    let committed: String
    /// Everything `compose` then Enter inserts (Enter while composing only commits).
    let enterCommits: String
    /// What the composition shows after one BackSpace inside it.
    let afterBackSpace: String
    /// The keys that type a word to mention (no trailing space: the query must stay open),
    /// and the word.
    let wordKeys: [String]
    let word: String
    /// What the engine does with its composition when focus leaves; and what a click in the
    /// text mid-composition leaves. The composer finishes the composition before the text
    /// view takes the press (and resets the input method), the way focus loss does, and
    /// keeps what was drawn when the engine lets go of it then: so a click commits the
    /// focus-out commit, or else what was drawn.
    let focusOut: Ending
    let click: Ending
    /// The text before the composition in the hard-limit scenario (limit 3), when the
    /// default (`MatrixScenario.filler`) would not show what matters for the engine.
    var hardLimitFiller: String? = nil

    var description: String { kind.slug }

    /// `all`, or only the engines named in `IME_MATRIX_ONLY` (slugs, comma-separated): for
    /// working on one engine without running the other fifteen.
    static var selected: [MatrixEngine] {
        let only = ProcessInfo.processInfo.environment["IME_MATRIX_ONLY"].map { $0.split(separator: ",").map(String.init) } ?? []
        return only.isEmpty ? all : all.filter { only.contains($0.kind.slug) }
    }

    enum Ending: Sendable, CustomStringConvertible {
        /// It commits what it showed.
        case commits(String)
        /// It commits what it showed, but later (fcitx5: over D-Bus, after the text view
        /// moved the caret to where the click was): it lands there.
        case commitsWhereClicked(String)
        /// It drops it: the committed text stays as it was.
        case drops
        /// The input method keeps composing (GTK's simple context has no focus-out): Enter
        /// confirms it (commits `String`) when focus is back.
        case keeps(String)

        var description: String {
            switch self {
            case .commits(let text): "commits \(text)"
            case .commitsWhereClicked(let text): "commits \(text) where the click put the caret"
            case .drops: "drops it"
            case .keeps(let text): "keeps composing (Enter confirms \(text))"
            }
        }
    }

    static let all: [MatrixEngine] = [
        // Japanese
        MatrixEngine(kind: .ibusAnthy, compose: ["i", "n", "u"], showing: "いぬ", commitKeys: ["Return"],
                     committed: "いぬ", enterCommits: "いぬ", afterBackSpace: "い",
                     wordKeys: ["i", "n", "u", "Return"], word: "いぬ", focusOut: .drops, click: .commits("いぬ")),
        MatrixEngine(kind: .fcitxAnthy, compose: ["i", "n", "u"], showing: "いぬ", commitKeys: ["Return"],
                     committed: "いぬ", enterCommits: "いぬ", afterBackSpace: "い",
                     wordKeys: ["i", "n", "u", "Return"], word: "いぬ", focusOut: .commits("いぬ"), click: .commitsWhereClicked("いぬ")),
        // Mozc (in an unprivileged session: mozc_server refuses root). ibus-mozc shows its
        // composition in IBus's commit mode, so IBus's GTK module commits it on focus out;
        // fcitx5 commits a composition when its input context loses focus.
        MatrixEngine(kind: .ibusMozc, compose: ["i", "n", "u"], showing: "いぬ", commitKeys: ["Return"],
                     committed: "いぬ", enterCommits: "いぬ", afterBackSpace: "い",
                     wordKeys: ["i", "n", "u", "Return"], word: "いぬ", focusOut: .commits("いぬ"), click: .commits("いぬ")),
        MatrixEngine(kind: .fcitxMozc, compose: ["i", "n", "u"], showing: "いぬ", commitKeys: ["Return"],
                     committed: "いぬ", enterCommits: "いぬ", afterBackSpace: "い",
                     wordKeys: ["i", "n", "u", "Return"], word: "いぬ", focusOut: .commits("いぬ"), click: .commitsWhereClicked("いぬ")),
        // Korean: Space commits the syllable and types a space.
        MatrixEngine(kind: .ibusHangul, compose: ["g", "k", "s"], showing: "한", commitKeys: ["space"],
                     committed: "한 ", enterCommits: "한", afterBackSpace: "하",
                     wordKeys: ["g", "k", "s", "Return"], word: "한", focusOut: .commits("한"), click: .commits("한")),
        MatrixEngine(kind: .fcitxHangul, compose: ["g", "k", "s"], showing: "한", commitKeys: ["space"],
                     committed: "한 ", enterCommits: "한", afterBackSpace: "하",
                     wordKeys: ["g", "k", "s", "Return"], word: "한", focusOut: .commits("한"), click: .commitsWhereClicked("한")),
        // Chinese: Space takes the first candidate; Enter commits the letters typed.
        MatrixEngine(kind: .ibusLibpinyin, compose: ["n", "i", "h", "a", "o"], showing: "你好", commitKeys: ["space"],
                     committed: "你好", enterCommits: "nihao", afterBackSpace: "你哈",
                     wordKeys: ["n", "i", "h", "a", "o", "space"], word: "你好", focusOut: .drops, click: .commits("你好")),
        MatrixEngine(kind: .fcitxPinyin, compose: ["n", "i", "h", "a", "o"], showing: "ni hao", commitKeys: ["space"],
                     committed: "你好", enterCommits: "nihao", afterBackSpace: "ni ha",
                     wordKeys: ["n", "i", "h", "a", "o", "space"], word: "你好", focusOut: .commits("ni hao"), click: .commitsWhereClicked("ni hao")),
        // Zhuyin: the tone key (3) converts into the preedit; Enter commits the conversion.
        MatrixEngine(kind: .ibusChewing, compose: ["s", "u", "3", "j", "4"], showing: "你", commitKeys: ["Return"],
                     committed: "你勿", enterCommits: "你勿", afterBackSpace: "你",
                     wordKeys: ["s", "u", "3", "Return"], word: "你", focusOut: .commits("你勿"), click: .commits("你勿")),
        MatrixEngine(kind: .fcitxChewing, compose: ["s", "u", "3", "j", "4"], showing: "你", commitKeys: ["Return"],
                     committed: "你勿", enterCommits: "你勿", afterBackSpace: "你",
                     wordKeys: ["s", "u", "3", "Return"], word: "你", focusOut: .commits("你勿"), click: .commitsWhereClicked("你勿")),
        // Cangjie: Space commits the first candidate; Enter commits the key letters.
        MatrixEngine(kind: .ibusCangjie, compose: ["o", "n", "f"], showing: "你", commitKeys: ["space"],
                     committed: "你", enterCommits: "onf", afterBackSpace: "乞",
                     wordKeys: ["o", "n", "f", "space"], word: "你", focusOut: .commits("你"), click: .commits("你")),
        // Vietnamese Telex: Space commits the word and types the space.
        MatrixEngine(kind: .ibusUnikey, compose: ["t", "i", "e", "e", "n", "g", "s"], showing: "tiếng", commitKeys: ["space"],
                     committed: "tiếng ", enterCommits: "tiếng", afterBackSpace: "tiến",
                     wordKeys: ["t", "i", "e", "e", "n", "g", "s", "Return"], word: "tiếng",
                     focusOut: .commits("tiếng"), click: .commits("tiếng")),
        MatrixEngine(kind: .fcitxUnikey, compose: ["t", "i", "e", "e", "n", "g", "s"], showing: "tiếng", commitKeys: ["space"],
                     committed: "tiếng ", enterCommits: "tiếng", afterBackSpace: "tiến",
                     wordKeys: ["t", "i", "e", "e", "n", "g", "s", "Return"], word: "tiếng",
                     focusOut: .commits("tiếng"), click: .commitsWhereClicked("tiếng")),
        // m17n vi-telex commits a lone initial consonant at once and composes from the vowel.
        MatrixEngine(kind: .ibusViTelex, compose: ["t", "i", "e", "e", "n", "g", "s"], showing: "iếng", commitKeys: ["space"],
                     committed: "tiếng ", enterCommits: "tiếng", afterBackSpace: "iến",
                     wordKeys: ["t", "i", "e", "e", "n", "g", "s", "Return"], word: "tiếng",
                     focusOut: .commits("iếng"), click: .commits("iếng")),
        // Hindi InScript: k = क (committed at once), d = virama (composed until the next
        // consonant joins it): क्क is one grapheme of three scalars.
        MatrixEngine(kind: .ibusHiInscript, compose: ["k", "d"], showing: "\u{94D}", commitKeys: ["k"],
                     committed: "क्क", enterCommits: "क्", afterBackSpace: "",
                     wordKeys: ["k", "d", "k"], word: "क्क", focusOut: .commits("\u{94D}"), click: .commits("\u{94D}"),
                     // क fills the limit; the virama and क that join it make one grapheme (a
                     // conjunct of three scalars): nothing may be cut.
                     hardLimitFiller: "ab"),
        // GTK's simple context: Ctrl+Shift+U hex, Space ends it.
        MatrixEngine(kind: .gtkSimple, compose: ["ctrl+shift+u", "e", "9"], showing: "ue9", commitKeys: ["space"],
                     committed: "é", enterCommits: "é", afterBackSpace: "ue",
                     wordKeys: ["ctrl+shift+u", "e", "9", "space"], word: "é", focusOut: .keeps("é"), click: .drops),
    ]
}
