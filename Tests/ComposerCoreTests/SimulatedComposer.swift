import ComposerCore

/// The composer without GTK: a model, the settle pipeline with the limit and overflow
/// controllers, and a stand-in for the text buffer that applies their effects the way the
/// app does (a trim is the composer's own edit; the overflow tag lives on the scalars).
///
/// The tag stand-in is deliberately hostile: text inserted next to or inside tagged text
/// gets a random tag state, since whether GTK's inserted text inherits a tag depends on
/// where the toggles lie. The controller must be right either way.
final class SimulatedComposer {
    let model: ComposerModel
    var limit: LengthLimit {
        didSet { limitController.limit = limit; overflowController.limit = limit }
    }
    private(set) var tags: [Bool]
    private(set) var events: [TraceEvent] = []
    private(set) var trims: [(range: Range<Int>, removed: String)] = []
    private(set) var effects: [SettleEffect] = []
    private var randomBits: [Bool]
    private var limitController: LimitCutter!
    private var overflowController: OverflowColoring!
    private var pipeline: SettlePipeline!

    init(text: String = "", caret: Int? = nil, limit: LengthLimit, inheritance: [Bool] = [true, false]) {
        model = ComposerModel(text: text, caret: caret)
        self.limit = limit
        tags = [Bool](repeating: false, count: text.unicodeScalars.count)
        randomBits = inheritance.isEmpty ? [false] : inheritance
        limitController = LimitCutter(limit: limit)
        overflowController = OverflowColoring(limit: limit)
        pipeline = SettlePipeline(steps: [limitController, overflowController, TextChangeReporter()])
    }

    var text: String { model.text }
    var caret: Int { model.selection.caret }
    var status: LimitStatus { overflowController.status }

    // MARK: what an input method, a key, a paste or undo does to the buffer

    func insert(_ string: String, at offset: Int? = nil, origin: EditOrigin) {
        let at = offset ?? model.selection.caret
        let count = string.unicodeScalars.count
        model.applyInsert(at: at, text: string, origin: origin)
        let inherited = (0..<count).map { _ in nextRandomBit() }
        tags.insert(contentsOf: inherited, at: min(at, tags.count))
        model.setSelection(anchor: at + count, caret: at + count)
    }

    func delete(_ range: Range<Int>, origin: EditOrigin) {
        let range = range.clamped(to: 0..<model.document.scalarCount)
        guard !range.isEmpty else { return }
        model.applyDelete(range: range, origin: origin)
        tags.removeSubrange(range)
    }

    func commit(_ string: String) { insert(string, origin: .imCommit) }

    func compose(_ preedit: String) {
        if model.preedit == nil { model.preeditStarted() }
        model.preeditChanged(Preedit(text: preedit, cursor: preedit.unicodeScalars.count, segments: []))
    }

    func endComposition() { model.preeditEnded() }

    /// What the app does when GTK's "end-user-action" fires (a commit or paste is done).
    func userActionEnded() {
        if let tag = overflowController.tagInsertedOverflow(model) { apply(tag) }
    }

    func moveCaret(to offset: Int) { model.setSelection(anchor: offset, caret: offset) }

    @discardableResult
    func settle() -> [TraceEvent] {
        let output = pipeline.settle(model) { [unowned self] cut in apply(cut) }
        for effect in output.effects { apply(effect) }
        events += output.events
        return output.events
    }

    /// The scalar ranges carrying the overflow tag.
    var taggedRanges: [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for (index, tagged) in (tags + [false]).enumerated() {
            if tagged, start == nil { start = index }
            if !tagged, let begin = start { ranges.append(begin..<index); start = nil }
        }
        return ranges
    }

    private func apply(_ effect: SettleEffect) {
        effects.append(effect)
        switch effect {
        case let .trim(range, caret):
            trims.append((range, model.document.substring(scalars: range)))
            delete(range, origin: .program)
            moveCaret(to: caret)
        case let .overflowTag(add, remove):
            for range in remove { for index in range where index < tags.count { tags[index] = false } }
            for range in add { for index in range where index < tags.count { tags[index] = true } }
        case .highlight, .controlTag:
            break  // highlighting and controls have their own drivers (MentionHighlighterTests, …)
        }
    }

    private func nextRandomBit() -> Bool {
        let bit = randomBits.removeFirst()
        randomBits.append(bit)
        return bit
    }
}
