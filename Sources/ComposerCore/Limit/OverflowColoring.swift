/// Colours what is past the limit: the committed graphemes after the limit carry the
/// overflow tag, in both modes (in hard mode, undo can bring text back over).
///
/// The rules for decorating text as it is typed (`TokenHighlighter` and
/// `InvisibleControlMarking` follow them too): recolour only when characters changed (it
/// runs at settle, which tag changes never cause — no loops); apply only the newest result
/// (it is computed and applied synchronously at each settle); and cost proportional to the
/// edit, not the document: it tracks the tagged range through the edits since the last
/// settle and asks only for the difference, plus the freshly inserted text, whose tag GTK
/// may or may not have inherited from its neighbours.
public final class OverflowColoring: SettleStep {
    public let name = "overflow"
    public var limit: LengthLimit
    /// Ranges known to carry the tag, as of `seenSequence`.
    private var tagged: [Range<Int>] = []
    /// Text inserted since the last settle whose tag is unknown (GTK may or may not have
    /// extended a neighbour's to it), as of `seenSequence`.
    private var untracked: [Range<Int>] = []
    private var seenSequence = -1
    private var reported: TraceEvent?
    /// The overflow as last reported (kept with the trace off too: a trace started later
    /// begins from it).
    public var lastReported: TraceEvent? { reported }
    public private(set) var status = LimitStatus(count: 0, provisionalCount: nil, limit: 0)

    public init(limit: LengthLimit) {
        self.limit = limit
    }

    public func settle(_ model: ComposerModel, into output: inout SettleOutput) {
        let document = model.document
        let count = document.count(in: limit.unit)
        status = LimitStatus(count: count, provisionalCount: provisionalCount(model), limit: limit.limit)

        let boundary = limitBoundary(model)
        let overflow = boundary < document.scalarCount ? [boundary..<document.scalarCount] : []
        // Nothing since "end-user-action" tagged the typed text (the usual keystroke): the
        // ranges are as it left them.
        let (known, unknown) = model.log.lastEditSequence <= seenSequence
            ? (tagged, untracked) : trackTagged(through: model.log.edits(after: seenSequence))
        seenSequence = model.log.lastSequence
        let add = RangeSet.subtract(overflow, known)
        let remove = RangeSet.subtract(RangeSet.union(known, unknown), overflow)
        if !add.isEmpty || !remove.isEmpty { output.effects.append(.overflowTag(add: add, remove: remove)) }
        tagged = overflow
        untracked = []

        let event = TraceEvent.overflow(start: boundary, end: document.scalarCount,
                                        over: max(0, count - limit.limit), unit: limit.unit)
        if event != reported {
            output.events.append(event)
            reported = event
        }
    }

    /// Tags, now, the text inserted since the last settle that lies past the limit — called
    /// when a user action (a commit, a paste) has finished, before the text view lays the
    /// caret's paragraph out. Such text is overflow whatever the settle finds: the text
    /// before it did not change, and a combining mark typed there joins a grapheme that is
    /// past the limit already. GTK does not extend a tag over text typed at the end of its
    /// run, and a tag put on at the settle throws away the paragraph layout the text view
    /// has just built, so every keystroke past the limit would lay its paragraph out twice.
    /// What it tags is known tagged from then on (the caller applies the effect it returns
    /// at once): the settle computes the whole difference and finds this part done,
    /// without asking GTK to tag it again.
    public func tagInsertedOverflow(_ model: ComposerModel) -> SettleEffect? {
        guard model.document.count(in: limit.unit) > limit.limit else { return nil }
        let edits = model.log.edits(after: seenSequence)
        guard edits.contains(where: { !$0.inserted.isEmpty }) else { return nil }
        let boundary = limitBoundary(model)
        let (known, unknown) = trackTagged(through: edits)
        let past = unknown.filter { $0.lowerBound > boundary }
        guard !past.isEmpty else { return nil }
        seenSequence = model.log.lastSequence
        tagged = RangeSet.union(known, past)
        untracked = RangeSet.subtract(unknown, past)
        return .overflowTag(add: past, remove: [])
    }

    /// The last limit boundary computed, the limit it was for, and the log sequence it is
    /// valid at.
    private var knownBoundary: (offset: Int, limit: LengthLimit, sequence: Int)?

    /// Where the overflow starts. Finding it walks the rope; typing past the limit does not
    /// move it, so it is found again only after an edit at or before it, or a new limit.
    /// That holds when the text before it is exactly the limit long: then it is unchanged,
    /// and any text after it is over. (When a grapheme straddles the limit, the boundary is
    /// that grapheme's start, and an edit inside the grapheme can move it: not kept.)
    private func limitBoundary(_ model: ComposerModel) -> Int {
        let document = model.document
        if let known = knownBoundary, known.limit == limit, model.log.lastEditSequence <= known.sequence {
            return known.offset
        }
        if let known = knownBoundary, known.limit == limit, known.offset < document.scalarCount,
           model.log.holdsEverything(after: known.sequence),
           model.log.editsAfter(known.sequence, allSatisfy: { $0.range.lowerBound > known.offset }) {
            knownBoundary?.sequence = model.log.lastSequence
            return known.offset
        }
        let offset = document.limitBoundary(limit.limit, in: limit.unit)
        let exact = offset < document.scalarCount
            && document.count(in: limit.unit, scalars: 0..<offset) == limit.limit
        knownBoundary = exact ? (offset, limit, model.log.lastSequence) : nil
        return offset
    }

    /// Where the tagged ranges are now, and the text inserted since the last settle (tag
    /// state unknown).
    private func trackTagged(through edits: [Edit]) -> (known: [Range<Int>], unknown: [Range<Int>]) {
        var known = InsertedRanges(ranges: tagged)
        var unknown = InsertedRanges(ranges: untracked)
        for edit in edits {
            known.apply(edit, tagging: false)
            unknown.apply(edit, tagging: true)
        }
        return (known.ranges, unknown.ranges)
    }

    /// The count as it would be with the composition committed at the caret.
    private func provisionalCount(_ model: ComposerModel) -> Int? {
        guard let preedit = model.preedit, !preedit.text.isEmpty else { return nil }
        var withPreedit = model.document
        withPreedit.replace(scalars: model.selection.lower..<model.selection.upper, with: preedit.text)
        return withPreedit.count(in: limit.unit)
    }
}
