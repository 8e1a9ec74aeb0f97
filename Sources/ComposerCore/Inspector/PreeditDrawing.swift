/// A preedit drawn as the user sees it, for a label: its text with a cursor mark at the
/// cursor, and each segment's styles over UTF-8 byte ranges (Pango attributes count bytes).
/// The text stays plain text: the styles are attributes, never markup.
public struct PreeditDrawing: Equatable, Sendable {
    /// The mark drawn at the cursor (a thin bar, in its own colour).
    public static let cursorMark = "▏"

    public struct Span: Equatable, Sendable {
        public let bytes: Range<Int>
        public let styles: [PreeditStyle]

        public init(bytes: Range<Int>, styles: [PreeditStyle]) {
            self.bytes = bytes
            self.styles = styles
        }
    }

    public let text: String
    public let spans: [Span]
    /// Where the cursor mark is; nil when the cursor is outside the text (then it is not drawn
    /// inside, and the row is flagged).
    public let cursorBytes: Range<Int>?

    public init(_ preedit: Preedit) {
        let scalars = Array(preedit.text.unicodeScalars)
        let cursor = preedit.cursor <= scalars.count ? preedit.cursor : nil
        var text = ""
        var byteOffsets: [Int] = []  // byte offset of each scalar position in `text`
        var mark: Range<Int>?
        for index in 0...scalars.count {
            if index == cursor {
                let start = text.utf8.count
                text += Self.cursorMark
                mark = start..<text.utf8.count
            }
            byteOffsets.append(text.utf8.count)
            if index < scalars.count { text.unicodeScalars.append(scalars[index]) }
        }
        // A segment ends where its last scalar ends (before a cursor mark that follows it).
        func end(_ position: Int) -> Int {
            guard position > 0 else { return 0 }
            return byteOffsets[position - 1] + String(scalars[position - 1]).utf8.count
        }
        self.text = text
        spans = preedit.segments.compactMap { segment in
            let lower = min(segment.start, scalars.count), upper = min(segment.end, scalars.count)
            guard lower < upper else { return nil }
            return Span(bytes: byteOffsets[lower]..<end(upper), styles: segment.styles)
        }
        cursorBytes = mark
    }
}
