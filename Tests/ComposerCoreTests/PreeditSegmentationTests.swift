import ComposerCore
import Testing

@Suite("PreeditSegmentation: Pango byte runs to scalar segments")
struct PreeditSegmentationTests {
    /// What Pango uses as "until the end" (G_MAXINT).
    static let gMaxInt = Int(Int32.max)

    @Test func multibyteTextConvertsBytesToScalars() {
        // こねこ: 3 bytes per scalar. Converting segment "ねこ" highlighted.
        let segments = PreeditSegmentation.segments(of: "こねこ", byteRuns: [
            StyledByteRun(start: 0, end: 3, styles: [.underline]),
            StyledByteRun(start: 3, end: 9, styles: [.underline, .highlight]),
        ])
        #expect(segments == [
            PreeditSegment(start: 0, end: 1, styles: [.underline]),
            PreeditSegment(start: 1, end: 3, styles: [.underline, .highlight]),
        ])
    }

    @Test func gMaxIntEndIsClampedToTheText() {
        let segments = PreeditSegmentation.segments(of: "子猫", byteRuns: [
            StyledByteRun(start: 0, end: Self.gMaxInt, styles: [.underline]),
        ])
        #expect(segments == [PreeditSegment(start: 0, end: 2, styles: [.underline])])
    }

    @Test func byteOffsetsInsideAScalarRoundDown() {
        // 4-byte 😀 then "a": start byte 2 is inside 😀 and rounds down to scalar 0;
        // end byte 5 is the end of "a".
        let segments = PreeditSegmentation.segments(of: "😀a", byteRuns: [
            StyledByteRun(start: 2, end: 5, styles: [.bold]),
        ])
        #expect(segments == [PreeditSegment(start: 0, end: 2, styles: [.bold])])
        let insideOnly = PreeditSegmentation.segments(of: "😀a", byteRuns: [
            StyledByteRun(start: 1, end: 3, styles: [.bold]),
        ])
        #expect(insideOnly == [])  // both ends round down to 0: empty
    }

    @Test func adjacentEqualRunsCoalesceAndUnstyledOrEmptyRunsDrop() {
        let segments = PreeditSegmentation.segments(of: "abcdef", byteRuns: [
            StyledByteRun(start: 0, end: 2, styles: [.underline]),
            StyledByteRun(start: 2, end: 4, styles: [.underline]),
            StyledByteRun(start: 4, end: 5, styles: []),
            StyledByteRun(start: 5, end: 5, styles: [.bold]),
            StyledByteRun(start: 5, end: 6, styles: [.strikethrough]),
        ])
        #expect(segments == [
            PreeditSegment(start: 0, end: 4, styles: [.underline]),
            PreeditSegment(start: 5, end: 6, styles: [.strikethrough]),
        ])
    }

    @Test func unsortedAndOverlappingRunsBecomeSortedAndDisjoint() {
        let segments = PreeditSegmentation.segments(of: "abcd", byteRuns: [
            StyledByteRun(start: 2, end: 4, styles: [.highlight]),
            StyledByteRun(start: -3, end: 3, styles: [.underline]),
        ])
        #expect(segments == [
            PreeditSegment(start: 0, end: 2, styles: [.underline]),
            PreeditSegment(start: 2, end: 3, styles: [.underline, .highlight]),
            PreeditSegment(start: 3, end: 4, styles: [.highlight]),
        ])
    }

    @Test func segmentStylesAreSortedAndUnique() {
        let segment = PreeditSegment(start: 0, end: 1, styles: [.bold, .underline, .bold, .doubleUnderline])
        #expect(segment.styles == [.underline, .doubleUnderline, .bold])
        #expect(PreeditStyle.allCases.sorted() == PreeditStyle.allCases)
        #expect(PreeditStyle.underline < PreeditStyle.strikethrough)
    }
}
