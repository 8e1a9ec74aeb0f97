@testable import ComposerCore
import PropertyBased
import Testing

private let people = ["tanaka", "tanaka.hanako", "kim", "a", "host"]
private let channels = ["general", "日本語", "gen", "input-methods"]
private let shortcodes = ["cat_face", "+1", "cat", "a", "flag_for_St._Kitts_&_Nevis"]

/// The composer without GTK, for the highlighter alone: a model, a settle pipeline with
/// just the highlighter, and one tag array per kind standing in for the buffer's tags.
///
/// Typed text gets the tags GTK gives it: those of the run it is inserted strictly inside
/// (both neighbours carry the tag), none at a run's start or end. Pasted or dropped text is
/// hostile, as rich text from a text buffer can be: every scalar gets a tag state from the
/// `inheritance` cycle (per kind), whatever its neighbours carry.
private final class HighlightDriver {
    let model: ComposerModel
    /// Per kind (`HighlightKind.index`), whether each scalar carries the tag.
    private(set) var tags: [[Bool]]
    private(set) var effects: [SettleEffect] = []
    private(set) var highlighter: TokenHighlighter!
    private var pipeline: SettlePipeline!
    private var randomBits: [Bool]

    init(text: String = "", inheritance: [Bool] = [false],
         people: [String] = people, channels: [String] = channels, shortcodes: [String] = shortcodes,
         wholeTextUpTo: Int = TokenHighlighter.highlightsWholeTextUpTo, margin: Int = TokenHighlighter.spanMargin) {
        model = ComposerModel(text: text)
        randomBits = inheritance.isEmpty ? [false] : inheritance
        tags = HighlightKind.allCases.map { _ in [Bool](repeating: false, count: text.unicodeScalars.count) }
        highlighter = TokenHighlighter(people: people, channels: channels, shortcodes: shortcodes,
                                       wholeTextUpTo: wholeTextUpTo, margin: margin)
        pipeline = SettlePipeline(steps: [highlighter])
    }

    var text: String { model.text }
    var count: Int { model.document.scalarCount }

    func type(_ string: String, at offset: Int? = nil, origin: EditOrigin = .key) {
        let at = min(offset ?? model.selection.caret, count)
        let length = string.unicodeScalars.count
        model.applyInsert(at: at, text: string, origin: origin)
        for kind in tags.indices {
            let inherited = at > 0 && at < tags[kind].count && tags[kind][at - 1] && tags[kind][at]
            let states = origin == .paste || origin == .drop
                ? (0..<length).map { _ in nextRandomBit() }
                : Array(repeating: inherited, count: length)
            tags[kind].insert(contentsOf: states, at: at)
        }
        model.setSelection(anchor: at + length, caret: at + length)
    }

    func delete(_ range: Range<Int>) {
        let range = range.clamped(to: 0..<count)
        guard !range.isEmpty else { return }
        model.applyDelete(range: range, origin: .key)
        for kind in tags.indices { tags[kind].removeSubrange(range) }
    }

    func compose(_ preedit: String) {
        if model.preedit == nil { model.preeditStarted() }
        model.preeditChanged(Preedit(text: preedit, cursor: preedit.unicodeScalars.count, segments: []))
    }

    func endComposition() { model.preeditEnded() }

    /// The window says the input shows `range`; whether the highlighter asks for a settle.
    @discardableResult
    func show(_ range: Range<Int>) -> Bool { highlighter.show(range, asOf: model.log.lastSequence) }

    func settle() {
        for effect in pipeline.settle(model, edit: { _ in Issue.record("the highlighter never edits") }).effects {
            apply(effect)
        }
    }

    func clearEffects() { effects = [] }

    func ranges(_ kind: HighlightKind) -> [Range<Int>] { runs(of: tags[kind.index]) }

    /// The highlighted texts, per kind, as the buffer shows them.
    func shown(_ kind: HighlightKind) -> [String] {
        ranges(kind).map { model.document.substring(scalars: $0) }
    }

    private func apply(_ effect: SettleEffect) {
        effects.append(effect)
        guard case let .highlight(kind, add, remove) = effect else { return }
        for range in remove { for index in range where index < count { tags[kind.index][index] = false } }
        for range in add { for index in range where index < count { tags[kind.index][index] = true } }
    }

    private func nextRandomBit() -> Bool {
        let bit = randomBits.removeFirst()
        randomBits.append(bit)
        return bit
    }
}

/// The oracle: the whole text scanned from scratch, straight from the definition (the
/// full word after `@`/`#`, candidates at its end and before each `.` in it, the longest
/// known one; `:` + a known shortcode + `:`).
private func oracle(_ text: String, people: [String] = people, channels: [String] = channels,
                    shortcodes: [String] = shortcodes) -> [HighlightKind: [Range<Int>]] {
    func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        var value = scalar.value
        if (0xFF01...0xFF5E).contains(value) { value -= 0xFEE0 }
        if (0x41...0x5A).contains(value) { value += 0x20 }
        return Unicode.Scalar(value)!
    }
    func fold(_ scalars: some Sequence<Unicode.Scalar>) -> [Unicode.Scalar] { scalars.map(fold) }
    let scalars = Array(text.unicodeScalars)
    let sets: [HighlightKind: Set<[Unicode.Scalar]>] = [
        .mention: Set(people.map { fold($0.unicodeScalars) }),
        .channel: Set(channels.map { fold($0.unicodeScalars) }),
    ]
    let codes = shortcodes.map { fold($0.unicodeScalars) }
    var tags: [HighlightKind: [Bool]] = [:]
    for kind in HighlightKind.allCases { tags[kind] = [Bool](repeating: false, count: scalars.count) }
    for (index, scalar) in scalars.enumerated() {
        guard index == 0 || CompletionTrigger.mayPrecedePrefix(scalars[index - 1]) else { continue }
        switch fold(scalar) {
        case "@", "#":
            let kind: HighlightKind = fold(scalar) == "@" ? .mention : .channel
            var runEnd = index + 1
            while runEnd < scalars.count, CompletionTrigger.isWordScalar(scalars[runEnd]) { runEnd += 1 }
            guard runEnd > index + 1 else { continue }
            // A name ends at the run's end, a dot, or a scalar of a script written without
            // spaces (田中さん@tanakaへ).
            let ends = ((index + 2)...runEnd).filter {
                $0 == runEnd || fold(scalars[$0]) == "." || CompletionTrigger.isUnspacedScript(scalars[$0])
            }
            if let end = ends.last(where: { sets[kind]!.contains(fold(scalars[(index + 1)..<$0])) }) {
                for position in index..<end { tags[kind]![position] = true }
            }
        case ":":
            for code in codes {
                let end = index + 1 + code.count
                guard end < scalars.count, fold(scalars[(index + 1)..<end]) == code, fold(scalars[end]) == ":"
                else { continue }
                for position in index...end { tags[.emoji]![position] = true }
            }
        default: continue
        }
    }
    return tags.mapValues(runs(of:))
}

@Suite("Mention highlighting")
struct MentionHighlighterTests {
    private func shown(_ text: String, _ kind: HighlightKind = .mention) -> [String] {
        let driver = HighlightDriver(text: text)
        driver.settle()
        return driver.shown(kind)
    }

    @Test func knownHandleIsHighlighted() {
        #expect(shown("@tanaka") == ["@tanaka"])
        #expect(shown("hi @tanaka, ok") == ["@tanaka"])
        #expect(shown("@Tanaka") == ["@Tanaka"], "ASCII letters compare case-insensitively")
        #expect(shown("＠tanaka") == ["＠tanaka"], "a Japanese IME's full-width @")
        #expect(shown("(@kim)") == ["@kim"])
    }

    @Test func sentenceFullStopIsNotPartOfTheHandle() {
        #expect(shown("@tanaka.") == ["@tanaka"])
        #expect(shown("Ask @tanaka. Then") == ["@tanaka"])
        #expect(shown("@tanaka...") == ["@tanaka"])
        #expect(shown("@tanaka.hanako") == ["@tanaka.hanako"], "the longest known candidate wins")
        #expect(shown("@tanaka.hanako.") == ["@tanaka.hanako"])
        #expect(shown("@tanaka.hana") == ["@tanaka"], "candidates end before a `.` in the word")
    }

    @Test func unknownOrEmbeddedHandlesAreNot() {
        #expect(shown("@unknown").isEmpty)
        #expect(shown("@tanakax").isEmpty, "the handle must end the word")
        #expect(shown("@tanaka_x @tanaka-x").isEmpty)
        #expect(shown("mail@host").isEmpty, "an address is no mention")
        #expect(shown("mail @host") == ["@host"])
        #expect(shown("@").isEmpty)
        #expect(shown("@@tanaka") == ["@tanaka"], "the second @ follows punctuation")
    }

    @Test func channels() {
        #expect(shown("#general", .channel) == ["#general"])
        #expect(shown("see #general.", .channel) == ["#general"])
        #expect(shown("#日本語", .channel) == ["#日本語"])
        #expect(shown("「#日本語」で", .channel) == ["#日本語"])
        #expect(shown("#input-methods", .channel) == ["#input-methods"])
        #expect(shown("#generalist", .channel).isEmpty)
        #expect(shown("#general", .mention).isEmpty)
        #expect(shown("issue#general", .channel).isEmpty)
    }

    @Test func emojiShortcodes() {
        #expect(shown(":cat_face:", .emoji) == [":cat_face:"])
        #expect(shown("nice :+1: ok", .emoji) == [":+1:"])
        #expect(shown(":cat_face", .emoji).isEmpty, "both colons")
        #expect(shown(":dog:", .emoji).isEmpty)
        #expect(shown("a:cat:", .emoji).isEmpty, "the colon must start a word")
        #expect(shown("10:30 :cat:", .emoji) == [":cat:"])
        #expect(shown(":+1::cat:", .emoji) == [":+1::cat:"], "two in a row join into one tagged run")
        #expect(shown(":flag_for_St._Kitts_&_Nevis:", .emoji) == [":flag_for_St._Kitts_&_Nevis:"])
        #expect(shown(":CAT:", .emoji) == [":CAT:"])
    }

    /// Japanese, Chinese and Korean run words together (#17): an ideograph, kana or Hangul
    /// before the sigil is a boundary, as a space is, and one right after a name ends it
    /// (`田中さん@tanakaへ`); Latin letters and digits stay part of the word, so
    /// `name@example.com` is no mention. The rule is CompletionTrigger's, shared.
    @Test func tokensInJapaneseText() {
        #expect(shown("田中さん@tanakaへ") == ["@tanaka"])
        #expect(shown("お疲れ様です@tanaka") == ["@tanaka"])
        #expect(shown("田中さん @tanaka へ") == ["@tanaka"])
        #expect(shown("田中さん、@tanaka。") == ["@tanaka"])
        #expect(shown("「＠tanaka」さん") == ["＠tanaka"])
        #expect(shown("猫です:cat:", .emoji) == [":cat:"])
        #expect(shown("猫です :cat:ね", .emoji) == [":cat:"])
        #expect(shown("詳しくは#日本語で", .channel) == ["#日本語"])
        #expect(shown("안녕하세요@kim님") == ["@kim"])
        #expect(shown("你好@kim") == ["@kim"])
        #expect(shown("ㄋㄧ@kim") == ["@kim"], "Bopomofo")
        #expect(shown("name@tanaka.com").isEmpty, "Latin letters before the sigil: an address")
        #expect(shown("123@tanaka").isEmpty)
        #expect(shown("１２３@tanaka").isEmpty, "full-width digits are digits")
        #expect(shown("@tanakasan").isEmpty, "a Latin letter after the name continues it")
        let driver = HighlightDriver(text: "田中さん @tanaka へ #日本語 :cat_face:")
        driver.settle()
        #expect(driver.ranges(.mention) == [5..<12])
        #expect(driver.ranges(.channel) == [15..<19])
        #expect(driver.ranges(.emoji) == [20..<30])
    }

    @Test func typingTheLastLetterStartsTheHighlight() {
        let driver = HighlightDriver()
        for letter in "@tanak" {
            driver.type(String(letter))
            driver.settle()
        }
        #expect(driver.ranges(.mention).isEmpty)
        driver.clearEffects()
        driver.type("a")
        driver.settle()
        #expect(driver.ranges(.mention) == [0..<7])
        #expect(driver.effects == [
            .highlight(kind: .mention, add: [0..<7], remove: []),
            // The typed "a" is in no run of any tag: GTK gave it none, nothing to clear.
        ])
        driver.clearEffects()
        driver.settle()
        #expect(driver.effects.isEmpty, "a settle without an edit does nothing (its own tags never re-trigger)")
        driver.type("x")  // @tanakax
        driver.settle()
        #expect(driver.ranges(.mention).isEmpty)
        driver.delete(7..<8)
        driver.settle()
        #expect(driver.ranges(.mention) == [0..<7])
    }

    @Test func anEditThatSplitsATokenEndsItsHighlight() {
        let driver = HighlightDriver(text: "say @tanaka #general :cat: now", inheritance: [true])
        driver.settle()
        #expect(driver.shown(.mention) == ["@tanaka"])
        driver.clearEffects()
        driver.type(" ", at: 7)  // "@ta naka", the space inheriting the mention tag
        driver.settle()
        #expect(driver.ranges(.mention).isEmpty)
        #expect(driver.effects == [
            .highlight(kind: .mention, add: [], remove: [4..<12]),
        ], "the whole broken mention, the inherited space with it, comes off")
        #expect(driver.shown(.channel) == ["#general"])
        #expect(driver.shown(.emoji) == [":cat:"])
        driver.type("x", at: 24)  // :cxat:
        driver.settle()
        #expect(driver.shown(.emoji).isEmpty)
        driver.delete(4..<5)  // "tanaka" is no handle without its @
        driver.settle()
        #expect(driver.ranges(.mention).isEmpty)
        #expect(driver.shown(.channel) == ["#general"])
    }

    /// A paste can bring any tag (rich text copied from a text buffer): pasted text is
    /// cleared of every tag it should not carry, wherever it lands.
    @Test func pastedTextIsClearedOfForeignTags() {
        let driver = HighlightDriver(text: "say hi ", inheritance: [true])
        driver.settle()
        driver.clearEffects()
        driver.type("@x", at: 7, origin: .paste)  // arrives carrying every tag
        driver.settle()
        #expect(driver.effects == [
            .highlight(kind: .mention, add: [], remove: [7..<9]),
            .highlight(kind: .channel, add: [], remove: [7..<9]),
            .highlight(kind: .emoji, add: [], remove: [7..<9]),
        ])
        for kind in HighlightKind.allCases { #expect(driver.ranges(kind).isEmpty) }
    }

    @Test func highlightsTheCommittedTextWhileComposing() {
        let driver = HighlightDriver(text: "@tanaka ")
        driver.compose("さん")
        driver.settle()
        #expect(driver.shown(.mention) == ["@tanaka"])
        driver.type("#general ", at: 8, origin: .imCommit)
        driver.compose("に")
        driver.settle()
        #expect(driver.shown(.channel) == ["#general"], "committed text is highlighted mid-composition")
        driver.endComposition()
        driver.settle()
        #expect(driver.shown(.mention) == ["@tanaka"])
    }

    @Test func buildsFromTheDirectoryAndEmojiData() {
        let directory = WorkspaceDirectory(
            people: [DirectoryEntry(id: "u1", name: "tanaka.hanako", display: "田中 花子", latin: "tanaka hanako")],
            channels: [DirectoryEntry(id: "c1", name: "日本語", display: "日本語", latin: "nihongo")])
        let emoji = [EmojiEntry(id: "1f431", char: "🐱", shortcodes: ["cat_face", "cat"])]
        let highlighter = TokenHighlighter(directory: directory, emoji: emoji)
        #expect(highlighter.name == "highlighting")
        let model = ComposerModel(text: "@tanaka.hanako #日本語 :cat: :cat_face:")
        let effects = SettlePipeline(steps: [highlighter]).settle(model) { _ in }.effects
        #expect(effects == [
            .highlight(kind: .mention, add: [0..<14], remove: []),
            .highlight(kind: .channel, add: [15..<19], remove: []),
            .highlight(kind: .emoji, add: [20..<25, 26..<36], remove: []),
        ])
        #expect(highlighter.ranges(of: .emoji) == [20..<25, 26..<36])
    }

    /// A decoration costs what the edit costs, not the document. After the first settle an
    /// edit in a 1 MB draft reads and touches only a few hundred scalars around it.
    @Test func anEditInAMegabyteDocumentStaysLocal() {
        let chunk = "hello @tanaka and #general :cat_face: 田中さん\n"
        let chunkLength = chunk.unicodeScalars.count
        let copies = 1_000_000 / chunkLength + 1
        let driver = HighlightDriver(text: String(repeating: chunk, count: copies), inheritance: [true, false, false],
                                     wholeTextUpTo: .max)
        driver.settle()
        #expect(driver.ranges(.mention).count == copies)
        #expect(driver.ranges(.channel).count == copies)
        #expect(driver.ranges(.emoji).count == copies)
        let reach = driver.highlighter.reach

        func expectLocal(around position: Int, _ comment: Comment) {
            #expect(driver.highlighter.lastScannedScalars <= 4 * reach + 16, comment)
            for effect in driver.effects {
                guard case let .highlight(_, add, remove) = effect else { continue }
                for range in add + remove {
                    #expect(range.count <= 2 * reach, comment)
                    #expect(range.lowerBound >= position - 2 * reach && range.upperBound <= position + 2 * reach,
                            comment)
                }
            }
        }

        let middle = (copies / 2) * chunkLength + 6  // an @tanaka in the middle
        driver.clearEffects()
        driver.type("x", at: middle + 3)
        driver.settle()
        #expect(!driver.effects.isEmpty)
        expectLocal(around: middle, "splitting a handle")
        #expect(driver.ranges(.mention).count == copies - 1)

        driver.clearEffects()
        driver.delete((middle + 3)..<(middle + 4))
        driver.settle()
        expectLocal(around: middle, "joining it again")
        #expect(driver.ranges(.mention).count == copies)

        driver.clearEffects()
        driver.type(" @kim :+1:", at: driver.count)
        driver.settle()
        expectLocal(around: driver.count, "typing at the end")
        let text = driver.model.document
        #expect(driver.ranges(.mention).last.map { text.substring(scalars: $0) } == "@kim")
        #expect(driver.ranges(.emoji).last.map { text.substring(scalars: $0) } == ":+1:")

        driver.clearEffects()
        driver.delete(0..<1)  // "ello @tanaka …": the first tokens only shift
        driver.settle()
        expectLocal(around: 0, "deleting at the start")

        driver.clearEffects()
        driver.settle()
        #expect(driver.effects.isEmpty)
        #expect(driver.highlighter.lastScannedScalars == 0, "an idle settle reads nothing")

        let expected = oracle(driver.text)
        for kind in HighlightKind.allCases {
            // Compared as booleans: a failure would print a million scalars' worth of ranges.
            let tagged = driver.ranges(kind), believed = driver.highlighter.ranges(of: kind)
            #expect(tagged == expected[kind]!, "\(kind): the buffer's tags differ from a full scan")
            #expect(believed == expected[kind]!, "\(kind): the highlighter's ranges differ from a full scan")
        }
    }
}

extension MentionHighlighterTests {
    /// A long draft is highlighted around what the input shows, not whole (#35: a 10 MB
    /// paste's tags held 28 MiB): the first settle reads the span only, a scroll far away
    /// moves the tags, and a paste outside the span is not read, its tags (rich text may
    /// bring any) removed in one range per kind.
    @Test func aLongDraftIsHighlightedAroundWhatTheInputShows() {
        let chunk = "hello @tanaka and #general :cat_face: 田中さん\n"
        let chunkLength = chunk.unicodeScalars.count
        let driver = HighlightDriver(text: String(repeating: chunk, count: 400_000 / chunkLength + 1), inheritance: [true])
        let count = driver.count, margin = TokenHighlighter.spanMargin, reach = driver.highlighter.reach
        func expectTagsMatchAFullScan(inside span: Range<Int>, _ comment: Comment) {
            #expect(driver.highlighter.span == span, comment)
            let expected = oracle(driver.text)
            for kind in HighlightKind.allCases {
                // Compared as booleans: a failure would print thousands of ranges.
                let inside = TokenHighlighter.clip(expected[kind]!, to: span)
                #expect(!inside.isEmpty, comment)
                let tagged = driver.ranges(kind) == inside, believed = driver.highlighter.ranges(of: kind) == inside
                #expect(tagged, "\(kind) \(comment): the buffer's tags differ from a full scan's inside the span")
                #expect(believed, "\(kind) \(comment): the highlighter's ranges differ from a full scan's inside the span")
            }
        }
        func removals() -> [[Range<Int>]] {
            driver.effects.compactMap { effect in
                guard case let .highlight(_, _, remove) = effect else { return nil }
                return remove
            }
        }

        driver.settle()
        expectTagsMatchAFullScan(inside: (count - margin)..<count, "before the window said: around the caret")
        #expect(driver.highlighter.lastScannedScalars <= margin + 4 * reach + 16)

        #expect(!driver.show((count - 2000)..<(count - 1500)), "a little scroll: the span still serves")
        let middle = count / 2
        #expect(driver.show(middle..<(middle + 500)), "a scroll to the middle moves the span")
        driver.clearEffects()
        driver.settle()
        expectTagsMatchAFullScan(inside: (middle - margin)..<(middle + 500 + margin), "scrolled to the middle")
        #expect(driver.highlighter.lastScannedScalars <= 2 * margin + 500 + 4 * reach + 16)
        #expect(removals() == Array(repeating: [(count - margin)..<count], count: 3), "the end's tags, one range per kind")

        driver.clearEffects()
        let pasted = String(repeating: chunk, count: 2000)
        driver.type(pasted, at: 0, origin: .paste)
        driver.settle()
        let length = pasted.unicodeScalars.count
        expectTagsMatchAFullScan(inside: (middle + length - margin)..<(middle + length + 500 + margin), "after a paste at the start")
        #expect(driver.highlighter.lastScannedScalars == 0, "the paste lies outside the span: nothing read")
        #expect(removals() == Array(repeating: [0..<length], count: 3), "the paste's own tags, one range per kind")
    }

    /// What the window said is followed through the edits since; once the edit log no
    /// longer holds them all (it keeps a bounded history), the offsets cannot be followed
    /// and the caret stands in again, as before the window first said.
    @Test func aShownRangeTheLogCanNoLongerFollowGivesWayToTheCaret() {
        let chunk = "hello @tanaka and #general :cat_face: 田中さん\n"
        let driver = HighlightDriver(text: String(repeating: chunk, count: 200), wholeTextUpTo: 30, margin: 20)
        driver.settle()
        let said = driver.model.log.lastSequence
        driver.show(0..<10)
        // Typed at the start, each followed by a settle of the model only (no highlighting in
        // between, as when a highlighter made later starts from what the window said).
        for _ in 0..<1200 {
            driver.type("x", at: 0)
            driver.model.markSettle()
        }
        let firstKept = driver.model.log.entries.first.map { entry -> Int in
            switch entry {
            case .edit(let edit): return edit.sequence
            case .settle(let mark): return mark.sequence
            }
        }
        #expect((firstKept ?? 0) > said + 1, "the log dropped edits made since the window said")
        let end = driver.count
        driver.model.setSelection(anchor: end, caret: end)
        driver.settle()
        #expect(driver.highlighter.span == (end - 20)..<end, "the span is around the caret, not a range mapped loosely")
    }

    /// A paste at the shown caret of a long draft is read only as far as the span around
    /// the shown text goes, not whole: the shown text moves with edits but never grows (the
    /// window says where the input went once GTK scrolled to the caret).
    @Test func aPasteAtTheShownCaretIsNotReadWhole() {
        let chunk = "hello @tanaka and #general :cat_face: 田中さん\n"
        let driver = HighlightDriver(text: String(repeating: chunk, count: 200_000 / chunk.unicodeScalars.count + 1),
                                     inheritance: [true, false])
        let count = driver.count, margin = TokenHighlighter.spanMargin, reach = driver.highlighter.reach
        driver.settle()
        #expect(!driver.show((count - 500)..<count), "the span around the caret serves the end")
        let pasted = String(repeating: chunk, count: 10_000)
        driver.type(pasted, at: count, origin: .paste)
        driver.settle()
        let span = (count - 500 - margin)..<(count + margin)
        #expect(driver.highlighter.span == span)
        #expect(driver.highlighter.lastScannedScalars <= 2 * margin + 4 * reach + 16,
                "read \(driver.highlighter.lastScannedScalars) scalars of a \(pasted.unicodeScalars.count)-scalar paste")
        let expected = oracle(driver.text)
        for kind in HighlightKind.allCases {
            let same = driver.ranges(kind) == TokenHighlighter.clip(expected[kind]!, to: span)
            #expect(same, "\(kind): the tags differ from a full scan's inside the span, or lie outside it")
        }
    }
}

// MARK: properties

private enum Step: Sendable {
    case type(position: Int, text: String)
    case paste(position: Int, text: String)
    case delete(position: Int, length: Int)
    case compose(String)
    case commit(String)
    case settle
    /// The window says the input shows these scalars.
    case show(position: Int, length: Int)
}

/// Without the long flag shortcode: the longest names (13 scalars) can be typed from the
/// pieces, so tokens exactly as long as the re-scan allows for do occur.
private let propertyShortcodes = ["cat_face", "+1", "cat", "a"]

private let tokenPieces = [
    "@", "#", ":", "＠", "＃", "：", "tanaka", "tana", "ka", "hanako", ".", " ", "\n", "、", "日本語", "日本", "語",
    "general", "gen", "eral", "cat_face", "cat", "_face", "+1", "a", "x", "T", "さん", "-", "mail", "kim", "👍",
    "\u{301}", "host", "methods", "input-",
    // Whole tokens, so the longest ones (as long as the re-scan allows for) occur often.
    "@tanaka.hanako", "#input-methods", " @tanaka.hanako.", " #input-methods ", ":cat_face:", " :+1:",
]

private func tokenText(_ pieces: ClosedRange<Int>) -> Generator<String, some Sequence & SendableMetatype> {
    Gen.element(of: tokenPieces).map { $0! }.array(of: pieces).map { $0.joined() }
}

private func steps() -> Generator<[Step], some Sequence & SendableMetatype> {
    zip(Gen.int(in: 0...99), Gen.int(in: 0...40), Gen.int(in: 0...8), tokenText(1...3))
    .map { kind, position, length, text -> Step in
        switch kind {
        case 0..<28: return .type(position: position, text: text)
        case 28..<35: return .paste(position: position, text: text)
        case 35..<55: return .delete(position: position, length: length)
        case 55..<62: return .compose(text)
        case 62..<70: return .commit(text)
        default: return .settle
        }
    }
    .array(of: 1...30)
}

/// Performs `step` on `driver`; true when it was a settle.
private func perform(_ step: Step, on driver: HighlightDriver) -> Bool {
    switch step {
    case let .type(position, text): driver.type(text, at: min(position, driver.count))
    case let .paste(position, text): driver.type(text, at: min(position, driver.count), origin: .paste)
    case let .delete(position, length):
        let start = min(position, driver.count)
        driver.delete(start..<min(driver.count, start + length))
    case .compose(let text): driver.compose(text)
    case .commit(let text):
        driver.type(text, origin: .imCommit)
        if driver.model.preedit != nil { driver.compose(""); driver.endComposition() }
    case let .show(position, length):
        let start = min(position, driver.count)
        driver.show(start..<min(driver.count, start + length))
    case .settle:
        driver.settle()
        return true
    }
    return false
}

/// `steps()` with the input scrolled now and then, over longer texts.
private func stepsWithScrolls() -> Generator<[Step], some Sequence & SendableMetatype> {
    zip(Gen.int(in: 0...99), Gen.int(in: 0...120), Gen.int(in: 0...8), tokenText(1...6))
    .map { kind, position, length, text -> Step in
        switch kind {
        case 0..<22: return .type(position: position, text: text)
        case 22..<32: return .paste(position: position, text: text)
        case 32..<48: return .delete(position: position, length: length)
        case 48..<54: return .compose(text)
        case 54..<60: return .commit(text)
        case 60..<78: return .show(position: position, length: length)
        default: return .settle
        }
    }
    .array(of: 1...40)
}

@Suite("Mention highlighting: properties over random edits")
struct MentionHighlighterPropertyTests {
    /// After every settle, each kind's tag covers exactly what a scan of the whole text
    /// from scratch highlights, whatever tags inserted text inherited.
    @Test func tagsMatchAFullScanAfterEverySettle() async {
        await propertyCheck(count: 1000, input: tokenText(0...8), steps(), Gen.bool.array(of: 1...5)) {
            initial, steps, inheritance in
            let driver = HighlightDriver(text: initial, inheritance: inheritance, shortcodes: propertyShortcodes)
            driver.settle()
            func check(_ when: String) {
                let expected = oracle(driver.text, shortcodes: propertyShortcodes)
                for kind in HighlightKind.allCases {
                    #expect(driver.ranges(kind) == expected[kind]!, "\(kind) \(when) in \(driver.text.debugDescription)")
                    #expect(driver.highlighter.ranges(of: kind) == expected[kind]!)
                }
            }
            check("at the first settle")
            for step in steps where perform(step, on: driver) { check("after a settle") }
            driver.settle()
            check("at the end")
        }
    }

    /// A long draft is highlighted only in its span around what the input shows: after
    /// every settle each kind's tag covers exactly what a full scan highlights inside the
    /// span, and nothing outside it, while the input scrolls and the text changes (small
    /// thresholds: a "long" draft of 30 scalars, a margin of 20).
    @Test func aLongDraftsTagsMatchAFullScanInsideItsSpanAndAreNoneOutside() async {
        await propertyCheck(count: 1000, input: tokenText(0...14), stepsWithScrolls(), Gen.bool.array(of: 1...5)) {
            initial, steps, inheritance in
            let driver = HighlightDriver(text: initial, inheritance: inheritance, shortcodes: propertyShortcodes,
                                         wholeTextUpTo: 30, margin: 20)
            driver.settle()
            func check(_ when: String) {
                guard let span = driver.highlighter.span else {
                    Issue.record("no span after a settle")
                    return
                }
                #expect(span.clamped(to: 0..<driver.count) == span, "\(span) past the text's \(driver.count) scalars")
                if driver.count <= 30 { #expect(span == 0..<driver.count, "a short draft is highlighted whole") }
                if driver.count > 30, let shown = driver.highlighter.shown?.range {
                    #expect(TokenHighlighter.keeps(span, around: shown, count: driver.count, margin: 20),
                            "\(span) does not serve the shown \(shown) of \(driver.count) scalars")
                }
                let expected = oracle(driver.text, shortcodes: propertyShortcodes)
                for kind in HighlightKind.allCases {
                    let inside = TokenHighlighter.clip(expected[kind]!, to: span)
                    #expect(driver.ranges(kind) == inside, "\(kind) \(when) in \(span) of \(driver.text.debugDescription)")
                    #expect(driver.highlighter.ranges(of: kind) == inside)
                }
            }
            check("at the first settle")
            for step in steps where perform(step, on: driver) { check("after a settle") }
            driver.settle()
            check("at the end")
        }
    }

    /// Effects stay near the edits: every range they name lies within `reach` of text
    /// changed since the previous settle.
    @Test func effectsOnlyNameTextNearTheEdits() async {
        await propertyCheck(count: 200, input: tokenText(20...40), steps(), Gen.bool.array(of: 1...5)) {
            initial, steps, inheritance in
            let driver = HighlightDriver(text: initial, inheritance: inheritance, shortcodes: propertyShortcodes)
            driver.settle()
            var touched: [ClosedRange<Int>] = []  // today's offsets of edits since the last settle
            func shift(_ at: Int, removed: Int, inserted: Int) {
                touched = touched.map { range in
                    let lower = range.lowerBound <= at ? range.lowerBound
                        : range.lowerBound >= at + removed ? range.lowerBound - removed + inserted : at
                    let upper = range.upperBound < at ? range.upperBound
                        : range.upperBound >= at + removed ? range.upperBound - removed + inserted : at + inserted
                    return lower...max(lower, upper)
                }
                touched.append(at...(at + inserted))
            }
            for step in steps {
                switch step {
                case let .type(position, text), let .paste(position, text):
                    let at = min(position, driver.count)
                    if case .paste = step { driver.type(text, at: at, origin: .paste) } else { driver.type(text, at: at) }
                    shift(at, removed: 0, inserted: text.unicodeScalars.count)
                case let .delete(position, length):
                    let start = min(position, driver.count), end = min(driver.count, start + length)
                    driver.delete(start..<end)
                    if end > start { shift(start, removed: end - start, inserted: 0) }
                case .show: continue
                case .compose, .commit, .settle:
                    if case .commit(let text) = step {
                        let at = driver.model.selection.caret
                        driver.type(text, origin: .imCommit)
                        shift(at, removed: 0, inserted: text.unicodeScalars.count)
                    }
                    if case .compose(let text) = step { driver.compose(text) }
                    guard case .settle = step else { continue }
                    driver.clearEffects()
                    driver.settle()
                    let reach = driver.highlighter.reach
                    for effect in driver.effects {
                        guard case let .highlight(_, add, remove) = effect else { continue }
                        for range in add + remove {
                            let far = range.filter { offset in
                                !touched.contains { $0.lowerBound - reach - 1 <= offset && offset <= $0.upperBound + reach + 1 }
                            }
                            #expect(far.isEmpty, "\(range) is far from the edits \(touched)")
                        }
                    }
                    touched = []
                }
            }
        }
    }
}
