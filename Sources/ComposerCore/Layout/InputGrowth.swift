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
    /// The display lines the input shows before it scrolls.
    public static let shownLines = 6

    /// Drafts from this many UTF-8 bytes up get `estimatedFullHeight` before the window is
    /// shown; shorter ones are laid out in no time whatever happens.
    public static let estimateFromBytes = 2048

    /// The input's height for a draft given at start, before the window is shown and its
    /// lines can be measured: `shownLines` lines of `lineHeight` plus the padding for a draft
    /// of `estimateFromBytes` or more, nil for a shorter one (measured once shown).
    ///
    /// Two reasons it must be there, and not below the height the first fit finds:
    /// - Growing the input from one line to six once the window is shown, while GTK has
    ///   validated almost none of a long draft, makes GtkTextView lay every paragraph out
    ///   again in each of the next frames (docs/upstream/gtk-4.8-long-draft-startup.c).
    /// - GTK validates the lines of the height the text view has when it is first shown.
    ///   Grown afterwards, even by a few pixels, the text view's first frames paint a band
    ///   below its validated lines, and GTK 4.8 then draws every line to the end of the
    ///   buffer (`gtk_text_layout_snapshot`: the band's bottom line is not found, so the
    ///   last line drawn is the buffer's last), frame after frame while the cursor blinks
    ///   (its animation's frames come before GTK's validation idle): a 100 KB draft over
    ///   its limit made 12,200 text and 27,000 underline render nodes a frame for 10 s and
    ///   kept 100 MB of them (Benchmarks/findings.md).
    ///
    /// So `lineHeight` is the tallest line of `estimateSample(of:)` as the text view's
    /// font draws it (fallback fonts included: a line of kanji is taller than the font's
    /// own), which no display line of the first six exceeds.
    public static func estimatedFullHeight(draftBytes: Int, lineHeight: Int, verticalPadding: Int) -> Int? {
        guard draftBytes >= estimateFromBytes, lineHeight > 0 else { return nil }
        return shownLines * lineHeight + max(0, verticalPadding)
    }

    /// The most of a draft `estimateSample(of:)` takes (Unicode scalars): at the input's
    /// narrowest, far more than six display lines.
    public static let sampleScalars = 2000

    /// The start of `text` whose lines hold the input's first `shownLines` display lines:
    /// through its `shownLines`-th paragraph, at most `sampleScalars` scalars. Laid out
    /// without wrapping, its tallest line is at least as tall as each of those display lines
    /// (wrapping splits a paragraph's glyphs; it never makes a line taller).
    public static func estimateSample(of text: String) -> Substring {
        var paragraphs = 0
        var taken = 0
        var index = text.unicodeScalars.startIndex
        while index != text.unicodeScalars.endIndex, taken < sampleScalars {
            let scalar = text.unicodeScalars[index]
            index = text.unicodeScalars.index(after: index)
            taken += 1
            if scalar == "\n" {
                paragraphs += 1
                if paragraphs == shownLines { break }
            }
        }
        return Substring(text.unicodeScalars[..<index])
    }

    public static func maximumHeight(displayLineBottoms: [Int], verticalPadding: Int,
                                     maxLines: Int = shownLines) -> Int? {
        let maxLines = max(1, maxLines)
        guard displayLineBottoms.count > maxLines else { return nil }
        return displayLineBottoms[maxLines - 1] + max(0, verticalPadding)
    }

    /// Whether the display lines must be walked again after an edit, or the input's size
    /// stays right. Walking lays out each of the first lines; typing in the last paragraph
    /// usually changes none of their heights, which that paragraph's bottom tells cheaply.
    /// - Parameters:
    ///   - editFrom: the lowest scalar offset an edit touched; nil when the input's width
    ///     changed (every line may wrap anew).
    ///   - lastParagraphStart: where the text's last paragraph starts (scalars).
    ///   - bottomMoved: whether the last display line's bottom moved since the last fit.
    ///   - measuredThrough: where the last walk stopped after `maxLines + 1` lines (a full
    ///     input: edits past it cannot change the cap); nil when the text had fewer.
    public static func needsRemeasure(editFrom: Int?, lastParagraphStart: Int, bottomMoved: Bool,
                                      measuredThrough: Int?) -> Bool {
        guard let editFrom else { return true }
        if measuredThrough != nil { return !keepsCap(editFrom: editFrom, measuredThrough: measuredThrough) }
        return bottomMoved || editFrom < lastParagraphStart
    }

    /// Whether a full input keeps its height whatever the edit did to the text: the edit
    /// (from `editFrom`) lies past the first `maxLines + 1` display lines, which alone set
    /// the cap. Then nothing needs to be asked of the text view at all: typing in a long
    /// draft costs no layout query.
    public static func keepsCap(editFrom: Int?, measuredThrough: Int?) -> Bool {
        guard let editFrom, let measuredThrough else { return false }
        return editFrom > measuredThrough
    }
}
