/// The ordered record of edits and settle marks.
///
/// Settle steps judge input only once it is complete (they decide after input settles):
/// they ask what was inserted since the last quiet settle, or in the quiet window that the
/// latest quiet settle just closed, and get ranges in today's text.
public struct EditLog: Sendable {
    public enum Entry: Equatable, Sendable {
        case edit(Edit)
        case settle(SettleMark)
    }

    /// Bounded: everything since the second-to-last quiet settle is kept (so the
    /// window just closed by the latest quiet settle is complete, see
    /// `insertedInLastQuietWindow()`), plus at most `historyLimit` older entries.
    public private(set) var entries: [Entry] = []
    public let historyLimit: Int

    private var nextSequence = 0
    /// Indices into `entries` of the last and the second-to-last quiet settle.
    private var lastQuietIndex: Int?
    private var previousQuietIndex: Int?

    public init(historyLimit: Int = 2000) {
        self.historyLimit = max(0, historyLimit)
    }

    @discardableResult
    public mutating func recordEdit(range: Range<Int>, removed: String, inserted: String, origin: EditOrigin) -> Edit {
        let edit = Edit(sequence: takeSequence(), range: range, removed: removed, inserted: inserted, origin: origin)
        entries.append(.edit(edit))
        lastEditSequence = edit.sequence
        return edit
    }

    @discardableResult
    public mutating func recordSettle(preeditActive: Bool) -> SettleMark {
        let mark = SettleMark(sequence: takeSequence(), preeditActive: preeditActive)
        entries.append(.settle(mark))
        if mark.isQuiet {
            previousQuietIndex = lastQuietIndex
            lastQuietIndex = entries.count - 1
            trimHistory()
        }
        return mark
    }

    /// Edits after the last quiet settle (all edits if there was none).
    public func editsSinceLastQuietSettle() -> [Edit] {
        Self.edits(in: entries[startOfCurrentWindow...])
    }

    /// Current scalar ranges of text inserted after the last quiet settle and still present.
    public func insertedSinceLastQuietSettle() -> [Range<Int>] {
        insertedRanges(taggingFrom: startOfCurrentWindow, to: entries.count)
    }

    /// Edits between the second-to-last and the last quiet settle: the input that
    /// the latest quiet settle declared complete. A settle step running right after
    /// that settle (the settle pipeline marks first) judges exactly these.
    public func editsInLastQuietWindow() -> [Edit] {
        guard let end = lastQuietIndex else { return [] }
        return Self.edits(in: entries[startOfLastQuietWindow..<end])
    }

    /// Current scalar ranges (mapped through every later edit, including edits made
    /// after the last quiet settle) of text inserted in the last quiet window.
    public func insertedInLastQuietWindow() -> [Range<Int>] {
        guard let end = lastQuietIndex else { return [] }
        return insertedRanges(taggingFrom: startOfLastQuietWindow, to: end)
    }

    /// The sequence number of the newest entry (-1 when empty).
    public var lastSequence: Int { nextSequence - 1 }

    /// The sequence number of the newest edit (-1 before the first): a settle step that has
    /// seen it knows the text has not changed since, without asking for the edits.
    public private(set) var lastEditSequence = -1

    /// Whether every edit recorded after sequence `sequence` satisfies `condition` (true
    /// when there is none), newest first, without collecting them.
    public func editsAfter(_ sequence: Int, allSatisfy condition: (Edit) -> Bool) -> Bool {
        for entry in entries.reversed() {
            guard entry.sequence > sequence else { return true }
            if case .edit(let edit) = entry, !condition(edit) { return false }
        }
        return true
    }

    /// Whether every entry after `sequence` is still here: the history kept reaches back to
    /// it (a step that last looked at `sequence` can follow the edits since, not only some).
    public func holdsEverything(after sequence: Int) -> Bool {
        entries.first.map { $0.sequence <= sequence + 1 } ?? (sequence >= lastSequence)
    }

    /// The lowest offset an edit recorded after sequence `sequence` started at (in the text
    /// as that edit found it), or nil when there is none; without collecting the edits.
    public func lowestEditStart(after sequence: Int) -> Int? {
        var lowest: Int?
        for entry in entries.reversed() {
            guard entry.sequence > sequence else { break }
            if case .edit(let edit) = entry { lowest = min(lowest ?? edit.range.lowerBound, edit.range.lowerBound) }
        }
        return lowest
    }

    /// Edits recorded after the entry with sequence `sequence`, oldest first. Scans from
    /// the newest entry back, so it costs what happened since, not the whole log.
    public func edits(after sequence: Int) -> [Edit] {
        var newer: [Edit] = []
        for entry in entries.reversed() {
            switch entry {
            case .edit(let edit):
                guard edit.sequence > sequence else { return newer.reversed() }
                newer.append(edit)
            case .settle(let mark):
                guard mark.sequence > sequence else { return newer.reversed() }
            }
        }
        return newer.reversed()
    }

    /// `insertedInLastQuietWindow()` counting only edits of the given origins: the length
    /// limit trims what was typed, pasted or committed, never what undo or redo restored.
    public func insertedInLastQuietWindow(origins: Set<EditOrigin>) -> [Range<Int>] {
        guard let end = lastQuietIndex else { return [] }
        var tracker = InsertedRanges()
        for index in startOfLastQuietWindow..<entries.count {
            guard case let .edit(edit) = entries[index] else { continue }
            tracker.apply(edit, tagging: index < end && origins.contains(edit.origin))
        }
        return tracker.ranges
    }

    private var startOfCurrentWindow: Int { lastQuietIndex.map { $0 + 1 } ?? 0 }
    private var startOfLastQuietWindow: Int { previousQuietIndex.map { $0 + 1 } ?? 0 }

    private func insertedRanges(taggingFrom start: Int, to end: Int) -> [Range<Int>] {
        var tracker = InsertedRanges()
        for index in start..<entries.count {
            guard case let .edit(edit) = entries[index] else { continue }
            tracker.apply(edit, tagging: index < end)
        }
        return tracker.ranges
    }

    private static func edits(in slice: ArraySlice<Entry>) -> [Edit] {
        slice.compactMap { entry in
            if case let .edit(edit) = entry { return edit }
            return nil
        }
    }

    private mutating func takeSequence() -> Int {
        defer { nextSequence += 1 }
        return nextSequence
    }

    private mutating func trimHistory() {
        let keptFrom = previousQuietIndex ?? 0
        let excess = keptFrom - historyLimit
        guard excess > 0 else { return }
        entries.removeFirst(excess)
        lastQuietIndex = lastQuietIndex.map { $0 - excess }
        previousQuietIndex = previousQuietIndex.map { $0 - excess }
    }
}

extension EditLog.Entry {
    /// The position in the log of an edit or a settle mark.
    var sequence: Int {
        switch self {
        case .edit(let edit): edit.sequence
        case .settle(let mark): mark.sequence
        }
    }
}
