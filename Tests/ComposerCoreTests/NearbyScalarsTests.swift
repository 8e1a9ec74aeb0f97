@testable import ComposerCore
import PropertyBased
import Testing

@Suite("The model's copy of the scalars near the latest reads and edits")
struct NearbyScalarsTests {
    private enum Step {
        case insert(position: Int, text: String)
        case delete(position: Int, length: Int)
        case read(position: Int, length: Int)
    }

    private static let pieces = ["a", "日本語", "👍", "e\u{301}", " ", "\n", "tanaka", "🇯🇵"]

    private static func steps() -> Generator<[Step], some Sequence & SendableMetatype> {
        zip(Gen.int(in: 0...2), Gen.int(in: 0...60), Gen.int(in: 0...30),
            Gen.element(of: pieces).map { $0! }.array(of: 1...4).map { $0.joined() })
        .map { kind, position, length, text -> Step in
            switch kind {
            case 0: .insert(position: position, text: text)
            case 1: .delete(position: position, length: length)
            default: .read(position: position, length: length)
            }
        }
        .array(of: 1...60)
    }

    /// Whatever the edits, a read through the model gives what the rope holds.
    @Test func readsAlwaysMatchTheDocument() async {
        await propertyCheck(count: 500, input: Gen.element(of: Self.pieces).map { $0! }.array(of: 0...20),
                            Self.steps()) { initial, steps in
            let model = ComposerModel(text: initial.joined())
            for step in steps {
                switch step {
                case let .insert(position, text):
                    model.applyInsert(at: position, text: text, origin: .key)
                case let .delete(position, length):
                    model.applyDelete(range: position..<(position + length), origin: .key)
                case let .read(position, length):
                    let range = position..<(position + length)
                    #expect(model.scalars(in: range) == model.document.scalars(in: range),
                            "\(range) of \(model.text.debugDescription)")
                }
            }
        }
    }

    @Test func typingPatchesTheCopyInsteadOfReadingAgain() {
        let model = ComposerModel(text: "Thanks for the notes ")
        _ = model.scalars(in: 0..<21)
        #expect(model.nearby.range == 0..<21)
        model.applyInsert(at: 21, text: "@", origin: .key)
        model.applyInsert(at: 22, text: "tanaka", origin: .key)
        #expect(model.nearby.range == 0..<28, "text typed at its end extends the copy")
        #expect(String(String.UnicodeScalarView(model.nearby.scalars)) == "Thanks for the notes @tanaka")
        model.applyInsert(at: 0, text: "> ", origin: .paste)
        #expect(model.nearby.range == 0..<30, "text inserted at its start is patched in too")
        model.applyDelete(range: 0..<2, origin: .key)
        #expect(model.nearby.range == 0..<28)
    }

    @Test func editsBeforeItShiftItAndEditsAcrossItsEndMakeItForget() {
        let model = ComposerModel(text: "0123456789")
        _ = model.scalars(in: 4..<8)
        #expect(model.nearby.range == 4..<8)
        model.applyInsert(at: 1, text: "ab", origin: .key)
        #expect(model.nearby.range == 6..<10, "shifted by the insert before it")
        model.applyInsert(at: 11, text: "z", origin: .key)
        #expect(model.nearby.range == 6..<10, "an edit after it changes nothing")
        model.applyDelete(range: 5..<7, origin: .key)
        #expect(model.nearby.range.isEmpty, "a deletion across its start")
        #expect(model.text == "0ab125678z9")
        #expect(model.scalars(in: 4..<6) == Array("25".unicodeScalars))
    }

    @Test func itNeverGrowsPastItsCapacity() {
        let model = ComposerModel()
        _ = model.scalars(in: 0..<0)
        for index in 0..<(NearbyScalars.capacity + 10) {
            model.applyInsert(at: index, text: "x", origin: .key)
        }
        #expect(model.nearby.scalars.count <= NearbyScalars.capacity)
        #expect(model.nearby.range.upperBound == model.document.scalarCount, "the half around the caret is kept")
        let end = model.document.scalarCount
        #expect(model.scalars(in: (end - 10)..<end) == Array(repeating: "x", count: 10))
    }

    /// A read longer than the copy's capacity (the first settle after a long paste reads
    /// all of it) keeps only its end, where the caret is: the copy never holds the whole
    /// text, and reads near the end still come from it.
    @Test func aLongReadKeepsOnlyItsEnd() {
        let line = "日本語の行 @tanaka #general 👍\n"
        let text = String(repeating: line, count: 2000)
        let model = ComposerModel(text: text)
        let count = model.document.scalarCount
        #expect(model.scalars(in: 0..<count) == model.document.scalars(in: 0..<count))
        #expect(model.nearby.scalars.count <= NearbyScalars.capacity, "kept \(model.nearby.scalars.count) scalars")
        #expect(model.nearby.range.upperBound == count, "the copy ends where the read ended")
        #expect(!model.nearby.range.isEmpty)
        let tail = (count - 100)..<count
        #expect(model.nearby.scalars(in: tail) == model.document.scalars(in: tail), "a read near the end comes from the copy")
        model.applyInsert(at: count, text: "x", origin: .key)
        #expect(model.scalars(in: (count - 10)..<(count + 1)) == model.document.scalars(in: (count - 10)..<(count + 1)))
    }
}
