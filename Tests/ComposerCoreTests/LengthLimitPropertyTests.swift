import ComposerCore
import PropertyBased
import Testing

/// What happens to the composer between two checks.
private enum Operation: Sendable {
    case compose(String)            // a preedit update (starts a composition if none)
    case commit(String)             // the IM commits at the caret (ending any composition)
    case paste(String)
    case delete(position: Int, length: Int)
    case undo(position: Int, text: String)   // undo/redo bring text back
    case redo(position: Int, text: String)
    case moveCaret(Int)
    case settle
}

private func operations() -> Generator<[Operation], some Sequence & SendableMetatype> {
    zip(Gen.int(in: 0...99), Gen.int(in: 0...40), Gen.int(in: 0...5), mixedText(pieces: 1...6))
    .map { kind, position, length, text -> Operation in
        switch kind {
        case 0..<15: return .compose(text)
        case 15..<35: return .commit(text)
        case 35..<42: return .paste(text)
        case 42..<52: return .delete(position: position, length: length)
        case 52..<57: return .undo(position: position, text: text)
        case 57..<60: return .redo(position: position, text: text)
        case 60..<68: return .moveCaret(position)
        default: return .settle
        }
    }
    .array(of: 1...30)
}

@Suite("Length limit: properties over random edit sequences")
struct LengthLimitPropertyTests {
    @Test func hardModeCutsOnlyTheNewestInsertionNeverWhileComposingNeverUndo() async {
        await propertyCheck(count: 400, input: mixedText(pieces: 0...12), operations(),
                            Gen.int(in: 0...12), Gen.element(of: CountUnit.allCases).map { $0! },
                            Gen.bool.array(of: 1...5)) { initial, operations, limit, unit, inheritance in
            let composer = SimulatedComposer(text: initial, limit: LengthLimit(limit: limit, mode: .hard, unit: unit),
                                             inheritance: inheritance)
            composer.settle()
            // The oracle: which scalars were inserted, by a path the limit applies to, since
            // the last settle with no composition.
            var fresh = [Bool](repeating: false, count: initial.unicodeScalars.count)
            func insert(_ text: String, at offset: Int?, origin: EditOrigin) {
                let at = min(offset ?? composer.caret, composer.model.document.scalarCount)
                composer.insert(text, at: at, origin: origin)
                fresh.insert(contentsOf: repeatElement(LimitCutter.trimmedOrigins.contains(origin),
                                                       count: text.unicodeScalars.count), at: at)
            }
            for step in operations {
                let length = composer.model.document.scalarCount
                switch step {
                case .compose(let text): composer.compose(text)
                case .commit(let text):
                    insert(text, at: nil, origin: .imCommit)
                    if composer.model.preedit != nil { composer.compose(""); composer.endComposition() }
                case .paste(let text): insert(text, at: nil, origin: .paste)
                case let .delete(position, count):
                    let start = min(position, length), end = min(length, start + count)
                    composer.delete(start..<end, origin: .key)
                    fresh.removeSubrange(start..<end)
                case let .undo(position, text): insert(text, at: min(position, length), origin: .undo)
                case let .redo(position, text): insert(text, at: min(position, length), origin: .redo)
                case .moveCaret(let position): composer.moveCaret(to: min(position, length))
                case .settle:
                    let before = Array(composer.text.unicodeScalars)
                    let beforeDocument = composer.model.document
                    let composing = composer.model.preedit != nil
                    let trimsBefore = composer.trims.count
                    composer.settle()
                    let cuts = composer.trims[trimsBefore...]
                    if composing {
                        #expect(cuts.isEmpty, "nothing is cut while composing")
                    }
                    if !fresh.contains(true) {
                        #expect(cuts.isEmpty, "only insertions are cut; undo, redo and old text never")
                    }
                    var expected = before
                    for cut in cuts {  // last first, as applied
                        #expect(beforeDocument.isGraphemeBoundary(scalar: cut.range.lowerBound)
                                && beforeDocument.isGraphemeBoundary(scalar: cut.range.upperBound),
                                "never a split grapheme: \(cut.range) in \(before)")
                        #expect(fresh[cut.range].allSatisfy { $0 }, "only the newest insertion: \(cut.range)")
                        expected.removeSubrange(cut.range)
                        fresh.removeSubrange(cut.range)
                    }
                    #expect(Array(composer.text.unicodeScalars) == expected, "text outside the cut is unchanged")
                    if !cuts.isEmpty {
                        let count = composer.model.document.count(in: unit)
                        #expect(count <= limit || !hasWholeFreshGrapheme(composer.text, fresh),
                                "a cut reaches the limit unless nothing more may be cut")
                    }
                    #expect(composer.taggedRanges == overflow(of: composer.model.document, limit: limit, unit: unit),
                            "the overflow tag covers exactly the text past the limit")
                    if !composing { fresh = [Bool](repeating: false, count: composer.model.document.scalarCount) }
                }
            }
        }
    }

    @Test func softModeNeverChangesTextAndTagsExactlyTheOverflow() async {
        await propertyCheck(count: 300, input: mixedText(pieces: 0...12), operations(),
                            Gen.int(in: 0...12), Gen.element(of: CountUnit.allCases).map { $0! },
                            Gen.bool.array(of: 1...5)) { initial, operations, limit, unit, inheritance in
            let composer = SimulatedComposer(text: initial, limit: LengthLimit(limit: limit, mode: .soft, unit: unit),
                                             inheritance: inheritance)
            composer.settle()
            /// What GTK's "end-user-action" does after a commit or a paste: whatever it tags
            /// at once is past the limit of the text as it is now.
            func userActionEnded() {
                let effects = composer.effects.count
                composer.userActionEnded()
                let past = overflow(of: composer.model.document, limit: limit, unit: unit)
                for case let .overflowTag(add, remove) in composer.effects[effects...] {
                    #expect(remove.isEmpty)
                    #expect(add.allSatisfy { range in past.contains { $0.contains(range.lowerBound) && range.upperBound <= $0.upperBound } },
                            "tagged at once: \(add), past the limit: \(past)")
                }
            }
            for step in operations {
                let length = composer.model.document.scalarCount
                switch step {
                case .compose(let text): composer.compose(text)
                case .commit(let text):
                    composer.commit(text)
                    userActionEnded()
                case .paste(let text):
                    composer.insert(text, origin: .paste)
                    userActionEnded()
                case let .delete(position, count):
                    composer.delete(min(position, length)..<min(length, position + count), origin: .key)
                case let .undo(position, text): composer.insert(text, at: min(position, length), origin: .undo)
                case let .redo(position, text): composer.insert(text, at: min(position, length), origin: .redo)
                case .moveCaret(let position): composer.moveCaret(to: min(position, length))
                case .settle:
                    let before = composer.text
                    composer.settle()
                    #expect(Array(composer.text.unicodeScalars) == Array(before.unicodeScalars))
                    #expect(composer.taggedRanges == overflow(of: composer.model.document, limit: limit, unit: unit))
                    let status = composer.status
                    #expect(status.count == composer.model.document.count(in: unit))
                    #expect(status.isOver == (status.count > limit))
                }
            }
            #expect(composer.trims.isEmpty)
        }
    }
}

/// Whether some grapheme of `text` consists only of freshly inserted scalars (one that an
/// inserted combining mark joined to older text does not).
private func hasWholeFreshGrapheme(_ text: String, _ fresh: [Bool]) -> Bool {
    var offset = 0
    for character in text {
        let count = character.unicodeScalars.count
        if fresh[offset..<(offset + count)].allSatisfy({ $0 }) { return true }
        offset += count
    }
    return false
}

/// The oracle for the overflow: by counting prefixes, the first grapheme boundary past
/// which the text is over the limit, to the end.
private func overflow(of document: TextDocument, limit: Int, unit: CountUnit) -> [Range<Int>] {
    let text = document.string
    var prefix = ""
    var boundary = 0
    for character in text {
        prefix.append(character)
        let count: Int
        switch unit {
        case .graphemes: count = TextDocument(prefix).count(in: .graphemes)
        case .scalars: count = prefix.unicodeScalars.count
        case .utf16: count = prefix.utf16.count
        }
        guard count <= limit else { break }
        boundary += character.unicodeScalars.count
    }
    let end = text.unicodeScalars.count
    return boundary < end ? [boundary..<end] : []
}
