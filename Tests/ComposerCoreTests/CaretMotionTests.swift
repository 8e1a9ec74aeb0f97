import ComposerCore
import PropertyBased
import Testing

@Suite("CaretMotion: the caret toolbar's moves")
struct CaretMotionTests {
    /// "a👨‍👩‍👧🇯🇵Č子": graphemes a | 👨‍👩‍👧 (5 scalars) | 🇯🇵 (2) | C+U+030C (2) | 子.
    static let text = "a\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{1F1EF}\u{1F1F5}C\u{30C}子"
    static let document = TextDocument(text)
    /// Scalar offsets of the grapheme boundaries.
    static let boundaries = [0, 1, 6, 8, 10, 11]

    static func plan(_ selection: TextSelection, _ direction: CaretDirection, extend: Bool = false) -> CaretMove {
        CaretMotion.plan(selection: selection, document: document, direction: direction, extend: extend)
    }

    static func caret(_ offset: Int) -> TextSelection { TextSelection(caret: offset) }

    @Test func rightWalksWholeGraphemesAndStopsAtTheEnd() {
        var caret = 0
        var visited = [caret]
        for _ in 0..<8 {
            guard case .set(let selection) = Self.plan(Self.caret(caret), .right) else {
                Issue.record("→ is not a set")
                return
            }
            #expect(selection.isEmpty)
            caret = selection.caret
            visited.append(caret)
        }
        #expect(visited == Self.boundaries + [11, 11, 11])
    }

    @Test func leftWalksWholeGraphemesAndStopsAtTheStart() {
        var caret = 11
        var visited = [caret]
        for _ in 0..<7 {
            guard case .set(let selection) = Self.plan(Self.caret(caret), .left) else {
                Issue.record("← is not a set")
                return
            }
            caret = selection.caret
            visited.append(caret)
        }
        #expect(visited == Self.boundaries.reversed() + [0, 0])
    }

    @Test func theEndsOfAnEmptyDocumentAreSafe() {
        let empty = TextDocument()
        for direction in [CaretDirection.left, .right] {
            for extend in [false, true] {
                #expect(CaretMotion.plan(selection: Self.caret(0), document: empty, direction: direction, extend: extend)
                        == .set(Self.caret(0)))
            }
        }
    }

    @Test func offsetsOutsideTheDocumentAreClamped() {
        #expect(Self.plan(Self.caret(99), .right) == .set(Self.caret(11)))
        #expect(Self.plan(Self.caret(99), .left) == .set(Self.caret(10)))
        #expect(Self.plan(Self.caret(-3), .left) == .set(Self.caret(0)))
        #expect(Self.plan(TextSelection(anchor: -4, caret: 50), .left) == .set(Self.caret(0)))
    }

    @Test func aCaretInsideAGraphemeMovesToItsEdges() {
        // Scalar 3 is inside the family emoji (1..<6); 9 is between C and U+030C.
        #expect(Self.plan(Self.caret(3), .left) == .set(Self.caret(1)))
        #expect(Self.plan(Self.caret(3), .right) == .set(Self.caret(6)))
        #expect(Self.plan(Self.caret(9), .left) == .set(Self.caret(8)))
        #expect(Self.plan(Self.caret(9), .right) == .set(Self.caret(10)))
    }

    @Test func aSelectionCollapsesToItsStartOrEnd() {
        let forward = TextSelection(anchor: 1, caret: 8)
        let backward = TextSelection(anchor: 8, caret: 1)
        for selection in [forward, backward] {
            #expect(Self.plan(selection, .left) == .set(Self.caret(1)), "collapse only, no further move")
            #expect(Self.plan(selection, .right) == .set(Self.caret(8)))
        }
        let all = TextSelection(anchor: 0, caret: 11)
        #expect(Self.plan(all, .left) == .set(Self.caret(0)))
        #expect(Self.plan(all, .right) == .set(Self.caret(11)))
    }

    @Test func extendMovesTheCaretEndAndKeepsTheAnchor() {
        #expect(Self.plan(Self.caret(6), .right, extend: true) == .set(TextSelection(anchor: 6, caret: 8)))
        #expect(Self.plan(Self.caret(6), .left, extend: true) == .set(TextSelection(anchor: 6, caret: 1)))
        #expect(Self.plan(TextSelection(anchor: 1, caret: 8), .right, extend: true) == .set(TextSelection(anchor: 1, caret: 10)))
        #expect(Self.plan(TextSelection(anchor: 1, caret: 8), .left, extend: true) == .set(TextSelection(anchor: 1, caret: 6)))
        // Shrinking back through the anchor and beyond keeps the anchor.
        #expect(Self.plan(TextSelection(anchor: 6, caret: 8), .left, extend: true) == .set(Self.caret(6)))
        #expect(Self.plan(TextSelection(anchor: 6, caret: 6), .left, extend: true) == .set(TextSelection(anchor: 6, caret: 1)))
        // At the ends nothing moves.
        #expect(Self.plan(TextSelection(anchor: 6, caret: 11), .right, extend: true) == .set(TextSelection(anchor: 6, caret: 11)))
        #expect(Self.plan(TextSelection(anchor: 6, caret: 0), .left, extend: true) == .set(TextSelection(anchor: 6, caret: 0)))
    }

    @Test func upAndDownAreDisplayLineMovesForTheApp() {
        #expect(Self.plan(Self.caret(3), .up) == .displayLine(up: true, extend: false))
        #expect(Self.plan(TextSelection(anchor: 1, caret: 8), .down, extend: true) == .displayLine(up: false, extend: true))
    }

    @Test func everyMoveLandsOnAGraphemeBoundaryInRandomText() async {
        await propertyCheck(count: 400, input: mixedText(), Gen.int(in: -2...40), Gen.int(in: -2...40),
                            Gen.element(of: [CaretDirection.left, .right]).map { $0! }, Gen.bool) { text, anchor, caret, direction, extend in
            let document = TextDocument(text)
            let selection = TextSelection(anchor: anchor, caret: caret)
            guard case .set(let result) = CaretMotion.plan(selection: selection, document: document,
                                                          direction: direction, extend: extend) else {
                Issue.record("← → always set")
                return
            }
            let clampedCaret = document.clampScalar(caret)
            if extend {
                #expect(result.anchor == document.clampScalar(anchor))
            } else {
                #expect(result.isEmpty)
            }
            if extend || anchor == caret || document.clampScalar(anchor) == clampedCaret {
                #expect(document.isGraphemeBoundary(scalar: result.caret))
                let grapheme = document.graphemeOffset(ofScalar: clampedCaret)
                let onBoundary = document.isGraphemeBoundary(scalar: clampedCaret)
                if direction == .right {
                    #expect(result.caret == document.scalarOffset(ofGrapheme: grapheme + 1))
                } else {
                    #expect(result.caret == document.scalarOffset(ofGrapheme: onBoundary ? max(0, grapheme - 1) : grapheme))
                }
            }
        }
    }
}

@Suite("The caret toolbar's keyboard route")
struct CaretShortcutAcceleratorTests {
    @Test func controlAltArrowsWithShiftToExtend() {
        #expect(CaretDirection.left.accelerator(extend: false) == "<Control><Alt>Left")
        #expect(CaretDirection.down.accelerator(extend: true) == "<Control><Alt><Shift>Down")
        #expect(Set(CaretDirection.allCases.map { $0.accelerator(extend: false) }).count == 4)
    }
}
