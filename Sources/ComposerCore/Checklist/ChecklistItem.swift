/// What a tester tries by hand, one thing at a time: the lab matrix's scenarios and three
/// more (the inspector's Checklist). Each is judged from the live event stream
/// (`ChecklistJudge`).
public enum ChecklistItem: String, CaseIterable, Sendable {
    case composeAndCommit = "compose-and-commit"
    case enterConfirmsThenSends = "enter-confirms-then-sends"
    case hardLimitMidComposition = "hard-limit-mid-composition"
    case softLimitColouring = "soft-limit-colouring"
    case completionAfterCommit = "completion-after-commit"
    case backSpaceInComposition = "backspace-in-composition"
    case focusOutMidComposition = "focus-out-mid-composition"
    case clickMidComposition = "click-mid-composition"
    case candidateWindowAtCaret = "candidate-window-at-caret"
    case undoAfterCommit = "undo-after-commit"
    case compositionLongerThanLimit = "composition-longer-than-limit"

    /// The item's name, in the tester's words.
    public var title: String {
        switch self {
        case .composeAndCommit: "Compose and commit"
        case .enterConfirmsThenSends: "Enter confirms, then sends"
        case .hardLimitMidComposition: "Hard limit mid-composition"
        case .softLimitColouring: "Soft-limit colouring"
        case .completionAfterCommit: "Completion after a commit"
        case .backSpaceInComposition: "BackSpace in a composition"
        case .focusOutMidComposition: "Focus out mid-composition"
        case .clickMidComposition: "Click mid-composition"
        case .candidateWindowAtCaret: "Candidate window at the caret"
        case .undoAfterCommit: "Undo after a commit"
        case .compositionLongerThanLimit: "A composition longer than the limit"
        }
    }

    /// What to do for it with the engine in use (`words`) and the session's limit.
    public func instruction(_ words: ChecklistWords, limit: LengthLimit) -> String {
        let compose = words.composeDescription
        switch self {
        case .composeAndCommit:
            return "Type \(compose), then \(words.commitDescription)."
        case .enterConfirmsThenSends:
            return "Type \(compose), press Return (it only confirms), then Return again (it sends)."
        case .hardLimitMidComposition:
            guard limit.mode == .hard else { return "Start with --limit-mode hard --limit 3, then do what it says." }
            return "Type text up to the limit (\(limit.limit)), then \(compose) and \(words.commitDescription): nothing is cut while composing, the excess only after the commit."
        case .softLimitColouring:
            guard limit.mode == .soft else { return "Start with --limit-mode soft (the default), then do what it says." }
            return "Type text up to the limit (\(limit.limit)), then \(compose) and \(words.commitDescription): the overflow is coloured once committed, not while composing."
        case .completionAfterCommit:
            return "Type @ or :, then \(compose) and \(words.commitDescription): the completion list opens after the commit, not while composing."
        case .backSpaceInComposition:
            return "Type \(compose), press BackSpace once: the composition shrinks (to \(words.afterBackSpace.isEmpty ? "one character less" : "“\(words.afterBackSpace)”")), committed text stays."
        case .focusOutMidComposition:
            return "Type \(compose), click another window (or press Alt+Tab), come back: the composition is committed or still there, never lost."
        case .clickMidComposition:
            return "Type some text, then \(compose), and click in the text before it: the composition is kept where it was drawn."
        case .candidateWindowAtCaret:
            return "Type \(compose) and open the candidate list (\(words.candidateDescription)): it shows next to the caret."
        case .undoAfterCommit:
            return "Type \(compose), \(words.commitDescription), then Ctrl+Z: exactly what was committed is undone."
        case .compositionLongerThanLimit:
            return "With the input near its limit (\(limit.limit)), compose more than the room left: the whole composition shows; the limit acts only after the commit."
        }
    }
}

/// What to type for the engine in use, from the lab's engine data (`data/lab/engines`), or
/// generic words for an engine the lab does not know.
public struct ChecklistWords: Equatable, Sendable {
    public var compose: [String]
    public var showing: String
    public var commitKeys: [String]
    public var afterBackSpace: String
    /// Where the words come from ("the lab's ibus-anthy data", "generic words").
    public var source: String

    public init(compose: [String], showing: String, commitKeys: [String], afterBackSpace: String, source: String) {
        self.compose = compose
        self.showing = showing
        self.commitKeys = commitKeys
        self.afterBackSpace = afterBackSpace
        self.source = source
    }

    /// For an engine the lab has no data for.
    public static let generic = ChecklistWords(compose: ["k", "a", "n", "a"], showing: "", commitKeys: ["Return"],
                                               afterBackSpace: "", source: "generic words (the lab has no data for this engine)")

    /// Before the input method daemons answered which engine is in use (a report copied
    /// then says so, not that the lab lacks data).
    public static let engineNotYetKnown = ChecklistWords(compose: generic.compose, showing: "", commitKeys: ["Return"],
                                                         afterBackSpace: "",
                                                         source: "generic words (the engine in use is not known yet)")

    var composeDescription: String {
        compose.joined(separator: " ") + (showing.isEmpty ? " (a word your engine composes)" : " (it shows “\(showing)”)")
    }

    var commitDescription: String { commitKeys.joined(separator: " ") + " to commit it" }

    var candidateDescription: String {
        commitKeys == ["Return"] ? "Space, and Space again if your engine needs it" : "the key your engine opens it with"
    }

    /// The engine file's fields, from its JSON text (`data/lab/engines/SLUG.json`).
    public init?(engineFile text: String, slug: String) {
        guard let json = try? JSONValue.parse(text), let compose = json["compose"]?.arrayValue?.compactMap(\.stringValue),
              !compose.isEmpty else { return nil }
        self.compose = compose
        showing = json["showing"]?.stringValue ?? ""
        commitKeys = json["commit_keys"]?.arrayValue?.compactMap(\.stringValue) ?? ["Return"]
        afterBackSpace = json["after_backspace"]?.stringValue ?? ""
        source = "the lab's \(slug) data"
    }

    /// The lab's file name for an engine as the inspector names it ("IBus anthy",
    /// "Fcitx5 hangul", "IBus m17n:vi:telex"): `ibus-anthy`, `fcitx5-hangul`,
    /// `ibus-m17n-vi-telex`; nil for anything else.
    public static func slug(forEngine engine: String) -> String? {
        let parts = engine.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        let prefix: String
        switch parts[0] {
        case "IBus": prefix = "ibus"
        case "Fcitx5": prefix = "fcitx5"
        default: return nil
        }
        var name = String(parts[1].lowercased().map { $0 == ":" ? "-" : $0 })
        if name == "mozc-jp" { name = "mozc" }
        return "\(prefix)-\(name)"
    }
}
