/// What happened to the completion list, as the trace reports it.
public enum CompletionListChange: String, Sendable, CaseIterable {
    /// The list appeared.
    case open
    /// The open list changed: other items (a new query) or another selected row.
    case update
    /// The list went away (no word at the caret, nothing matches, Escape, accepted).
    case close
}

/// What accepting a row does to the committed text: replace `replaceRange` (prefix +
/// query, in scalars) with `text`, as one undoable step, caret after it.
public struct CompletionAcceptance: Equatable, Sendable {
    /// Scalars to replace: from the prefix to the caret at the last settle.
    public var replaceRange: Range<Int>
    /// What goes there ("@tanaka ", "#general ", "🐱").
    public var text: String
    /// The accepted item's id ("u0001").
    public var itemID: String
    /// The source the item came from ("people").
    public var source: String

    public init(replaceRange: Range<Int>, text: String, itemID: String, source: String) {
        self.replaceRange = replaceRange
        self.text = text
        self.itemID = itemID
        self.source = source
    }

    /// Where the caret goes after the replacement.
    public var caretAfter: Int { replaceRange.lowerBound + text.unicodeScalars.count }

    /// The trace event for it.
    public var traceEvent: TraceEvent { .accept(item: itemID, text: text) }
}

/// The completion list, done right for input methods: at each settle it looks
/// for a prefixed word at the caret and keeps the list of matching items.
///
/// - Evaluated at settles where the caret (selection) moved or the committed text changed;
///   only with an empty selection.
/// - **While the input method is composing (`model.preedit != nil`) the list neither
///   opens nor changes**: it stays exactly as it was. The settle after the commit
///   evaluates it once.
/// - Extending the query (typing on) re-filters the previous search instead of starting over.
/// - Emits `completion` trace events for every change (open, update, close) and `accept`
///   through `didAccept(_:)`.
///
/// The app shows `visibleItems`, routes Up/Down to `moveSelection(by:)`, Escape to
/// `close()`, Tab/Enter/click to `acceptance(of:)` → apply the edit → `didAccept(_:)`.
/// Methods called outside a settle return the trace events to write at once.
public final class CompletionList: SettleStep {
    public let name = "completion"
    /// Rows searched and kept (the list scrolls through them).
    public static let resultLimit = 20
    /// Rows shown at once.
    public static let visibleRowCount = 5
    /// Item ids a `completion` trace event lists.
    public static let tracedItemCount = 10

    public private(set) var trigger: CompletionTrigger
    public private(set) var sources: [String: CompletionSource] = [:]
    public let recents: RecentItems

    /// The word the open list completes (nil when closed).
    public private(set) var word: CompletionWord?
    /// The rows, best first (at most `resultLimit`); empty when closed.
    public private(set) var items: [CompletionItem] = []
    /// The selected row (nil when closed).
    public private(set) var selectedIndex: Int?
    /// The first row shown; the list scrolls so the selected row stays visible.
    public private(set) var firstVisibleRow = 0
    /// How many times a word was searched (for tests: evaluation happens once per change).
    public private(set) var searchCount = 0

    public var isOpen: Bool { !items.isEmpty }
    /// Rows to show: up to `visibleRowCount`, containing the selected row.
    public var visibleRange: Range<Int> { firstVisibleRow..<min(items.count, firstVisibleRow + Self.visibleRowCount) }
    public var visibleItems: ArraySlice<CompletionItem> { items[visibleRange] }

    /// What the last evaluation saw; a settle where none of it changed does nothing.
    private var lastSelection: TextSelection?
    private var lastSequence = Int.min
    private var lastWord: CompletionWord?
    /// The last search, for re-filtering when the query is extended.
    private var lastSearch: (source: String, start: Int, state: FuzzySearchState)?

    public init(sources: [CompletionSource], trigger: CompletionTrigger = .standard, recents: RecentItems = RecentItems()) {
        self.trigger = trigger
        self.recents = recents
        for source in sources { add(source) }
    }

    /// Adds (or replaces) a source; recent items of that name apply to it. The next settle
    /// evaluates the word at the caret again, even if nothing was typed since: a source that
    /// arrives late (the app loads its data after the first frame) completes what is there.
    public func add(_ source: CompletionSource) {
        sources[source.name] = source
        lastSequence = Int.min
        lastWord = nil
        if lastSearch?.source == source.name { lastSearch = nil }
        source.setRecent(ids: recents.items(for: source.name))
    }

    /// Registers a prefix for a source, e.g. from configuration: `+` → a source "teams".
    /// Returns false when the prefix cannot be told from a word (see `CompletionTrigger`).
    @discardableResult
    public func register(prefix: String, source: CompletionSource, minimumQueryLength: Int = 0) -> Bool {
        guard trigger.register(prefix: prefix, source: source.name, minimumQueryLength: minimumQueryLength) else {
            return false
        }
        add(source)
        return true
    }

    // MARK: - Settle

    public func settle(_ model: ComposerModel, into output: inout SettleOutput) {
        // Composing: the list stays exactly as it was (it neither opens nor changes).
        guard model.preedit == nil else { return }
        let sequence = model.log.lastSequence
        let textChanged = lastSequence == Int.min || !model.log.edits(after: lastSequence).isEmpty
        let selectionChanged = model.selection != lastSelection
        lastSequence = sequence
        lastSelection = model.selection
        guard textChanged || selectionChanged else { return }
        let found = trigger.word(in: model)
        guard found != lastWord else { return }
        lastWord = found
        output.events += show(found)
    }

    /// Searches for `found` and updates the list; returns the trace events of the change.
    private func show(_ found: CompletionWord?) -> [TraceEvent] {
        guard let found else { return closeList() }
        guard let source = sources[found.source] else { return closeList() }
        searchCount += 1
        let previous = lastSearch.flatMap { last in
            last.source == found.source && last.start == found.range.lowerBound ? last.state : nil
        }
        let (newItems, state) = source.search(found.query, limit: Self.resultLimit, previous: previous)
        lastSearch = (found.source, found.range.lowerBound, state)
        guard !newItems.isEmpty else { return closeList() }
        let wasOpen = isOpen
        let sameItems = newItems.map(\.id) == items.map(\.id)
        let previousWord = word
        word = found
        items = newItems
        if !wasOpen || !sameItems {
            selectedIndex = 0
            firstVisibleRow = 0
        }
        if wasOpen, sameItems, previousWord?.prefix == found.prefix, previousWord?.query == found.query {
            return []  // only the range moved (text edited before the word): nothing to report
        }
        return [traceEvent(wasOpen ? .update : .open)]
    }

    // MARK: - For the app

    /// Moves the selection by `delta` rows (Up: -1, Down: +1), clamped to the list.
    /// Returns the trace event (an update) if the selection changed.
    @discardableResult
    public func moveSelection(by delta: Int) -> [TraceEvent] {
        guard isOpen, let selected = selectedIndex else { return [] }
        let target = min(max(selected + delta, 0), items.count - 1)
        guard target != selected else { return [] }
        selectedIndex = target
        if target < firstVisibleRow { firstVisibleRow = target }
        if target >= firstVisibleRow + Self.visibleRowCount { firstVisibleRow = target - Self.visibleRowCount + 1 }
        return [traceEvent(.update)]
    }

    /// Escape: closes the list; it stays closed until the word at the caret changes.
    @discardableResult
    public func close() -> [TraceEvent] {
        closeList()
    }

    /// What accepting row `index` (default: the selected one) does, or nil when the list
    /// is closed or there is no such row. The app applies it as one undoable edit (origin
    /// `program`), puts the caret at `caretAfter`, then calls `didAccept(_:)`.
    ///
    /// With `model`, also nil when the list no longer matches it: the input method is
    /// composing, or the word at the caret is not the one the list was made for.
    public func acceptance(of index: Int? = nil, in model: ComposerModel? = nil) -> CompletionAcceptance? {
        guard isOpen, let word, let index = index ?? selectedIndex, items.indices.contains(index) else { return nil }
        if let model {
            guard model.preedit == nil, trigger.word(in: model) == word else {
                return nil
            }
        }
        let item = items[index]
        return CompletionAcceptance(replaceRange: word.range, text: item.insertion, itemID: item.id, source: word.source)
    }

    /// After the app applied `acceptance`: remembers the item as recent (it ranks first
    /// among equals from now on), closes the list, returns the trace events (`accept`,
    /// then the `completion` close).
    @discardableResult
    public func didAccept(_ acceptance: CompletionAcceptance) -> [TraceEvent] {
        recents.record(acceptance.itemID, source: acceptance.source)
        sources[acceptance.source]?.setRecent(ids: recents.items(for: acceptance.source))
        lastSearch = nil
        return [acceptance.traceEvent] + closeList()
    }

    private func closeList() -> [TraceEvent] {
        guard isOpen else {
            word = nil
            return []
        }
        let event = TraceEvent.completion(state: .close, prefix: word?.prefix ?? "", query: word?.query ?? "",
                                          items: [], selected: -1)
        word = nil
        items = []
        selectedIndex = nil
        firstVisibleRow = 0
        return [event]
    }

    /// How a trace started now brings a new list to this one's state: what a new list with
    /// these sources writes at its first settle on `model` (committed text only), and then
    /// the command that closes it or moves its selection as this one was, with what it writes.
    public func replayPrefix(on model: ComposerModel) -> (settle: [TraceEvent], after: [TraceEvent]) {
        let recentCopy = RecentItems()
        for (source, ids) in recents.lists.sorted(by: { $0.key < $1.key }) {
            for id in ids.reversed() { recentCopy.record(id, source: source) }
        }
        let fresh = CompletionList(sources: orderedSources, trigger: trigger, recents: recentCopy)
        var output = SettleOutput()
        fresh.settle(model, into: &output)
        guard fresh.isOpen else { return (output.events, []) }
        if !isOpen { return (output.events, [.command(.completionClose)] + fresh.close()) }
        if let selectedIndex, selectedIndex > 0 {
            return (output.events, [.command(.completionMove(by: selectedIndex))] + fresh.moveSelection(by: selectedIndex))
        }
        return (output.events, [])
    }

    /// The sources in a stable order: people, channels, emoji, then the others by name.
    public var orderedSources: [CompletionSource] {
        let first = [CompletionSource.peopleName, CompletionSource.channelsName, CompletionSource.emojiName]
        return sources.values.sorted { lhs, rhs in
            let left = first.firstIndex(of: lhs.name) ?? first.count, right = first.firstIndex(of: rhs.name) ?? first.count
            return left != right ? left < right : lhs.name < rhs.name
        }
    }

    private func traceEvent(_ change: CompletionListChange) -> TraceEvent {
        .completion(state: change, prefix: word?.prefix ?? "", query: word?.query ?? "",
                    items: items.prefix(Self.tracedItemCount).map(\.id), selected: selectedIndex ?? -1)
    }
}
