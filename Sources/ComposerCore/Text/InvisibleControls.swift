/// The one rule for which scalars are *invisible controls*: characters that draw nothing,
/// or reorder what is drawn around them, yet change what a text says — `U+202E` turning
/// `txt.exe` into `exe.txt`, a zero-width space splitting a word no one can see split,
/// tag characters spelling text no one can see at all.
///
/// The input marks them (`InvisibleControlMarking`), the sent messages mark them, the
/// trace escapes them (`JSONValue.serialized()`), and names from the data files lose them
/// at load (`cleaned(_:)`). The app never decides which scalars these are: it asks here.
///
/// A *control* (`isControl`) is a Cc character other than `\n` and `\t` (C0, DEL, C1) or
/// a Cf character: the bidirectional embeddings, overrides and isolates (U+202A–202E,
/// U+2066–2069), the marks (U+200E, U+200F, U+061C), the zero-width characters
/// (U+200B–200D, U+2060, U+FEFF), the soft hyphen, the invisible operators, the tag
/// characters (U+E0000 block) and the rest of Cf. Left out: the prepended concatenation
/// marks (U+0600–0605, U+06DD, U+070F, U+0890–0891, U+08E2, U+110BD, U+110CD), Cf by
/// category but drawn: they span the digits after them, and a mark would cut them off.
///
/// A control is *marked* (`isMarked`) unless it is how a visible thing is spelled, which
/// its neighbours tell (`reach` scalars at most on either side):
/// - U+200D ZERO WIDTH JOINER between two emoji: an emoji ZWJ sequence (👩‍💻, 👨‍👩‍👧,
///   🏳️‍🌈); marking it would split the emoji into its parts on screen.
/// - U+200C ZWNJ or U+200D ZWJ between two letters or marks outside ASCII: Persian,
///   Urdu and the Indic scripts spell with them (می‌خواهم); marking them would put a box in
///   most Persian sentences. Between ASCII letters they do nothing visible and are marked.
/// - Tag characters in an emoji tag sequence: U+1F3F4, one to `maximumTagSpec` tags,
///   U+E007F (🏴󠁧󠁢󠁳󠁣󠁴󠁿, the flags of England, Scotland and Wales). Any other tag character
///   is marked: that is how invisible text is smuggled (ASCII spelled in tags).
public enum InvisibleControls {
    /// The most tag characters an emoji tag sequence may have between its flag and its
    /// cancel tag (subdivision codes are at most six letters and digits: `gbsct`).
    public static let maximumTagSpec = 6

    /// How far (in scalars) on either side of a control its neighbours can decide whether
    /// it is marked: the flag of a tag sequence before its last tag character, or the
    /// cancel tag after its first, and one to spare.
    public static let reach = maximumTagSpec + 2

    /// Whether `scalar` is an invisible control wherever it stands (see the type). Cheap
    /// for the scalars typed most: ASCII, kana, kanji and Hangul need no property lookup.
    @inline(__always)
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 { return value != 0x09 && value != 0x0A }
        if value < 0x7F { return false }
        if value < 0xA0 { return true }  // DEL and C1
        if value == 0xAD { return true }  // SOFT HYPHEN
        if value < 0x600 { return false }  // no other Cc or Cf below U+0600
        if value >= 0x3000, value < 0xFEFF { return false }  // CJK, kana, Hangul: none
        return isOtherFormat(value)
    }

    /// Cf from U+0600 up, without the prepended concatenation marks.
    private static func isOtherFormat(_ value: UInt32) -> Bool {
        switch value {
        case 0x600...0x605, 0x6DD, 0x70F, 0x890...0x891, 0x8E2, 0x110BD, 0x110CD: return false
        default: return Unicode.Scalar(value)!.properties.generalCategory == .format
        }
    }

    /// Whether a control's neighbours decide whether it is marked (a joiner, a
    /// non-joiner, a tag character); any other control is always marked.
    public static func dependsOnNeighbours(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200C, 0x200D, 0xE0020...0xE007F: true
        default: false
        }
    }

    /// Whether the control at `index` of `scalars` is marked: it is a control, and not part
    /// of an emoji or a word it spells. `scalars` must hold the `reach` scalars on either
    /// side of `index`, or run to the text's end on that side.
    public static func isMarked<Scalars: RandomAccessCollection<Unicode.Scalar>>(
        at index: Scalars.Index, in scalars: Scalars
    ) -> Bool where Scalars.Index == Int {
        let scalar = scalars[index]
        guard isControl(scalar) else { return false }
        switch scalar.value {
        case 0x200C, 0x200D:
            guard index > scalars.startIndex, index + 1 < scalars.endIndex else { return true }
            let before = scalars[index - 1], after = scalars[index + 1]
            if scalar.value == 0x200D, isEmojiBeforeJoiner(before), isEmojiAfterJoiner(after) { return false }
            return !(isJoinedLetter(before) && isJoinedLetter(after))
        case 0xE0020...0xE007F:
            return !isInEmojiTagSequence(index, scalars)
        default:
            return true
        }
    }

    /// The marked controls of `scalars` (offsets into it), merged.
    public static func markedRanges(in scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for index in scalars.indices where isMarked(at: index, in: scalars) {
            if let last = ranges.last, last.upperBound == index {
                ranges[ranges.count - 1] = last.lowerBound..<(index + 1)
            } else {
                ranges.append(index..<(index + 1))
            }
        }
        return ranges
    }

    /// The marked controls of `text` as UTF-8 byte ranges (what Pango's attributes take),
    /// merged; empty, without an array of scalars, when `text` has no control at all.
    public static func markedUTF8Ranges(in text: String) -> [Range<Int>] {
        guard text.unicodeScalars.contains(where: isControl) else { return [] }
        let scalars = Array(text.unicodeScalars)
        var ranges: [Range<Int>] = []
        var byte = 0
        for (index, scalar) in scalars.enumerated() {
            let length = UTF8.width(scalar)
            if isMarked(at: index, in: scalars) {
                if let last = ranges.last, last.upperBound == byte {
                    ranges[ranges.count - 1] = last.lowerBound..<(byte + length)
                } else {
                    ranges.append(byte..<(byte + length))
                }
            }
            byte += length
        }
        return ranges
    }

    /// `text` with its marked controls removed and its line breaks and tabs made spaces,
    /// and the controls removed (in order): for one-line names from the data files, which
    /// are shown in one row and inserted as they are.
    public static func cleaned(_ text: String) -> (text: String, removed: [Unicode.Scalar]) {
        guard text.unicodeScalars.contains(where: { isControl($0) || isLineBreak($0) || $0 == "\t" }) else {
            return (text, [])
        }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var removed: [Unicode.Scalar] = []
        for (index, scalar) in scalars.enumerated() {
            if isLineBreak(scalar) || scalar == "\t" {
                // CR LF is one break: one space.
                if scalar == "\n", index > 0, scalars[index - 1] == "\r" { continue }
                result.append(" ")
            } else if isMarked(at: index, in: scalars) {
                removed.append(scalar)
            } else {
                result.append(scalar)
            }
        }
        return (String(result), removed)
    }

    /// A line or paragraph break: LF, CR, NEL, U+2028, U+2029 (and VT, FF).
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    // MARK: context

    /// What may end the emoji before a ZWJ: a pictograph, a skin tone or hair component, or
    /// the emoji presentation selector (❤️‍🔥 is U+2764 U+FE0F U+200D U+1F525).
    private static func isEmojiBeforeJoiner(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0F || isEmojiAfterJoiner(scalar)
    }

    /// What may start the emoji after a ZWJ. `isEmoji` alone also holds for the ASCII
    /// digits, `#` and `*` (keycap bases): those are not enough.
    private static func isEmojiAfterJoiner(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isASCII && scalar.properties.isEmoji
    }

    /// A letter or mark outside ASCII, which a joiner or non-joiner may sit between.
    private static func isJoinedLetter(_ scalar: Unicode.Scalar) -> Bool {
        guard !scalar.isASCII else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    private static func isTagSpec(_ scalar: Unicode.Scalar) -> Bool {
        (0xE0020...0xE007E).contains(scalar.value)
    }

    /// Whether the tag character at `index` belongs to U+1F3F4, 1…`maximumTagSpec` tags,
    /// U+E007F. Looks at most `reach` scalars away.
    private static func isInEmojiTagSequence<Scalars: RandomAccessCollection<Unicode.Scalar>>(
        _ index: Int, _ scalars: Scalars
    ) -> Bool where Scalars.Index == Int {
        var specStart = index
        while specStart > scalars.startIndex, isTagSpec(scalars[specStart - 1]) {
            specStart -= 1
            if index - specStart > maximumTagSpec { return false }
        }
        var end = index
        while end < scalars.endIndex, isTagSpec(scalars[end]) {
            end += 1
            if end - specStart > maximumTagSpec { return false }
        }
        return end < scalars.endIndex && scalars[end].value == 0xE007F && end > specStart
            && specStart > scalars.startIndex && scalars[specStart - 1].value == 0x1F3F4
    }
}
