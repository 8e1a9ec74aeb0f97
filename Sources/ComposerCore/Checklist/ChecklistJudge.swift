/// How one checklist item went.
public enum ChecklistVerdict: Equatable, Sendable {
    case notTried
    case passed(String)
    case failed(String)

    public var symbol: String {
        switch self {
        case .notTried: "○"
        case .passed: "✔"
        case .failed: "✘"
        }
    }
}

/// An item's verdict and the rows of the attempt that decided it (from the first key of
/// its composition), for the report's transcript.
public struct ChecklistResult: Equatable, Sendable {
    public var verdict: ChecklistVerdict = .notTried
    public var rows: ClosedRange<Int>?
}

/// Judges the checklist from the inspector's rows as they come, the way a tester would
/// watching the screen: each item passes when its scenario happened and the composer did
/// the right thing, fails with the reason when it did not. A failure stays (it is the bug
/// to report) until `reset`; a later pass does not hide it.
public struct ChecklistJudge: Sendable {
    public private(set) var results: [ChecklistItem: ChecklistResult] = [:]
    private var limit = LengthLimit()
    private var preedit = ""
    private var composing: Bool { !preedit.isEmpty }
    /// The committed text's length in the limit's unit (from the settled `text` lines).
    private var textLength = 0
    /// The row of the first key of the composition (or of the last key when none).
    private var attemptStart = 0
    private var lastKeyRow = 0
    /// Committed since the last key (and what).
    private var committedSinceKey: String?
    private var lastCommit: String?
    /// What Return confirmed, and the row its composition began at.
    private var enterConfirmed: (text: String, start: Int, key: Int)?
    private var backSpaceFrom: String?
    private var focusLeftComposing: String?
    private var clickedComposing: String?
    /// A composition longer than the room left, shown whole: its text and the room.
    private var longerThanRoom: (text: String, room: Int)?
    private var longerCommitted = false

    public init() {}

    public func result(_ item: ChecklistItem) -> ChecklistResult { results[item] ?? ChecklistResult() }

    /// Every item not tried again (the session's limit stays known).
    public mutating func reset() {
        let limit = limit
        self = ChecklistJudge()
        self.limit = limit
    }

    /// The session's limit, from its `start` line.
    public var sessionLimit: LengthLimit { limit }

    /// One row of the log (its event and the anomalies flagged on it).
    public mutating func judge(_ row: InspectorRow) {
        let number = row.number
        let event = row.event
        for anomaly in row.anomalies { judge(anomaly, row: number) }
        switch event {
        case .start(_, _, let settings):
            limit = settings.limit
        case .key(let keyval, _, _, _):
            lastKeyRow = number
            if !composing { attemptStart = number }
            committedSinceKey = nil
            // Taken by the input method or passed on, a Return while composing must only
            // confirm: the message goes with a later Return.
            if keyval == "Return", composing { enterConfirmed = (preedit, attemptStart, number) }
            if keyval == "BackSpace", composing { backSpaceFrom = preedit }
        case .preeditStart:
            if attemptStart < lastKeyRow { attemptStart = lastKeyRow }
        case .preedit(let shown):
            if let from = backSpaceFrom, !shown.text.isEmpty {
                backSpaceFrom = nil
                if shown.text.count < from.count {
                    record(.backSpaceInComposition, .passed("“\(from)” became “\(shown.text)”; the committed text stayed"), number)
                }
            }
            preedit = shown.text
            let room = limit.limit - textLength
            if room >= 0, count(shown.text) > room {
                longerThanRoom = (shown.text, room)
                longerCommitted = false
            }
        case .preeditEnd:
            if let from = backSpaceFrom, committedSinceKey == nil {
                backSpaceFrom = nil
                record(.backSpaceInComposition, .passed("“\(from)” ended: one character, erased; the committed text stayed"), number)
            }
            preedit = ""
            finishInterrupted(row: number, ended: true)
        case .commit(let text):
            committedSinceKey = text
            lastCommit = text
            if composing || !text.isEmpty {
                record(.composeAndCommit, .passed("“\(text)” was committed from its composition"), number)
            }
            if longerThanRoom != nil { longerCommitted = true }
            finishInterrupted(row: number, ended: false)
        case .edit(let edit):
            judge(edit, row: number)
        case .text(let snapshot):
            textLength = count(snapshot.text)
        case .limit(let removed, _):
            judgeLimitAction("the limit cut “\(removed)”", item: .hardLimitMidComposition, row: number)
        case let .overflow(_, _, over, _) where over > 0:
            judgeLimitAction("the overflow (\(over) over) was coloured", item: .softLimitColouring, row: number)
        case .completion(let state, _, _, _, _) where state == .open:
            if composing {
                record(.completionAfterCommit, .failed("the completion list opened while “\(preedit)” was still composing"), number)
            } else if committedSinceKey != nil {
                record(.completionAfterCommit, .passed("the completion list opened after “\(committedSinceKey ?? "")” was committed"), number)
            }
        case .send(let text, _):
            if composing {
                record(.enterConfirmsThenSends, .failed("“\(text)” was sent while “\(preedit)” was still composing"), number)
            } else if let confirmed = enterConfirmed, confirmed.key == lastKeyRow {
                record(.enterConfirmsThenSends, .failed("the Return that confirmed “\(confirmed.text)” also sent “\(text)”"), number,
                       from: confirmed.start)
                enterConfirmed = nil
            } else if let confirmed = enterConfirmed {
                record(.enterConfirmsThenSends, .passed("Return confirmed “\(confirmed.text)”; the next Return sent “\(text)”"), number,
                       from: confirmed.start)
                enterConfirmed = nil
            }
        case .focus(let isIn):
            if !isIn, composing { focusLeftComposing = preedit }
            if isIn, let kept = focusLeftComposing, composing {
                focusLeftComposing = nil
                record(.focusOutMidComposition, .passed("“\(kept)” was still composing when the focus came back"), number)
            }
        case .press:
            if composing { clickedComposing = preedit }
        case .placement(let placement):
            guard placement.popup != nil || !placement.findings.isEmpty else { break }
            if let finding = placement.findings.first {
                let (explanation, reference) = finding.explanation(placement)
                record(.candidateWindowAtCaret, .failed(explanation + (reference.map { " (\($0))" } ?? "")), number)
            } else if let popup = placement.popup {
                record(.candidateWindowAtCaret, .passed("the candidate window (\(popup)) is next to the caret (\(placement.caret?.description ?? placement.given.description))"), number)
            }
        default:
            break
        }
    }

    private mutating func judge(_ edit: Edit, row: Int) {
        if edit.origin == .undo, !edit.removed.isEmpty, let commit = lastCommit, !composing {
            if edit.removed == commit {
                record(.undoAfterCommit, .passed("Ctrl+Z removed exactly the commit “\(commit)”"), row)
            } else {
                record(.undoAfterCommit, .failed("Ctrl+Z removed “\(edit.removed)”, not the commit “\(commit)”"), row)
            }
            lastCommit = nil
        }
        if edit.origin == .key, !edit.removed.isEmpty, let from = backSpaceFrom {
            backSpaceFrom = nil
            record(.backSpaceInComposition, .failed("BackSpace deleted the committed “\(edit.removed)” while “\(from)” was composing"), row)
        }
        if edit.origin == .imCommit || edit.origin == .program, !edit.inserted.isEmpty {
            finishInterrupted(row: row, ended: false, inserted: edit.inserted)
        }
    }

    private mutating func judge(_ anomaly: Anomaly, row: Int) {
        switch anomaly.id {
        case "preedit-vanished":
            let explanation = anomaly.line
            if focusLeftComposing != nil {
                focusLeftComposing = nil
                record(.focusOutMidComposition, .failed(explanation), row)
            }
            if clickedComposing != nil {
                clickedComposing = nil
                record(.clickMidComposition, .failed(explanation), row)
            }
        default:
            break
        }
    }

    /// A composition interrupted by the focus or a click ended: kept (committed, or
    /// inserted by the composer) or, when it ended with nothing, its anomaly fails it.
    private mutating func finishInterrupted(row: Int, ended: Bool, inserted: String? = nil) {
        if let kept = focusLeftComposing, !ended {
            focusLeftComposing = nil
            record(.focusOutMidComposition, .passed("“\(inserted ?? committedSinceKey ?? kept)” was committed when the focus left"), row)
        }
        if let kept = clickedComposing, !ended {
            clickedComposing = nil
            record(.clickMidComposition, .passed("“\(inserted ?? committedSinceKey ?? kept)” was kept where it was drawn"), row)
        }
    }

    /// A cut (hard) or a colouring (soft): right only after a commit, never mid-composition.
    private mutating func judgeLimitAction(_ action: String, item: ChecklistItem, row: Int) {
        let wanted: LengthLimit.Mode = item == .hardLimitMidComposition ? .hard : .soft
        guard limit.mode == wanted else { return }
        if composing, committedSinceKey == nil {
            record(item, .failed("\(action) while “\(preedit)” was still composing"), row)
            if longerThanRoom != nil {
                record(.compositionLongerThanLimit, .failed("\(action) while “\(preedit)” was still composing"), row)
            }
        } else if let committed = committedSinceKey {
            record(item, .passed("\(action) only after “\(committed)” was committed"), row)
            if let longer = longerThanRoom, longerCommitted {
                record(.compositionLongerThanLimit,
                       .passed("“\(longer.text)” (\(count(longer.text))) showed whole with \(longer.room) left; \(action) after its commit"), row)
                longerThanRoom = nil
            }
        }
    }

    private func count(_ text: String) -> Int {
        switch limit.unit {
        case .graphemes: text.count
        case .scalars: text.unicodeScalars.count
        case .utf16: text.utf16.count
        }
    }

    private mutating func record(_ item: ChecklistItem, _ verdict: ChecklistVerdict, _ row: Int, from start: Int? = nil) {
        var result = results[item] ?? ChecklistResult()
        if case .failed = result.verdict, case .passed = verdict { return }
        result.verdict = verdict
        result.rows = min(start ?? attemptStart, row)...row
        results[item] = result
    }
}
