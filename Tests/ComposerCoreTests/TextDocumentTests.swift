import ComposerCore
import Testing

@Suite("TextDocument: offsets, graphemes, carets")
struct TextDocumentTests {
    @Test func familyEmojiIsOneGraphemeOfFiveScalars() {
        let document = TextDocument("a👨‍👩‍👧b")
        #expect(document.scalarCount == 7)
        #expect(document.graphemeCount == 3)
        #expect(document.utf16Count == 1 + 8 + 1)
        #expect(document.utf8Count == 1 + 18 + 1)
        #expect(document.graphemeOffset(ofScalar: 1) == 1)
        #expect(document.graphemeOffset(ofScalar: 3) == 1)  // inside the family: rounds down
        #expect(document.graphemeOffset(ofScalar: 6) == 2)
        #expect(document.scalarOffset(ofGrapheme: 2) == 6)
        #expect(document.utf16Offset(ofScalar: 6) == 9)
        #expect(document.scalarOffset(ofUTF16: 2) == 1)  // inside 👨's surrogate pair
        #expect(document.utf8Offset(ofScalar: 2) == 5)
        #expect(document.scalarOffset(ofUTF8: 3) == 1)  // inside 👨's four bytes
        #expect(document.isGraphemeBoundary(scalar: 1))
        #expect(!document.isGraphemeBoundary(scalar: 2))
        #expect(document.isGraphemeBoundary(scalar: 6))
    }

    @Test func flagIsTwoRegionalIndicators() {
        let document = TextDocument("🇯🇵🇯🇵")
        #expect(document.scalarCount == 4)
        #expect(document.graphemeCount == 2)
        #expect(document.isGraphemeBoundary(scalar: 2))
        #expect(!document.isGraphemeBoundary(scalar: 1))
        #expect(!document.isGraphemeBoundary(scalar: 3))
        #expect(document.utf16Offset(ofScalar: 2) == 4)
        #expect(document.utf8Offset(ofScalar: 3) == 12)
    }

    @Test func decomposedAccentAndHangul() {
        let document = TextDocument("e\u{301}간\u{1100}\u{1161}\u{11A8}")
        #expect(document.scalarCount == 6)
        #expect(document.graphemeCount == 3)  // é, 간, and jamo ㄱㅏㄱ as one syllable
        #expect(!document.isGraphemeBoundary(scalar: 1))
        #expect(document.isGraphemeBoundary(scalar: 2))
        #expect(document.isGraphemeBoundary(scalar: 3))
        #expect(!document.isGraphemeBoundary(scalar: 4))
        #expect(document.scalarOffset(ofGrapheme: 2) == 3)
        #expect(document.utf8Offset(ofScalar: 3) == 1 + 2 + 3)
        #expect(document.scalarOffset(ofUTF8: 4) == 2)  // inside 간
    }

    @Test func crlfIsOneGrapheme() {
        let document = TextDocument("a\r\nb")
        #expect(document.scalarCount == 4)
        #expect(document.graphemeCount == 3)
        #expect(!document.isGraphemeBoundary(scalar: 2))
        #expect(document.graphemeOffset(ofScalar: 2) == 1)
        #expect(document.scalarOffset(ofGrapheme: 2) == 3)
    }

    @Test func combiningCaronJoinsThePreviousGraphemeAfterInsert() {
        var document = TextDocument("aCb")
        #expect(document.graphemeCount == 3)
        document.replace(scalars: 2..<2, with: "\u{30C}")
        #expect(document.string.unicodeScalars.elementsEqual("aC\u{30C}b".unicodeScalars))
        #expect(document.scalarCount == 4)
        #expect(document.graphemeCount == 3)
        #expect(!document.isGraphemeBoundary(scalar: 2))
        #expect(document.graphemeOffset(ofScalar: 3) == 2)
        #expect(throws: CaretError.insideGrapheme(caret: 2, graphemeStart: 1, graphemeEnd: 3)) {
            try document.validateCaret(2)
        }
    }

    @Test func deletingTheCombiningMarkSplitsTheGraphemeAgain() {
        var document = TextDocument("C\u{30C}")
        #expect(document.graphemeCount == 1)
        document.replace(scalars: 1..<2, with: "")
        #expect(document.graphemeCount == 1)
        #expect(document.isGraphemeBoundary(scalar: 1))
        document.replace(scalars: 1..<1, with: "x")
        #expect(document.graphemeCount == 2)
    }

    @Test func zwjInsertedBetweenEmojiJoinsThem() {
        var document = TextDocument("👨👩")
        #expect(document.graphemeCount == 2)
        document.replace(scalars: 1..<1, with: "\u{200D}")
        #expect(document.graphemeCount == 1)
        #expect(!document.isGraphemeBoundary(scalar: 1))
    }

    @Test func substringAndReplaceUseScalarOffsets() {
        var document = TextDocument("こねこ")
        #expect(document.substring(scalars: 1..<3) == "ねこ")
        document.replace(scalars: 0..<3, with: "子猫")
        #expect(document.string == "子猫")
        #expect(document.substring(scalars: -5..<99) == "子猫")  // clamped
    }

    @Test func validateCaretReportsOutOfRange() throws {
        let document = TextDocument("abc")
        try document.validateCaret(0)
        try document.validateCaret(3)
        #expect(throws: CaretError.outOfRange(caret: 4, length: 3)) { try document.validateCaret(4) }
        #expect(throws: CaretError.outOfRange(caret: -1, length: 3)) { try document.validateCaret(-1) }
    }

    @Test func caretErrorDescriptionsNameTheNumbers() {
        let outside = CaretError.outOfRange(caret: 9, length: 3).description
        #expect(outside.contains("9") && outside.contains("0...3"))
        let inside = CaretError.insideGrapheme(caret: 2, graphemeStart: 1, graphemeEnd: 3).description
        #expect(inside.contains("2") && inside.contains("1..<3"))
    }

    @Test func conversionsClampOutOfRangeOffsets() {
        let document = TextDocument("ab")
        #expect(document.graphemeOffset(ofScalar: 99) == 2)
        #expect(document.scalarOffset(ofGrapheme: -3) == 0)
        #expect(document.scalarOffset(ofUTF8: 1000) == 2)
        #expect(document.utf16Offset(ofScalar: -1) == 0)
        #expect(!document.isGraphemeBoundary(scalar: 3))
        #expect(!document.isGraphemeBoundary(scalar: -1))
    }

    @Test func equalityIsScalarExactNotCanonical() {
        #expect("é" == "e\u{301}")  // Swift's String: canonical equivalence...
        #expect(TextDocument("é") != TextDocument("e\u{301}"))  // ...but offsets differ
        #expect(TextDocument("abc") == TextDocument("abc"))
    }
}
