import ComposerCore
import Testing

/// The rule: which scalars are invisible controls, and which of them are marked.
@Suite("Invisible controls: the rule")
struct InvisibleControlsTests {
    private func marked(_ text: String) -> [Range<Int>] {
        InvisibleControls.markedRanges(in: Array(text.unicodeScalars))
    }

    @Test func bidirectionalControlsAreMarked() {
        for value: UInt32 in [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
                              0x061C, 0x200E, 0x200F] {
            let text = string(["a", Unicode.Scalar(value)!, "b"])
            #expect(marked(text) == [1..<2], "U+\(String(value, radix: 16, uppercase: true))")
        }
        #expect(marked("txt\u{202E}exe.doc") == [3..<4])
        #expect(marked("\u{202E}\u{2066}") == [0..<2], "neighbouring controls make one range")
    }

    @Test func zeroWidthAndOtherFormatCharactersAreMarked() {
        #expect(marked("ta\u{200B}naka") == [2..<3])
        #expect(marked("a\u{200C}b") == [1..<2], "a non-joiner between ASCII letters does nothing visible")
        #expect(marked("a\u{200D}b") == [1..<2])
        #expect(marked("\u{FEFF}x") == [0..<1])
        #expect(marked("soft\u{AD}hyphen") == [4..<5])
        #expect(marked("x\u{2060}\u{2064}y") == [1..<3])
        #expect(marked("a\u{E0001}b") == [1..<2], "the language tag")
        #expect(marked("\u{E0041}\u{E0042}\u{E0043}") == [0..<3], "ASCII spelled in tag characters")
    }

    @Test func controlCharactersButNewlineAndTabAreMarked() {
        #expect(marked("a\nb\tc").isEmpty)
        #expect(marked("\u{0}\u{7}\r\u{1B}[31m") == [0..<4])
        #expect(marked("a\u{7F}b\u{85}c\u{9B}") == [1..<2, 3..<4, 5..<6])
    }

    @Test func emojiSpelledWithAJoinerAreLeftAlone() {
        for emoji in ["👨‍👩‍👧", "👩🏽‍💻", "🏳️‍🌈", "❤️‍🔥", "👁️‍🗨️", "🧑‍🤝‍🧑"] {
            #expect(marked(emoji).isEmpty, "\(emoji)")
            #expect(marked("x \(emoji) y").isEmpty, "\(emoji) in text")
        }
        #expect(marked("\u{200D}👩") == [0..<1], "a joiner that starts the text joins nothing")
        #expect(marked("👩\u{200D}") == [1..<2])
        #expect(marked("👩\u{200D}x") == [1..<2])
        #expect(marked("1\u{200D}👩") == [1..<2], "an ASCII keycap base is no emoji before a joiner")
        #expect(marked("👩\u{200D}\u{200D}👩") == [1..<3])
    }

    @Test func joinersSpellingScriptsAreLeftAlone() {
        #expect(marked("می\u{200C}خواهم").isEmpty, "Persian")
        #expect(marked("क्\u{200D}ष").isEmpty, "Devanagari: after the virama")
        #expect(marked("ക്\u{200D}") == [2..<3], "at the end it joins nothing")
        #expect(marked("می\u{200B}خواهم") == [2..<3], "a zero-width space is no joiner")
    }

    @Test func subdivisionFlagsAreLeftAloneOtherTagsAreNot() {
        let scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        #expect(marked(scotland).isEmpty)
        #expect(marked("go \(scotland)!").isEmpty)
        #expect(marked("🏴\u{E0067}\u{E0062}") == [1..<3], "no cancel tag")
        #expect(marked("x\u{E0067}\u{E007F}") == [1..<3], "no black flag")
        #expect(marked("🏴\u{E007F}") == [1..<2], "no tag between flag and cancel")
        let long = "🏴" + string((0..<7).map { _ in Unicode.Scalar(0xE0061)! }) + "\u{E007F}"
        #expect(marked(long) == [1..<9], "longer than a subdivision code")
    }

    @Test func visibleFormatCharactersAreNotControls() {
        #expect(marked("\u{600}١٢٣").isEmpty, "an Arabic number sign spans the digits")
        #expect(marked("\u{6DD}١").isEmpty)
        #expect(!InvisibleControls.isControl("\u{110BD}"))
    }

    /// The fast paths agree with the Unicode data for every scalar: Cc but `\n` and `\t`,
    /// Cf but the prepended concatenation marks.
    @Test func isControlMatchesTheGeneralCategoryEverywhere() {
        let drawn: Set<UInt32> = [0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2,
                                  0x110BD, 0x110CD]
        var wrong: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            let expected = (category == .control && value != 0x09 && value != 0x0A)
                || (category == .format && !drawn.contains(value))
            if InvisibleControls.isControl(scalar) != expected { wrong.append(String(value, radix: 16)) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
    }

    @Test func utf8RangesAreBytes() {
        #expect(InvisibleControls.markedUTF8Ranges(in: "plain 日本語").isEmpty)
        #expect(InvisibleControls.markedUTF8Ranges(in: "a\u{202E}b") == [1..<4])
        #expect(InvisibleControls.markedUTF8Ranges(in: "日\u{200B}\u{200B}本\u{E0041}") == [3..<9, 12..<16])
        #expect(InvisibleControls.markedUTF8Ranges(in: "👨‍👩‍👧").isEmpty)
    }

    @Test func cleanedNamesLoseControlsAndLineBreaks() {
        #expect(InvisibleControls.cleaned("tanaka") == ("tanaka", []))
        #expect(InvisibleControls.cleaned("ta\u{200B}na\u{202E}ka") == ("tanaka", ["\u{200B}", "\u{202E}"]))
        #expect(InvisibleControls.cleaned("Tanaka\nHanako") == ("Tanaka Hanako", []))
        #expect(InvisibleControls.cleaned("Tanaka\r\nHanako\tX") == ("Tanaka Hanako X", []))
        #expect(InvisibleControls.cleaned("a\u{2028}b\u{85}c") == ("a b c", []))
        #expect(InvisibleControls.cleaned("Dev 👩🏽‍💻 🏴\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}").removed.isEmpty)
        #expect(InvisibleControls.cleaned("\u{1B}[31mred").text == "[31mred")
    }
}
