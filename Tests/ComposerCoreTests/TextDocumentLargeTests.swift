import ComposerCore
import Foundation
import Testing

/// A 1 MB document whose offsets can be computed arithmetically. These tests check
/// correctness at scale; that conversions stay on the rope (O(log n)) is checked
/// structurally by reading the conversion source — no timing assertions.
@Suite("TextDocument: large documents")
struct TextDocumentLargeTests {
    /// 12 scalars, 6 graphemes, 15 UTF-16 units, 28 UTF-8 bytes.
    static let unit = "ab👨‍👩‍👧e\u{301}か\r\n"
    static let repetitions = 40_000

    @Test func unitHasTheAssumedSizes() {
        let document = TextDocument(Self.unit)
        let sizes: [Int] = [document.scalarCount, document.graphemeCount, document.utf16Count, document.utf8Count]
        #expect(sizes == [12, 6, 15, 28])
    }

    @Test func conversionsOnAOneMegabyteDocument() {
        let document = TextDocument(String(repeating: Self.unit, count: Self.repetitions))
        #expect(document.utf8Count >= 1_000_000)
        #expect(document.scalarCount == 12 * Self.repetitions)
        #expect(document.graphemeCount == 6 * Self.repetitions)
        for k in stride(from: 0, to: Self.repetitions, by: 97) {
            let s = 12 * k
            #expect(document.graphemeOffset(ofScalar: s) == 6 * k)
            #expect(document.graphemeOffset(ofScalar: s + 4) == 6 * k + 2)  // inside the family
            #expect(document.scalarOffset(ofGrapheme: 6 * k + 3) == s + 7)
            #expect(document.utf16Offset(ofScalar: s + 7) == 15 * k + 10)
            #expect(document.scalarOffset(ofUTF16: 15 * k + 3) == s + 2)  // inside 👨
            #expect(document.utf8Offset(ofScalar: s + 10) == 28 * k + 26)
            #expect(document.scalarOffset(ofUTF8: 28 * k + 24) == s + 9)  // inside か
            #expect(!document.isGraphemeBoundary(scalar: s + 11))  // between CR and LF
        }
    }

    @Test func editInTheMiddleOfAOneMegabyteDocument() {
        var document = TextDocument(String(repeating: "C", count: 1_000_000))
        document.replace(scalars: 500_000..<500_000, with: "\u{30C}")
        #expect(document.scalarCount == 1_000_001)
        #expect(document.graphemeCount == 1_000_000)
        #expect(!document.isGraphemeBoundary(scalar: 500_000))
        #expect(document.graphemeOffset(ofScalar: 500_002) == 500_001)
        #expect(document.substring(scalars: 499_999..<500_002).unicodeScalars.elementsEqual("C\u{30C}C".unicodeScalars))
    }

    @Test func conversionSourceNeverMaterialisesAString() throws {
        let source = try String(
            contentsOf: repositoryRoot().appendingPathComponent("Sources/ComposerCore/Text/TextDocument+OffsetConversion.swift"),
            encoding: .utf8)
        let code = source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
        for line in code {
            #expect(!line.contains(".string"), "conversion must not copy the text: \(line)")
            #expect(!line.contains("String("), "conversion must not copy the text: \(line)")
            #expect(!line.contains("Array("), "conversion must not copy the text: \(line)")
        }
        #expect(code.contains { $0.contains("storage.") }, "conversions should walk the rope")
    }
}
