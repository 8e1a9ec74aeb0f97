import ComposerCore
import PropertyBased
import Testing

@Suite("The draft as the user sees it")
struct DraftTests {
    @Test("a composition on screen is part of the draft, where it shows, caret at its cursor")
    func compositionSplicedIn() {
        let model = ComposerModel(text: "猫が好き", caret: 2)
        model.preeditStarted()
        model.preeditChanged(Preedit(text: "とても", cursor: 2, segments: []))
        #expect(model.draft == Draft(text: "猫がとても好き", caret: 4, composing: 2..<5))
        #expect(model.text == "猫が好き", "the committed text is untouched")
    }

    @Test("without a composition (or with an empty one) the draft is the text and caret")
    func plainText() {
        let model = ComposerModel(text: "abc", caret: 1)
        #expect(model.draft == Draft(text: "abc", caret: 1))
        let before = model.draftStamp
        model.preeditStarted()
        model.preeditChanged(Preedit(text: "", cursor: 0, segments: []))
        #expect(model.draft == Draft(text: "abc", caret: 1))
        #expect(model.draftStamp == before, "an empty preedit changes nothing the user sees")
    }

    @Test("the stamp changes with every change the user sees")
    func stampFollowsChanges() {
        let model = ComposerModel(text: "ab", caret: 2)
        var stamps = [model.draftStamp]
        model.applyInsert(at: 2, text: "c", origin: .key)
        stamps.append(model.draftStamp)
        model.setSelection(anchor: 0, caret: 0)
        stamps.append(model.draftStamp)
        model.preeditStarted()
        model.preeditChanged(Preedit(text: "x", cursor: 1, segments: []))
        stamps.append(model.draftStamp)
        model.preeditChanged(Preedit(text: "x", cursor: 0, segments: []))
        stamps.append(model.draftStamp)
        #expect(Set(stamps.map { "\($0)" }).count == stamps.count, "\(stamps)")
    }
}

@Suite("The draft saved in pieces")
struct DraftPiecesTests {
    private enum Step {
        case insert(position: Int, text: String)
        case delete(position: Int, length: Int)
        case compose(text: String, cursor: Int)
        case endComposition
        case moveCaret(to: Int)
        case save
    }

    private static let texts = ["a", "日本語", "👍", "e\u{301}", " ", "\n", "tanaka", "🇯🇵"]

    private static func steps() -> Generator<[Step], some Sequence & SendableMetatype> {
        zip(Gen.int(in: 0...5), Gen.int(in: 0...40), Gen.int(in: 0...12),
            Gen.element(of: texts).map { $0! }.array(of: 1...3).map { $0.joined() })
        .map { kind, position, length, text -> Step in
            switch kind {
            case 0: .insert(position: position, text: text)
            case 1: .delete(position: position, length: length)
            case 2: .compose(text: text, cursor: length)
            case 3: .endComposition
            case 4: .moveCaret(to: position)
            default: .save
            }
        }
        .array(of: 1...40)
    }

    /// Whatever happened between two saves, the pieces kept plus the pieces given are the
    /// draft the user sees, with its caret and composition.
    @Test func keptAndGivenPiecesAreAlwaysTheDraft() async {
        await propertyCheck(count: 400, input: Gen.element(of: Self.texts).map { $0! }.array(of: 0...12),
                            Self.steps()) { initial, steps in
            let model = ComposerModel(text: initial.joined())
            var stored: [String] = []
            var stamp: DraftStamp?
            for step in steps + [.save] {
                let count = model.document.scalarCount
                switch step {
                case let .insert(position, text):
                    guard model.preedit == nil else { continue }
                    model.applyInsert(at: min(position, count), text: text, origin: .key)
                case let .delete(position, length):
                    guard model.preedit == nil else { continue }
                    let start = min(position, count)
                    model.applyDelete(range: start..<min(start + length, count), origin: .key)
                case let .compose(text, cursor):
                    if model.preedit == nil { model.preeditStarted() }
                    model.preeditChanged(Preedit(text: text, cursor: cursor, segments: []))
                case .endComposition:
                    if model.preedit != nil { model.preeditEnded() }
                case let .moveCaret(position):
                    guard model.preedit == nil else { continue }
                    model.setSelection(anchor: min(position, count), caret: min(position, count))
                case .save:
                    let update = model.draftUpdate(since: stamp, pieceScalars: 3)
                    #expect(update.first <= stored.count)
                    stored = Array(stored.prefix(update.first)) + update.pieces
                    stamp = model.draftStamp
                    let draft = model.draft
                    #expect(stored.joined() == draft.text)
                    #expect(update.allPieces().joined() == draft.text)
                    #expect(update.caret == draft.caret && update.composing == draft.composing)
                    #expect(stored.dropLast().allSatisfy { $0.unicodeScalars.count == 3 })
                }
            }
        }
    }

    @Test("typing at the end of a long draft gives its last piece; an edit near its start, the rest")
    func onlyThePiecesFromTheFirstChange() {
        let size = DraftPieces.scalars
        let long = String(repeating: "日本語の下書き。", count: size * 5 / 8 - 1)  // 8 scalars short of 5 pieces
        let length = long.unicodeScalars.count
        let model = ComposerModel(text: long, caret: length)
        let whole = model.draftUpdate(since: nil)
        #expect(whole.first == 0 && whole.pieces.count == 5)
        #expect(whole.pieces.map(\.unicodeScalars.count) == [size, size, size, size, size - 8])
        var stamp = model.draftStamp
        model.applyInsert(at: length, text: "a", origin: .key)
        let typed = model.draftUpdate(since: stamp)
        #expect(typed.first == 4 && typed.pieces.count == 1)
        #expect(typed.pieces[0].unicodeScalars.count == size - 7)
        stamp = model.draftStamp
        model.applyDelete(range: size + 100..<size + 101, origin: .key)
        let edited = model.draftUpdate(since: stamp)
        #expect(edited.first == 1 && edited.pieces.count == 4)
        stamp = model.draftStamp
        model.setSelection(anchor: 3, caret: 3)
        let moved = model.draftUpdate(since: stamp)
        #expect(moved.first == 5 && moved.pieces.isEmpty && moved.caret == 3, "only the caret moved")
    }

    @Test("a stamp of another model's (ahead of this log) gives every piece")
    func foreignStamp() {
        let other = ComposerModel(text: "", caret: 0)
        for offset in 0..<10 { other.applyInsert(at: offset, text: "x", origin: .key) }
        let model = ComposerModel(text: "abcdefg", caret: 7)
        model.applyInsert(at: 7, text: "h", origin: .key)
        let update = model.draftUpdate(since: other.draftStamp, pieceScalars: 3)
        #expect(update.first == 0 && update.pieces.joined() == "abcdefgh")
    }

    @Test("an update asked for before the last one was written: both in one")
    func updatesFollowingEachOther() {
        let model = ComposerModel(text: "abcdefghij", caret: 10)
        var stored = model.draftUpdate(since: nil, pieceScalars: 3).pieces
        var stamp = model.draftStamp
        model.applyInsert(at: 4, text: "X", origin: .key)
        let first = model.draftUpdate(since: stamp, pieceScalars: 3)
        stamp = model.draftStamp
        model.applyInsert(at: 11, text: "Y", origin: .key)
        let second = model.draftUpdate(since: stamp, pieceScalars: 3)
        #expect(first.first == 1 && second.first == 3)
        let both = second.after(first)
        #expect(both.first == 1)
        stored = Array(stored.prefix(both.first)) + both.pieces
        #expect(stored.joined() == "abcdXefghijY")
        #expect(first.after(second).first == first.first, "an earlier first piece is not carried over")
    }
}

@Suite("Cutting the draft into pieces")
struct DraftPiecesSplitTests {
    @Test("pieces of whole scalars, the size asked, whatever their UTF-8 length")
    func wholeScalars() async {
        await propertyCheck(count: 300, input: Gen.element(of: ["a", "é", "日", "👍", "e\u{301}", "🇯🇵", "\n"]).map { $0! }
                            .array(of: 0...40).map { $0.joined() }, Gen.int(in: 1...7)) { text, size in
            let pieces = DraftPieces.split(text, scalars: size)
            #expect(pieces.joined() == text)
            #expect(pieces.dropLast().allSatisfy { $0.unicodeScalars.count == size })
            #expect(pieces.last.map { (1...size).contains($0.unicodeScalars.count) } ?? text.isEmpty)
        }
    }
}
