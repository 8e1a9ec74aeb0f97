import ComposerCore
import ComposerStore
import Foundation
import IMELab

/// The states of the composer in which nothing happening must cost nothing (issue #35:
/// "0 CPU and 0 wake-ups in every state"): each is reached the way a user reaches it, by
/// keys typed into the window after its first frame, then measured idle like the empty
/// window, and checked afterwards from the composer's trace and profile, so a row never
/// measures a state the window was not in.
enum IdleState: String, CaseIterable {
    /// A draft within the counter's threshold of the default limit (200): the counter shows.
    case counterShown
    /// A draft over the default limit: the counter is in error and the overflow coloured.
    case overLimit
    /// `@ta` typed: the completion list is open.
    case completionOpen
    /// Two letters typed, then the draft saved to the profile (SQLite).
    case draftSaved
    /// The inspector opened (F12), a key typed while it showed, closed (F12), a key typed.
    case inspectorClosed

    var title: String {
        switch self {
        case .counterShown: "counter shown"
        case .overLimit: "over the limit"
        case .completionOpen: "completion open"
        case .draftSaved: "after a draft was saved"
        case .inspectorClosed: "the inspector closed after use"
        }
    }

    /// The default limit the drafts below are measured against.
    static let limit = 200

    /// The draft the composer starts with (Latin letters and spaces: graphemes = characters).
    var draft: String? {
        switch self {
        case .counterShown: String(String(repeating: "idle ", count: 40).prefix(Self.limit - 10))
        case .overLimit: String(String(repeating: "idle ", count: 60).prefix(Self.limit + 100))
        case .completionOpen, .draftSaved, .inspectorClosed: nil
        }
    }

    /// The keys typed once the window is up (X keysym names).
    var keys: [String] {
        switch self {
        case .counterShown, .overLimit: []
        case .completionOpen: ["at", "t", "a"]
        case .draftSaved: ["h", "i"]
        case .inspectorClosed: ["F12", "a", "F12", "b"]
        }
    }

    /// Why the window was not in this state, from its trace (read after the composer
    /// exited) and its profile directory; nil when it was.
    func problem(trace: TraceLog, profile: URL) -> String? {
        let text = trace.events(named: "text").last?["text"]?.stringValue
        switch self {
        case .counterShown:
            guard let text else { return "the trace has no text line" }
            let status = LimitStatus(count: text.count, provisionalCount: nil, limit: Self.limit)
            return status.counterIsShown && !status.counterIsOver ? nil
                : "the draft's \(text.count) graphemes do not show the counter under the limit of \(Self.limit)"
        case .overLimit:
            let over = trace.events(named: "overflow").last?["over"]?.intValue ?? 0
            return over > 0 ? nil : "the trace shows no overflow past the limit of \(Self.limit)"
        case .completionOpen:
            let state = trace.events(named: "completion").last?["state"]?.stringValue
            return state == "open" || state == "update" ? nil
                : "the completion list was not open at the end (last state: \(state ?? "never opened"))"
        case .draftSaved:
            let saved = StoreOpener.readOnlyState(directory: profile)?.draft.text
            return saved == "hi" ? nil : "the profile's draft is \(saved.map { "\"\($0)\"" } ?? "missing"), not \"hi\""
        case .inspectorClosed:
            // The trace says when a frame was painted only while the inspector shows: a
            // paint after `a` and none after `b` is the inspector shown, then closed.
            var after: String?
            var painted: Set<String> = []
            for entry in trace.entries {
                switch entry.name {
                case "key": after = entry.value["keyval"]?.stringValue
                case "paint": if let after { painted.insert(after) }
                default: break
                }
            }
            guard painted.contains("a") else { return "no frame was traced after a: the inspector never showed" }
            return painted.contains("b") ? "a frame was traced after b: the inspector did not close" : nil
        }
    }
}
