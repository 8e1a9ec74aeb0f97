/// Marks the invisible controls in the committed text (`InvisibleControls`' rule): a pasted
/// `U+202E` or zero-width space shows as a box instead of silently reordering or splitting
/// what the user is about to send.
///
/// The rules for decorating text as it is typed, like `OverflowColoring` and
/// `TokenHighlighter`: it runs at settle only, which its own tag changes never cause, and
/// it costs what the edit costs. It keeps the marked ranges and the offsets of every
/// control (marked or spelling an emoji or a word) and maps both through the edits since
/// the last settle; the controls an edit inserts are found in the edit's own text. Only
/// where a control lies within `InvisibleControls.reach` of an edit is the text read again,
/// to ask its neighbours; typing where there is no control reads nothing. Fresh text is
/// cleared of a tag it should not carry: typed text inherits the tag only strictly inside a
/// marked run, a paste or a drop may bring any. The whole text is read once, at the first
/// settle (or when the edit log dropped edits this step had not seen). The preedit is never
/// in the document, so it is never marked.
public final class InvisibleControlMarking: SettleStep {
    public let name = "invisible-controls"

    /// Ranges known to carry the tag, as of `seenSequence` (shifted lazily, as the
    /// highlighter's: a draft full of controls costs typing nothing per control).
    private var marked = ShiftedRanges()
    /// Every control in the text, marked or not, as of `seenSequence`: the only places a
    /// re-read can find something to mark.
    private var controls = ShiftedRanges()
    private var seenSequence = -1
    private var scanned = false

    /// Scalars read from the document by the last settle (for tests of the cost).
    public private(set) var lastScannedScalars = 0

    public init() {}

    /// The ranges this step believes carry the tag (after the last settle).
    public var markedRanges: [Range<Int>] { marked.elements }

    public func settle(_ model: ComposerModel, into output: inout SettleOutput) {
        let log = model.log
        let historyKept = log.holdsEverything(after: seenSequence)
        let edits = log.edits(after: seenSequence)
        seenSequence = log.lastSequence
        lastScannedScalars = 0
        if scanned, edits.isEmpty { return }
        let effect = scanned && historyKept ? follow(edits, model) : scanAll(edits, model)
        if let effect { output.effects.append(effect) }
    }

    /// The first settle, or one after the log dropped edits: reads the whole text.
    private func scanAll(_ edits: [Edit], _ model: ComposerModel) -> SettleEffect? {
        let count = model.document.scalarCount
        // No tag was ever applied before the first scan: only inserted text might carry one
        // (pasted rich text). After lost history, any text might.
        var unknown = InsertedRanges()
        if scanned {
            unknown = InsertedRanges(ranges: count > 0 ? [0..<count] : [])
        } else {
            for edit in edits { unknown.apply(edit, tagging: true) }
        }
        scanned = true
        let scalars = model.scalars(in: 0..<count)
        lastScannedScalars = scalars.count
        controls = ShiftedRanges(Self.controlRanges(scalars, at: 0))
        let wanted = controls.isEmpty ? [] : InvisibleControls.markedRanges(in: scalars)
        let remove = RangeSet.subtract(unknown.ranges, wanted)
        marked = ShiftedRanges(wanted)
        return wanted.isEmpty && remove.isEmpty ? nil : .controlTag(add: wanted, remove: remove)
    }

    /// Follows the edits since the last settle and re-reads only around the controls near them.
    private func follow(_ edits: [Edit], _ model: ComposerModel) -> SettleEffect? {
        // Which fresh text may carry a tag it should not (see `TokenHighlighter.settle`).
        let anyTagPossible = edits.contains { $0.origin == .paste || $0.origin == .drop }
        var unknown = InsertedRanges()
        var inherited = InsertedRanges()
        for edit in edits {
            if anyTagPossible { unknown.apply(edit, tagging: true) }
            if !marked.isEmpty || !inherited.ranges.isEmpty {
                let inherits = edit.insertedScalarCount > 0
                    && TokenHighlighter.isInsideRun(edit.range, marked, inherited.ranges)
                if inherits || !inherited.ranges.isEmpty { inherited.apply(edit, tagging: inherits) }
                marked.map(through: edit)
            }
            if !controls.isEmpty { controls.map(through: edit) }
            let start = edit.range.lowerBound
            let inserted = Self.controlRanges(edit.inserted.unicodeScalars, at: start)
            if !inserted.isEmpty { controls.replace(in: start..<(start + edit.insertedScalarCount), with: inserted) }
        }
        let fresh = anyTagPossible ? unknown.ranges : inherited.ranges
        // The usual keystroke: no control anywhere, no tag on the text, none it could inherit.
        if controls.isEmpty, marked.isEmpty, fresh.isEmpty { return nil }

        var dirty = DirtyIntervals()
        for edit in edits { dirty.apply(edit) }
        let count = model.document.scalarCount
        let reach = InvisibleControls.reach
        let windows = InsertedRanges.merged(dirty.intervals.map { interval in
            max(0, interval.lowerBound - reach)..<min(count, interval.upperBound + 1 + reach)
        })
        var add: [Range<Int>] = [], remove: [Range<Int>] = []
        for window in windows where !window.isEmpty {
            let known = marked.clip(to: window)
            let freshHere = TokenHighlighter.clip(fresh, to: window)
            let present = controls.clip(to: window)
            var wanted: [Range<Int>] = []
            if !present.isEmpty {
                let readStart = max(0, window.lowerBound - reach)
                let text = model.scalars(in: readStart..<min(count, window.upperBound + reach))
                lastScannedScalars += text.count
                for range in present {
                    for offset in range where InvisibleControls.isMarked(at: offset - readStart, in: text) {
                        if let last = wanted.last, last.upperBound == offset {
                            wanted[wanted.count - 1] = last.lowerBound..<(offset + 1)
                        } else {
                            wanted.append(offset..<(offset + 1))
                        }
                    }
                }
            }
            if wanted == known, freshHere.isEmpty { continue }
            add += RangeSet.subtract(wanted, known)
            remove += RangeSet.subtract(RangeSet.union(known, freshHere), wanted)
            marked.replace(in: window, with: wanted)
        }
        return add.isEmpty && remove.isEmpty ? nil : .controlTag(add: add, remove: remove)
    }

    /// The controls among `scalars`, which start at document offset `start`, merged.
    private static func controlRanges(_ scalars: some Sequence<Unicode.Scalar>, at start: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = start
        for scalar in scalars {
            if InvisibleControls.isControl(scalar) {
                if let last = ranges.last, last.upperBound == offset {
                    ranges[ranges.count - 1] = last.lowerBound..<(offset + 1)
                } else {
                    ranges.append(offset..<(offset + 1))
                }
            }
            offset += 1
        }
        return ranges
    }
}
