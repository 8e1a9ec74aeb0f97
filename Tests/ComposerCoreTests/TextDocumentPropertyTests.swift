import ComposerCore
import PropertyBased
import Testing

@Suite("TextDocument: against a String oracle")
struct TextDocumentPropertyTests {
    @Test func everyConversionMatchesTheOracle() async {
        await propertyCheck(count: 200, input: mixedText()) { text in
            expectMatchesOracle(TextDocument(text), text)
        }
    }

    @Test func conversionsStayCorrectAfterRandomEdits() async {
        let edits = zip(Gen.int(in: 0...1000), Gen.int(in: 0...6), mixedText(pieces: 0...4)).array(of: 1...8)
        await propertyCheck(count: 200, input: mixedText(), edits) { text, edits in
            var document = TextDocument(text)
            var scalars = Array(text.unicodeScalars)
            for (position, length, replacement) in edits {
                let start = position % (scalars.count + 1)
                let end = min(scalars.count, start + length)
                document.replace(scalars: start..<end, with: replacement)
                scalars.replaceSubrange(start..<end, with: replacement.unicodeScalars)
            }
            expectMatchesOracle(document, string(scalars))
        }
    }

    @Test func roundTripsThroughEveryUnit() async {
        await propertyCheck(count: 200, input: mixedText()) { text in
            let document = TextDocument(text)
            for scalar in 0...document.scalarCount {
                #expect(document.scalarOffset(ofUTF16: document.utf16Offset(ofScalar: scalar)) == scalar)
                #expect(document.scalarOffset(ofUTF8: document.utf8Offset(ofScalar: scalar)) == scalar)
            }
            for grapheme in 0...document.graphemeCount {
                #expect(document.graphemeOffset(ofScalar: document.scalarOffset(ofGrapheme: grapheme)) == grapheme)
            }
        }
    }
}

private func expectMatchesOracle(_ document: TextDocument, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let oracle = StringOracle(text)
    #expect(document.string.unicodeScalars.elementsEqual(text.unicodeScalars), sourceLocation: sourceLocation)
    #expect(document.scalarCount == oracle.scalars.count, sourceLocation: sourceLocation)
    #expect(document.graphemeCount == oracle.graphemeCount, "\(text.debugDescription)", sourceLocation: sourceLocation)
    #expect(document.utf16Count == text.utf16.count, sourceLocation: sourceLocation)
    #expect(document.utf8Count == text.utf8.count, sourceLocation: sourceLocation)
    for scalar in 0...oracle.scalars.count {
        #expect(document.graphemeOffset(ofScalar: scalar) == oracle.graphemeOffset(ofScalar: scalar), "\(text.debugDescription) @\(scalar)", sourceLocation: sourceLocation)
        #expect(document.isGraphemeBoundary(scalar: scalar) == oracle.isGraphemeBoundary(scalar), "\(text.debugDescription) @\(scalar)", sourceLocation: sourceLocation)
        #expect(document.utf16Offset(ofScalar: scalar) == oracle.utf16Offset(ofScalar: scalar), sourceLocation: sourceLocation)
        #expect(document.utf8Offset(ofScalar: scalar) == oracle.utf8Offset(ofScalar: scalar), sourceLocation: sourceLocation)
        let caretIsValid = (try? document.validateCaret(scalar)) != nil
        #expect(caretIsValid == oracle.isGraphemeBoundary(scalar), sourceLocation: sourceLocation)
    }
    for grapheme in 0...oracle.graphemeCount {
        #expect(document.scalarOffset(ofGrapheme: grapheme) == oracle.scalarOffset(ofGrapheme: grapheme), sourceLocation: sourceLocation)
    }
    for unit in 0...text.utf16.count {
        #expect(document.scalarOffset(ofUTF16: unit) == oracle.scalarOffset(ofUnit: unit, width: UTF16.width), sourceLocation: sourceLocation)
    }
    for unit in 0...text.utf8.count {
        #expect(document.scalarOffset(ofUTF8: unit) == oracle.scalarOffset(ofUnit: unit, width: UTF8.width), sourceLocation: sourceLocation)
    }
    for lower in stride(from: 0, through: oracle.scalars.count, by: 3) {
        let upper = min(oracle.scalars.count, lower + 2)
        #expect(document.substring(scalars: lower..<upper).unicodeScalars.elementsEqual(oracle.scalars[lower..<upper]), sourceLocation: sourceLocation)
    }
}
