import ComposerCore
import Testing

@Suite("TextFolding: kana, width, case, diacritics, with a map back to the original")
struct TextFoldingTests {
    @Test func katakanaAndHiraganaFoldTogether() {
        #expect(TextFolding.fold("タナカ") == "たなか")
        #expect(TextFolding.fold("たなか") == "たなか")
        #expect(TextFolding.fold("ガッコウ") == "がっこう")
        #expect(TextFolding.fold("ヽヾ") == "ゝゞ")
        #expect(TextFolding.fold("ラーメン") == "らーめん")  // the long vowel mark stays
    }

    @Test func voicingIsKeptAndJoined() {
        #expect(TextFolding.fold("か") != TextFolding.fold("が"))
        #expect(TextFolding.fold("か\u{3099}") == "が")  // combining dakuten joins
        #expect(TextFolding.fold("ハ\u{309A}") == "ぱ")
        #expect(TextFolding.fold("ｶﾞｯｺｳ") == "がっこう")  // half-width with its own voiced mark
        #expect(TextFolding.fold("ﾀﾅｶ") == "たなか")
    }

    @Test func widthIsFolded() {
        #expect(TextFolding.fold("ｔａｎａ") == "tana")
        #expect(TextFolding.fold("ＴＡＮＡＫＡ１２") == "tanaka12")
        #expect(TextFolding.fold("田中\u{3000}太郎") == "田中 太郎")
    }

    @Test func caseIsFolded() {
        #expect(TextFolding.fold("Emma SMITH") == "emma smith")
        #expect(TextFolding.fold("ΣΟΦΊΑ") == "σοφία")  // other scripts: case only
        #expect(TextFolding.fold("ЙОД") == "йод")  // Cyrillic keeps its breve
    }

    @Test func latinDiacriticsAreFolded() {
        #expect(TextFolding.fold("Jiří Novák") == "jiri novak")
        #expect(TextFolding.fold("Čeština") == "cestina")
        #expect(TextFolding.fold("Ondřej Štěpánek") == "ondrej stepanek")
        #expect(TextFolding.fold("C\u{30C}eština") == "cestina")  // decomposed input
        #expect(TextFolding.fold("Straße") == "strasse")
        #expect(TextFolding.fold("Łódź") == "lodz")
        #expect(TextFolding.fold("Ｃ\u{30C}") == "c")  // full-width base with a combining caron
    }

    @Test func separatorsAreOneSpace() {
        #expect(TextFolding.fold("tanaka.mayumi") == "tanaka mayumi")
        #expect(TextFolding.fold("cat_face") == "cat face")
        #expect(TextFolding.fold("off-topic") == "off topic")
        #expect(TextFolding.fold("ジョン・スミス") == "じょん すみす")
        #expect(TextFolding.fold("+1") == "+1")  // symbols are kept
    }

    @Test func hangulSplitsIntoJamo() {
        let kim = TextFolding.foldedScalars("김")
        #expect(kim == [0x1100, 0x1175, 0x11B7])
        #expect(TextFolding.foldedScalars("김민준").starts(with: TextFolding.foldedScalars("김미")))
        #expect(TextFolding.foldedScalars("ㄱ") == [0x1100])  // compatibility jamo
    }

    @Test func sourcesMapFoldedRangesBackToTheOriginal() {
        // "C" + caron (2 scalars) → "c": the folded scalar covers both.
        let czech = TextFolding.foldWithSources("C\u{30C}eská")
        #expect(czech.scalars.count == 5)
        #expect(czech.originalRange(ofFolded: 0..<1) == 0..<2)
        #expect(czech.originalRange(ofFolded: 1..<5) == 2..<6)
        // ß → ss: both halves come from the one scalar.
        let strasse = TextFolding.foldWithSources("Straße")
        #expect(strasse.originalRange(ofFolded: 4..<5) == 4..<5)
        #expect(strasse.originalRange(ofFolded: 4..<6) == 4..<5)
        // Hangul: three jamo per syllable.
        let name = TextFolding.foldWithSources("김민준")
        #expect(name.originalRange(ofFolded: 0..<5) == 0..<2)
        // Half-width kana with a voiced mark: 2 scalars → 1.
        let school = TextFolding.foldWithSources("ｶﾞｯｺｳ")
        #expect(school.originalRange(ofFolded: 0..<1) == 0..<2)
        #expect(school.originalRanges(ofFolded: [0..<1, 1..<2, 3..<4]) == [0..<3, 4..<5])
    }
}
