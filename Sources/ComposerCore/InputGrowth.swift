/// How tall the input may grow: with its content up to `maxLines` display lines, then it
/// stops and scrolls.
///
/// Measured from the real display lines rather than a nominal line height, because lines
/// differ: a line of kanji or Hangul (drawn with a CJK fallback font) is taller than a line
/// of Latin text, and wrapped paragraphs are several display lines.
public enum InputGrowth {
    /// - Parameters:
    ///   - displayLineBottoms: the bottom y (pixels, from the top of the text) of the first
    ///     display lines, in order; pass at least `maxLines + 1` when the text has that many.
    ///   - verticalPadding: space above and below the text inside the input.
    /// - Returns: the height at which the input stops growing, or nil while the text has at
    ///   most `maxLines` display lines (the input is exactly as tall as its content).
    public static func maximumHeight(displayLineBottoms: [Int], verticalPadding: Int,
                                     maxLines: Int = 6) -> Int? {
        let maxLines = max(1, maxLines)
        guard displayLineBottoms.count > maxLines else { return nil }
        return displayLineBottoms[maxLines - 1] + max(0, verticalPadding)
    }
}
