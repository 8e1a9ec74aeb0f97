@testable import ComposerCore
import PropertyBased
import Testing

/// The composer without GTK, for the control marking alone: a model, a settle pipeline
/// with just that step, and one tag array standing in for the buffer's tag.
///
/// Typed text gets the tag GTK gives it: the tag of the run it is inserted strictly inside,
/// none at a run's ends. Pasted or dropped text is hostile (rich text from a text buffer):
/// each scalar gets a tag state from the `inheritance` cycle, whatever its neighbours carry.
private final class ControlDriver {
    let model: ComposerModel
    private(set) var tags: [Bool]
    private(set) var effects: [SettleEffect] = []
    let marking = InvisibleControlMarking()
    private let pipeline: SettlePipeline
    private var randomBits: [Bool]

    init(text: String = "", inheritance: [Bool] = [false]) {
        model = ComposerModel(text: text)
        randomBits = inheritance.isEmpty ? [false] : inheritance
        tags = [Bool](repeating: false, count: text.unicodeScalars.count)
        pipeline = SettlePipeline(steps: [marking])
    }

    var text: String { model.text }
    var count: Int { model.document.scalarCount }

    func type(_ string: String, at offset: Int? = nil, origin: EditOrigin = .key) {
        let at = min(offset ?? model.selection.caret, count)
        let length = string.unicodeScalars.count
        model.applyInsert(at: at, text: string, origin: origin)
        let inherited = at > 0 && at < tags.count && tags[at - 1] && tags[at]
        let states = origin == .paste || origin == .drop
            ? (0..<length).map { _ in nextRandomBit() }
            : Array(repeating: inherited, count: length)
        tags.insert(contentsOf: states, at: at)
        model.setSelection(anchor: at + length, caret: at + length)
    }

    func delete(_ range: Range<Int>) {
        let range = range.clamped(to: 0..<count)
        guard !range.isEmpty else { return }
        model.applyDelete(range: range, origin: .key)
        tags.removeSubrange(range)
    }

    func settle() {
        for effect in pipeline.settle(model, edit: { _ in Issue.record("the marking never edits") }).effects {
            effects.append(effect)
            guard case let .controlTag(add, remove) = effect else {
                Issue.record("unexpected \(effect)")
                continue
            }
            for range in remove { for index in range where index < count { tags[index] = false } }
            for range in add { for index in range where index < count { tags[index] = true } }
        }
    }

    func clearEffects() { effects = [] }

    var marked: [Range<Int>] { runs(of: tags) }

    /// The rule applied to the whole text from scratch.
    var expected: [Range<Int>] { InvisibleControls.markedRanges(in: Array(model.text.unicodeScalars)) }

    private func nextRandomBit() -> Bool {
        let bit = randomBits.removeFirst()
        randomBits.append(bit)
        return bit
    }
}

@Suite("Invisible controls: marking the input")
struct InvisibleControlMarkingTests {
    @Test func theFirstSettleMarksTheStartingText() {
        let driver = ControlDriver(text: "abc\u{202E}def \u{200B} 👨‍👩‍👧")
        driver.settle()
        #expect(driver.marked == [3..<4, 8..<9])
        #expect(driver.marking.markedRanges == [3..<4, 8..<9])
        #expect(driver.effects == [.controlTag(add: [3..<4, 8..<9], remove: [])])
    }

    @Test func typingWithoutControlsReadsNothingAndAsksNothing() {
        let driver = ControlDriver(text: "hello")
        driver.settle()
        driver.clearEffects()
        for letter in " world, こんにちは" {
            driver.type(String(letter))
            driver.settle()
            #expect(driver.marking.lastScannedScalars == 0)
        }
        #expect(driver.effects.isEmpty)
    }

    @Test func aPastedOverrideIsMarkedAndDeletingItUnmarks() {
        let driver = ControlDriver(text: "file")
        driver.settle()
        driver.type("\u{202E}txt.exe", origin: .paste)
        driver.settle()
        #expect(driver.marked == [4..<5])
        driver.delete(4..<5)
        driver.settle()
        #expect(driver.marked.isEmpty)
        #expect(driver.marking.markedRanges.isEmpty)
    }

    /// Far from any control, typing next to the marked text reads only around the edit.
    @Test func typingNearAControlReadsAroundTheEditOnly() {
        let long = String(repeating: "x", count: 5000)
        let driver = ControlDriver(text: long + "\u{2066}" + long)
        driver.settle()
        #expect(driver.marking.lastScannedScalars == 10_001, "the first settle reads the whole text once")
        driver.type("y", at: 5001)
        driver.settle()
        #expect(driver.marking.lastScannedScalars <= 4 * InvisibleControls.reach + 2)
        #expect(driver.marked == [5000..<5001])
        driver.type("z", at: 10)
        driver.settle()
        #expect(driver.marking.lastScannedScalars == 0, "no control near the edit: nothing read")
    }

    /// A neighbour's edit decides: deleting the emoji after a joiner leaves a bare joiner,
    /// typing an emoji after it makes a sequence again.
    @Test func aJoinerFollowsItsNeighbours() {
        let driver = ControlDriver(text: "👩\u{200D}💻")
        driver.settle()
        #expect(driver.marked.isEmpty)
        driver.delete(2..<3)
        driver.settle()
        #expect(driver.marked == [1..<2])
        driver.type("🔬", at: 2)
        driver.settle()
        #expect(driver.marked.isEmpty)
    }

    @Test func aFlagCompletedByItsCancelTagIsUnmarked() {
        let driver = ControlDriver(text: "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}")
        driver.settle()
        #expect(driver.marked == [1..<6], "tags without their cancel tag")
        driver.type("\u{E007F}")
        driver.settle()
        #expect(driver.marked.isEmpty)
    }

    /// Pasted rich text can bring the tag onto text that is no control: it comes off.
    @Test func aPasteCarryingTheTagIsCleared() {
        let driver = ControlDriver(text: "ab", inheritance: [true])
        driver.settle()
        driver.type("cd", origin: .paste)
        driver.settle()
        #expect(driver.marked.isEmpty)
    }

    /// Typing strictly inside a marked run inherits the tag: it comes off the typed text.
    @Test func textTypedInsideAMarkedRunIsUnmarked() {
        let driver = ControlDriver(text: "\u{202E}\u{202E}")
        driver.settle()
        driver.type("a", at: 1)
        #expect(driver.tags == [true, true, true], "GTK extends the run")
        driver.settle()
        #expect(driver.marked == [0..<1, 2..<3])
    }

    /// After the log dropped edits the step never saw, it starts afresh from the whole text.
    @Test func lostHistoryStartsAfresh() {
        let model = ComposerModel(text: "a\u{202E}b")
        let marking = InvisibleControlMarking()
        let pipeline = SettlePipeline(steps: [marking])
        _ = pipeline.settle(model) { _ in }
        for index in 0..<2100 {
            model.applyInsert(at: model.document.scalarCount, text: index == 2000 ? "\u{200B}" : "x", origin: .key)
            model.markSettle()
        }
        let output = pipeline.settle(model) { _ in }
        #expect(marking.markedRanges == InvisibleControls.markedRanges(in: Array(model.text.unicodeScalars)))
        #expect(output.effects.count == 1)
    }
}

private enum Step {
    case type(position: Int, text: String)
    case paste(position: Int, text: String)
    case delete(position: Int, length: Int)
    case settle
}

private let controlPieces = [
    "a", "b", " ", "\n", "\t", "日本", "می", "ک", "्", "👩", "💻", "\u{FE0F}", "🏴", "\u{1F3FD}",
    "\u{200B}", "\u{200C}", "\u{200D}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{61C}", "\u{1B}", "\r", "\u{AD}",
    "\u{E0067}", "\u{E0062}", "\u{E0073}", "\u{E007F}", "\u{E0001}", "\u{600}",
    "👩\u{200D}💻", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", "می\u{200C}خ",
]

private func controlText(_ pieces: ClosedRange<Int>) -> Generator<String, some Sequence & SendableMetatype> {
    Gen.element(of: controlPieces).map { $0! }.array(of: pieces).map { $0.joined() }
}

private func steps() -> Generator<[Step], some Sequence & SendableMetatype> {
    zip(Gen.int(in: 0...99), Gen.int(in: 0...40), Gen.int(in: 0...8), controlText(1...3))
    .map { kind, position, length, text -> Step in
        switch kind {
        case 0..<35: return .type(position: position, text: text)
        case 35..<45: return .paste(position: position, text: text)
        case 45..<70: return .delete(position: position, length: length)
        default: return .settle
        }
    }
    .array(of: 1...30)
}

@Suite("Invisible controls: properties over random edits")
struct InvisibleControlMarkingPropertyTests {
    /// After every settle the tag covers exactly what the rule marks in the whole text,
    /// whatever tags inserted text inherited.
    @Test func tagsMatchTheRuleAfterEverySettle() async {
        await propertyCheck(count: 1000, input: controlText(0...8), steps(), Gen.bool.array(of: 1...5)) {
            initial, steps, inheritance in
            let driver = ControlDriver(text: initial, inheritance: inheritance)
            driver.settle()
            func check(_ when: String) {
                #expect(driver.marked == driver.expected, "\(when) in \(driver.text.debugDescription)")
                #expect(driver.marking.markedRanges == driver.expected)
            }
            check("at the first settle")
            for step in steps {
                switch step {
                case let .type(position, text): driver.type(text, at: min(position, driver.count))
                case let .paste(position, text): driver.type(text, at: min(position, driver.count), origin: .paste)
                case let .delete(position, length):
                    let start = min(position, driver.count)
                    driver.delete(start..<min(driver.count, start + length))
                case .settle:
                    driver.settle()
                    check("after a settle")
                }
            }
            driver.settle()
            check("at the end")
        }
    }

    /// Effects stay near the edits: every range they name lies within `reach` of text
    /// changed since the previous settle.
    @Test func effectsOnlyNameTextNearTheEdits() async {
        await propertyCheck(count: 300, input: controlText(20...40), steps(), Gen.bool.array(of: 1...5)) {
            initial, steps, inheritance in
            let driver = ControlDriver(text: initial, inheritance: inheritance)
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
                case .settle:
                    driver.clearEffects()
                    driver.settle()
                    let reach = InvisibleControls.reach
                    for effect in driver.effects {
                        guard case let .controlTag(add, remove) = effect else { continue }
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
