/// What a highlighted token refers to; the app gives each kind its own text tag.
public enum HighlightKind: String, CaseIterable, Sendable {
    /// `@handle` for a known person's handle.
    case mention
    /// `#channel` for a known channel (any script: `#日本語`).
    case channel
    /// `:shortcode:` for a known emoji shortcode, both colons included.
    case emoji
}

/// Highlights mentions, channels and emoji shortcodes in the committed text as you type.
///
/// Tokens:
/// - the sigil (`@`, `#`, `:`, also full-width) starts the text or follows whitespace,
///   punctuation or a symbol — `CompletionTrigger`'s rule, so `mail@host` is no mention;
/// - `@` and `#` are followed by a known name made of word characters (letters and digits
///   of any script, `_`, `-`, `.`) that ends the word, or ends right before a `.` in it:
///   of those candidates the longest known one wins, so `@tanaka.` and `@tanaka.x`
///   highlight `@tanaka`, and `@tanaka.hanako` all of itself when that handle is known;
/// - `:` is followed by a known shortcode and a closing `:` (`:+1:` too).
/// Names compare with ASCII letters case-insensitive and full-width ASCII as ASCII;
/// every other scalar exactly. Each sigil is judged on its own and the highlighted text is
/// the union of its tokens, so whether a scalar is highlighted depends only on the text
/// at most `reach` scalars around it.
///
/// The rules for decorating text as it is typed, like `OverflowColoring`: it runs at settle
/// only, which its own tag changes never cause (no loops through the buffer's signals); it
/// computes and applies the newest result synchronously; and it costs what the edit costs.
/// It keeps the highlighted ranges per kind, maps them through the edits since the last
/// settle, re-scans only a window of `reach` scalars on either side of each edited range,
/// and asks for only the difference — plus clearing freshly inserted text of tags it may
/// carry: typed text inherits a tag only strictly inside a run of it, a paste or a drop may
/// bring any. The whole text is scanned once, at the first settle. The preedit is never in
/// the document, so it is never highlighted, while the committed text around it is.
///
/// A draft longer than `highlightsWholeTextUpTo` scalars is highlighted only in its `span`:
/// `spanMargin` scalars on either side of the text the input shows (the window says which,
/// `show`; the caret's neighbourhood until it does). Each tag costs GtkTextBuffer memory
/// (toggle segments and split text segments) and the first scan reads the whole text: a
/// 10 MB paste full of mentions kept 28 MiB more and took 0.6 s more CPU for highlights
/// nobody could see (Benchmarks/findings.md). The span moves when the shown text comes near
/// its edge: the text that enters it is scanned, the tags of the text that leaves are
/// removed. Inside the span the tags are exactly the whole-text scan's; outside there are
/// none of them.
public final class TokenHighlighter: SettleStep {
    public let name = "highlighting"
    /// Names longer than this many scalars are never highlighted (it bounds the re-scan).
    public static let maximumNameLength = 120
    /// Drafts up to this many scalars are highlighted whole (about 200 screens of the input).
    public static let highlightsWholeTextUpTo = 100_000
    /// How far on either side of the shown text a longer draft is highlighted (scalars):
    /// far more than a screen, so scrolling moves the span seldom.
    public static let spanMargin = 25_000

    /// Whether a draft of `scalarCount` scalars is highlighted only around what the input
    /// shows: then the window reports the shown text (`InputEvent.shownTextChanged`).
    public static func highlightsAroundShownText(scalarCount: Int) -> Bool {
        scalarCount > highlightsWholeTextUpTo
    }

    /// How far (in scalars) an edit can change a kind's highlighting on either side
    /// (indexed like `HighlightKind.allCases`): a token's scalar before the sigil, the
    /// sigil, the longest name, its closing colon or the scalar that ends it, and one to
    /// spare. A handle is much shorter than the longest emoji shortcode, so a mention's
    /// re-scan is much smaller.
    private let reaches: [Int]
    /// The kind with the largest reach (its windows contain the others').
    private let widestKind: Int
    /// The largest reach: how far an edit can change highlighting at all.
    public var reach: Int { reaches[widestKind] }

    private let names: [Set<String>]
    private let longestName: [Int]
    /// Ranges known to carry each kind's tag (indexed like `HighlightKind.allCases`), as
    /// of `seenSequence`.
    private var highlighted: [ShiftedRanges] = Array(repeating: ShiftedRanges(), count: HighlightKind.allCases.count)
    private var seenSequence = -1
    private var scanned = false

    private let wholeTextUpTo: Int
    private let margin: Int
    /// Where the tags are kept (scalar offsets, as of the last settle): `highlighted` holds
    /// every token inside it, clipped to it, and the buffer carries none of the tags
    /// outside it. The whole text for a short draft; nil before the first settle.
    public private(set) var span: Range<Int>?
    /// The text the input shows, as the window last said, and the edit log's sequence
    /// then (its offsets count the edits up to it). Edits since move it, never grow it;
    /// forgotten while the draft is short (the window stops saying).
    private(set) var shown: (range: Range<Int>, sequence: Int)?
    /// The document's length at the last settle.
    private var settledCount = 0

    /// Scalars read from the document by the last settle (for tests of the cost).
    public private(set) var lastScannedScalars = 0

    /// - Parameters:
    ///   - people: handles (`tanaka`, `tanaka.hanako`), without `@`.
    ///   - channels: channel names (`general`, `日本語`), without `#`.
    ///   - shortcodes: emoji shortcodes (`cat_face`, `+1`), without colons.
    /// - Parameters:
    ///   - wholeTextUpTo, margin: `highlightsWholeTextUpTo` and `spanMargin` (tests use
    ///     small ones).
    public init(people: [String], channels: [String], shortcodes: [String],
                wholeTextUpTo: Int = highlightsWholeTextUpTo, margin: Int = spanMargin) {
        self.wholeTextUpTo = max(0, wholeTextUpTo)
        self.margin = max(1, margin)
        let lists = [people, channels, shortcodes]
        var names: [Set<String>] = []
        var longest: [Int] = []
        for list in lists {
            let folded = list.map(Self.folded).filter {
                let count = $0.unicodeScalars.count
                return count > 0 && count <= Self.maximumNameLength
            }
            names.append(Set(folded))
            longest.append(folded.map { $0.unicodeScalars.count }.max() ?? 0)
        }
        self.names = names
        self.longestName = longest
        let reaches = longest.map { $0 + 4 }
        self.reaches = reaches
        self.widestKind = reaches.indices.max { reaches[$0] < reaches[$1] } ?? 0
    }

    /// People's handles and channel names from the directory, shortcodes from the emoji data.
    public convenience init(directory: WorkspaceDirectory, emoji: [EmojiEntry]) {
        self.init(people: directory.people.map(\.name), channels: directory.channels.map(\.name),
                  shortcodes: emoji.flatMap(\.shortcodes))
    }

    /// The ranges this step believes carry `kind`'s tag (after the last settle).
    public func ranges(of kind: HighlightKind) -> [Range<Int>] { highlighted[kind.index].elements }

    /// The window says the input shows `range` (scalar offsets after the edit log's
    /// `sequence`). Whether the span must move for it: then the next settle moves it.
    public func show(_ range: Range<Int>, asOf sequence: Int) -> Bool {
        shown = (range, sequence)
        guard let span, settledCount > wholeTextUpTo else { return false }
        return !Self.keeps(span, around: range.clamped(to: 0..<settledCount), count: settledCount, margin: margin)
    }

    /// Whether `span` still serves `shown`: it reaches at least half the margin past it on
    /// either side (or the text's ends) and is at most a margin longer than a fresh one
    /// (the shown text's length varies a little from scroll to scroll; a span that grew
    /// with a paste inside it is cut back).
    static func keeps(_ span: Range<Int>, around shown: Range<Int>, count: Int, margin: Int) -> Bool {
        let needed = max(0, shown.lowerBound - margin / 2)..<min(count, shown.upperBound + margin / 2)
        return span.lowerBound <= needed.lowerBound && needed.upperBound <= span.upperBound
            && span.count <= shown.count + 3 * margin
    }

    /// The span for a text of `count` scalars: the whole of a short one; otherwise
    /// `previous` while it serves the shown text (the caret's place until the window said),
    /// else `margin` around it.
    private func nextSpan(count: Int, caret: Int, previous: Range<Int>?) -> Range<Int> {
        guard count > wholeTextUpTo else { return 0..<count }
        let around = (shown?.range ?? caret..<caret).clamped(to: 0..<count)
        if let previous, Self.keeps(previous, around: around, count: count, margin: margin) { return previous }
        return max(0, around.lowerBound - margin)..<min(count, around.upperBound + margin)
    }

    /// `range` after `edit`: text inserted at or inside either end is in it.
    static func map(_ range: Range<Int>, through edit: Edit) -> Range<Int> {
        let start = edit.range.lowerBound, end = edit.range.upperBound, inserted = edit.insertedScalarCount
        func lower(_ offset: Int) -> Int { offset <= start ? offset : offset <= end ? start : offset - (end - start) + inserted }
        func upper(_ offset: Int) -> Int { offset < start ? offset : offset <= end ? start + inserted : offset - (end - start) + inserted }
        let lowerBound = lower(range.lowerBound)
        return lowerBound..<max(lowerBound, upper(range.upperBound))
    }

    public func settle(_ model: ComposerModel, into output: inout SettleOutput) {
        let log = model.log
        let historyKept = log.holdsEverything(after: seenSequence)
        let edits = log.edits(after: seenSequence)
        seenSequence = log.lastSequence
        lastScannedScalars = 0
        let document = model.document
        let count = document.scalarCount
        settledCount = count
        if count <= wholeTextUpTo {
            shown = nil
        } else if let (_, sequence) = shown, sequence < log.lastSequence,
                  !log.holdsEverything(after: sequence) {
            // The log no longer holds every edit since the window said: the offsets cannot be
            // followed, so the caret stands in again until the window says anew.
            shown = nil
        } else if let (range, sequence) = shown, sequence < log.lastSequence {
            // Its start moves with the edits before it; its length stays: a paste at a
            // shown caret is shown only as far as the screen goes (the window says where
            // once GTK scrolled to the caret), not scanned whole.
            var start = range.lowerBound
            for edit in log.edits(after: sequence) {
                if start > edit.range.lowerBound {
                    start = max(edit.range.lowerBound, start - edit.range.count) + edit.insertedScalarCount
                }
            }
            let lower = min(start, count)
            shown = (lower..<min(count, lower + range.count), log.lastSequence)
        }
        let incremental = scanned && historyKept
        var previousSpan = incremental ? span : nil
        if previousSpan != nil { for edit in edits { previousSpan = Self.map(previousSpan!, through: edit) } }
        let span = nextSpan(count: count, caret: model.selection.caret, previous: previousSpan)
        if scanned, edits.isEmpty, span == self.span { return }
        self.span = span

        // Per kind: where its tokens may have changed, `reaches[kind]` around each edit and
        // around the text that entered the span.
        var windows: [[Range<Int>]]
        // Which fresh text may carry a tag it should not. Typed text (keys, commits, undo,
        // the composer's own inserts) inherits GTK's tags only strictly inside a run of them
        // (`inherited`). A paste or a drop can bring any tag (rich text from a text buffer),
        // and a first or restarted scan knows no runs: then all fresh text is checked.
        let anyTagPossible = !incremental || edits.contains { $0.origin == .paste || $0.origin == .drop }
        // Text inserted since the last settle, whose tags are unknown: needed only then.
        var unknown = InsertedRanges()
        if anyTagPossible { for edit in edits { unknown.apply(edit, tagging: true) } }
        // Per kind: typed text GTK gave the kind's tag (inserted strictly inside a run of it),
        // followed through the later edits. Empty, and never allocated, for typing elsewhere.
        var inherited = highlighted.map { _ in InsertedRanges() }
        var add = [[Range<Int>]](repeating: [], count: highlighted.count)
        var remove = add
        // Tags removed outside the windows: from text that left the span or lies outside it.
        var cleared = add
        var dirty = DirtyIntervals()
        if incremental, let previousSpan {
            for edit in edits {
                for kind in highlighted.indices {
                    let inherits = edit.insertedScalarCount > 0
                        && Self.isInsideRun(edit.range, highlighted[kind], inherited[kind].ranges)
                    if inherits || !inherited[kind].ranges.isEmpty { inherited[kind].apply(edit, tagging: inherits) }
                    highlighted[kind].map(through: edit)
                }
                dirty.apply(edit)
            }
            // Text that left the span loses its tags; text that entered it is scanned as if
            // just typed there (it carries none of the tags: they are removed as text leaves,
            // and from pasted text outside the span below).
            for part in RangeSet.subtract([previousSpan], [span]) {
                for kind in highlighted.indices {
                    let tagged = RangeSet.union(highlighted[kind].clip(to: part),
                                                Self.clip(anyTagPossible ? unknown.ranges : inherited[kind].ranges, to: part))
                    // One removal over the part: GTK meets only the toggles there.
                    if !tagged.isEmpty {
                        cleared[kind].append(part)
                        highlighted[kind].replace(in: part, with: [])
                    }
                }
            }
            for part in RangeSet.subtract([span], [previousSpan]) { dirty.insert(part) }
        } else {
            // The first settle: no tag was ever applied, so only inserted text might carry
            // one. Should the log ever have dropped edits this step has not seen,
            // start afresh the same way, with any text possibly tagged.
            if scanned { unknown = InsertedRanges(ranges: count > 0 ? [0..<count] : []) }
            highlighted = highlighted.map { _ in ShiftedRanges() }
            if !span.isEmpty { dirty.insert(span) }
            scanned = true
        }
        // Only the span's part of what changed: an edit farther than `reach` from the span
        // changes nothing in it, and a long paste at its edge is read only as far as the
        // span goes (as if just the span's part had changed).
        let near = (span.lowerBound - reach - 1)...(span.upperBound + reach + 1)
        let changed = dirty.intervals.filter { $0.overlaps(near) }.map { $0.clamped(to: span.lowerBound...span.upperBound) }
        windows = reaches.map { reach in
            InsertedRanges.merged(changed.map { interval in
                max(0, interval.lowerBound - reach)..<min(count, interval.upperBound + 1 + reach)
            })
        }
        // Fresh text outside the span may carry any tag (a paste): off with them, in one
        // range each (GTK skips text without the tag).
        if anyTagPossible, span.count < count {
            let outside = RangeSet.subtract(unknown.ranges, [span])
            if !outside.isEmpty { for kind in highlighted.indices { cleared[kind] += outside } }
        }

        // The widest kind's windows contain every other kind's: the text is read once for
        // each of them, with room for the tokens that start before or end after it.
        for outer in windows[widestKind] where outer.overlaps(span) {
            let readStart = max(0, outer.lowerBound - reach - 1)
            let readEnd = min(count, outer.upperBound + reach)
            let text = model.scalars(in: readStart..<readEnd)
            lastScannedScalars += text.count
            let endsText = readEnd == count
            for kind in highlighted.indices {
                for reachedWindow in windows[kind]
                where !reachedWindow.isEmpty && outer.lowerBound <= reachedWindow.lowerBound
                    && reachedWindow.upperBound <= outer.upperBound {
                    let (changed, sigilsFrom) = narrowed(reachedWindow, kind: kind, text: text, from: readStart, count: count)
                    let window = changed.clamped(to: span)
                    guard !window.isEmpty else { continue }
                    let tokens = scan(HighlightKind.allCases[kind], text, from: readStart, sigilsFrom: sigilsFrom,
                                      endsText: endsText, covering: changed)
                    let known = highlighted[kind].clip(to: window)
                    let fresh = Self.clip(anyTagPossible ? unknown.ranges : inherited[kind].ranges, to: window)
                    let wanted = Self.clip(tokens, to: window)
                    if wanted == known {
                        // The usual keystroke: the tokens here are what they were. Only the
                        // fresh text may carry a tag it should not.
                        if !fresh.isEmpty { remove[kind] += RangeSet.subtract(fresh, wanted) }
                        continue
                    }
                    add[kind] += RangeSet.subtract(wanted, known)
                    remove[kind] += RangeSet.subtract(RangeSet.union(known, fresh), wanted)
                    highlighted[kind].replace(in: window, with: wanted)
                }
            }
        }
        for kind in cleared.indices where !cleared[kind].isEmpty {
            remove[kind] = InsertedRanges.merged(remove[kind] + cleared[kind])
        }
        for kind in HighlightKind.allCases where !add[kind.index].isEmpty || !remove[kind.index].isEmpty {
            output.effects.append(.highlight(kind: kind, add: add[kind.index], remove: remove[kind.index]))
        }
    }

    // MARK: scanning

    /// `window` (the edits there, `reaches[kind]` on either side) cut down to where the
    /// kind's tokens can have changed, and the first offset whose sigil can matter.
    ///
    /// No token contains a *barrier* (for names a scalar that is no word scalar, the sigil
    /// included; for shortcodes whitespace), and the edits do not change the barriers
    /// outside them. So a token that an edit changed starts after the last barrier before
    /// the first edit, or at most one scalar after the last edit, and ends before the first
    /// barrier after that: typing inside a word looks at that word, not at `reach` scalars
    /// around it. The window's edges give the edits' ends back: at offset 0 or at the end
    /// of the text it was cut short, and is left as it is.
    private func narrowed(_ window: Range<Int>, kind: Int, text: [Unicode.Scalar], from textStart: Int,
                          count: Int) -> (window: Range<Int>, sigilsFrom: Int) {
        let reach = reaches[kind]
        let emoji = kind == HighlightKind.emoji.index
        func isBarrier(_ offset: Int) -> Bool {
            let scalar = text[offset - textStart]
            if emoji {
                return scalar.isASCII ? (scalar == " " || ("\t"..."\r").contains(scalar)) : scalar.properties.isWhitespace
            }
            return !CompletionTrigger.isWordScalar(scalar)
        }
        var lower = window.lowerBound, upper = window.upperBound
        var sigilsFrom = max(0, lower - reach)
        if lower > 0 {
            var offset = lower + reach - 1  // just before the first edit
            while offset >= lower {
                if isBarrier(offset) {
                    lower = offset
                    sigilsFrom = offset
                    break
                }
                offset -= 1
            }
        }
        if upper < count {
            var offset = upper - reach + 1  // two after the last edit's end
            while offset < upper {
                if isBarrier(offset) {
                    upper = offset + 1
                    break
                }
                offset += 1
            }
        }
        return (lower..<upper, sigilsFrom)
    }

    /// Every token of `kind` (merged) whose sigil, from `sigilsFrom` on, could touch
    /// `window`. `text` holds the document's scalars from `textStart`, from one scalar
    /// before those sigils to the longest token after them.
    private func scan(_ kind: HighlightKind, _ text: [Unicode.Scalar], from textStart: Int, sigilsFrom: Int,
                      endsText: Bool, covering window: Range<Int>) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        for index in (sigilsFrom - textStart)..<(window.upperBound - textStart) {
            // Every sigil is ASCII `#` `:` `@` or a full-width form: most scalars are none.
            let value = text[index].value
            guard value == 0x23 || value == 0x3A || value == 0x40 || value >= 0xFF03,
                  Self.sigilKind(text[index]) == kind else { continue }
            if index == 0 {
                guard textStart == 0 else { continue }  // never: one scalar before is read
            } else {
                guard CompletionTrigger.mayPrecedePrefix(text[index - 1]) else { continue }
            }
            let end = kind == .emoji ? shortcodeEnd(text, sigil: index)
                                     : nameEnd(text, sigil: index, kind: kind, endsText: endsText)
            if let end { tokens.append((textStart + index)..<(textStart + end)) }
        }
        return InsertedRanges.merged(tokens)
    }

    /// The end of the longest known name after the sigil at `sigil` that ends where a name
    /// may (`CompletionTrigger.mayFollowName`) or at the end of the text.
    private func nameEnd(_ text: [Unicode.Scalar], sigil: Int, kind: HighlightKind, endsText: Bool) -> Int? {
        let known = names[kind.index], longest = longestName[kind.index]
        var end = sigil + 1
        var best: Int?
        while end < text.count, end - sigil - 1 < longest, CompletionTrigger.isWordScalar(text[end]) {
            end += 1
            // The window reaches past the longest name, so running out of text here means
            // the document ends.
            let endsWord = end < text.count ? CompletionTrigger.mayFollowName(text[end]) : endsText
            // The name is made only where it could end (a word's end or a dot), not per scalar.
            if endsWord, known.contains(Self.folded(text[(sigil + 1)..<end])) { best = end }
        }
        return best
    }

    /// The end (after the closing colon) of `:shortcode:` at `sigil`, when it is known.
    private func shortcodeEnd(_ text: [Unicode.Scalar], sigil: Int) -> Int? {
        let known = names[HighlightKind.emoji.index], longest = longestName[HighlightKind.emoji.index]
        var end = sigil + 1
        while end < text.count, end - sigil - 1 <= longest {
            let scalar = CompletionTrigger.widthFolded(text[end])
            if scalar == ":" {
                return end > sigil + 1 && known.contains(Self.folded(text[(sigil + 1)..<end])) ? end + 1 : nil
            }
            if scalar.isASCII ? (scalar == " " || ("\t"..."\r").contains(scalar)) : scalar.properties.isWhitespace {
                return nil
            }
            end += 1
        }
        return nil
    }

    private static func sigilKind(_ scalar: Unicode.Scalar) -> HighlightKind? {
        switch CompletionTrigger.widthFolded(scalar) {
        case "@": .mention
        case "#": .channel
        case ":": .emoji
        default: nil
        }
    }

    /// Full-width ASCII as ASCII, ASCII letters in lower case; everything else as is.
    static func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let scalar = CompletionTrigger.widthFolded(scalar)
        guard ("A"..."Z").contains(scalar) else { return scalar }
        return Unicode.Scalar(scalar.value + 0x20)!
    }

    static func folded(_ name: String) -> String {
        folded(name.unicodeScalars)
    }

    /// The folded name spelled by `scalars`, made in one go from its UTF-8 (a short name is
    /// a small string: no allocation), not scalar by scalar.
    static func folded<Scalars: Collection<Unicode.Scalar>>(_ scalars: Scalars) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scalars.count * 4) { buffer in
            var count = 0
            for scalar in scalars {
                let folded = folded(scalar)
                if folded.isASCII {
                    buffer[count] = UInt8(truncatingIfNeeded: folded.value)
                    count += 1
                } else {
                    for byte in UTF8.encode(folded)! {
                        buffer[count] = byte
                        count += 1
                    }
                }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    // MARK: sorted, disjoint ranges

    /// The parts of `ranges` inside `window`.
    static func clip(_ ranges: [Range<Int>], to window: Range<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var index = firstIndex(in: ranges) { $0.upperBound > window.lowerBound }
        while index < ranges.count, ranges[index].lowerBound < window.upperBound {
            let range = ranges[index].clamped(to: window)
            if !range.isEmpty { result.append(range) }
            index += 1
        }
        return result
    }

    /// Whether text put in place of `range` lands strictly inside a run of the tag: the
    /// scalars on both sides of it carry the tag (in `known` or `alsoTagged`, text that
    /// inherited it earlier). That is where GTK's inserted text inherits a tag, and only there.
    static func isInsideRun(_ range: Range<Int>, _ known: ShiftedRanges, _ alsoTagged: [Range<Int>]) -> Bool {
        guard range.lowerBound > 0 else { return false }
        func contains(_ ranges: [Range<Int>], _ offset: Int) -> Bool {
            let index = firstIndex(in: ranges) { $0.upperBound > offset }
            return index < ranges.count && ranges[index].lowerBound <= offset
        }
        func tagged(_ offset: Int) -> Bool { known.contains(offset) || contains(alsoTagged, offset) }
        return tagged(range.lowerBound - 1) && tagged(range.upperBound)
    }

    /// The first index whose range satisfies `isPast` (which must be monotonic).
    private static func firstIndex(in ranges: [Range<Int>], where isPast: (Range<Int>) -> Bool) -> Int {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if isPast(ranges[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// Where the text changed since the last settle, as closed intervals of today's offsets:
/// an insertion covers its text, a deletion the point where it happened.
struct DirtyIntervals {
    private(set) var intervals: [ClosedRange<Int>] = []

    mutating func apply(_ edit: Edit) {
        let start = edit.range.lowerBound, end = edit.range.upperBound
        let inserted = edit.insertedScalarCount
        func mapLower(_ offset: Int) -> Int {
            offset <= start ? offset : offset >= end ? offset - (end - start) + inserted : start
        }
        func mapUpper(_ offset: Int) -> Int {
            offset <= start ? offset : offset >= end ? offset - (end - start) + inserted : start + inserted
        }
        guard !intervals.isEmpty else {  // the first edit since the settle: usually the only one
            intervals = [start...(start + inserted)]
            return
        }
        var all = intervals.map { mapLower($0.lowerBound)...max(mapLower($0.lowerBound), mapUpper($0.upperBound)) }
        all.append(start...(start + inserted))
        merge(all)
    }

    /// Marks `range` as changed, as if its text had just been inserted.
    mutating func insert(_ range: Range<Int>) {
        merge(intervals + [range.lowerBound...range.upperBound])
    }

    private mutating func merge(_ all: [ClosedRange<Int>]) {
        var all = all
        all.sort { $0.lowerBound < $1.lowerBound }
        intervals = []
        for interval in all {
            if let last = intervals.last, interval.lowerBound <= last.upperBound + 1 {
                intervals[intervals.count - 1] = last.lowerBound...max(last.upperBound, interval.upperBound)
            } else {
                intervals.append(interval)
            }
        }
    }
}

extension HighlightKind {
    var index: Int {
        switch self {
        case .mention: 0
        case .channel: 1
        case .emoji: 2
        }
    }
}
