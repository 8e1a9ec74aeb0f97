@testable import ComposerCore
import PropertyBased
import Testing

@Suite("CompletionTrigger: the prefixed word at the caret, in every script")
struct CompletionTriggerTests {
    let trigger = CompletionTrigger.standard

    func word(_ text: String, caret: Int? = nil) -> CompletionWord? {
        trigger.word(in: text, caret: caret ?? text.unicodeScalars.count)
    }

    @Test func findsPrefixQueryAndRange() throws {
        let mention = try #require(word("hi @tana"))
        #expect(mention == CompletionWord(prefix: "@", query: "tana", source: "people", range: 3..<8))
        #expect(word("@")?.query == "")  // a bare @ opens the people list
        #expect(word("#gen")?.source == "channels")
        #expect(word("#")?.range == 0..<1)
    }

    @Test(arguments: [
        ("@たなか", "たなか"),           // hiragana
        ("@タナカ", "タナカ"),           // katakana
        ("@ﾀﾅｶ", "ﾀﾅｶ"),               // half-width katakana
        ("@田中", "田中"),              // kanji
        ("@김민준", "김민준"),           // Hangul
        ("@Jiří", "Jiří"),            // Czech, precomposed
        ("@C\u{30C}eněk", "C\u{30C}eněk"),  // Czech, decomposed (combining caron)
        ("@tanaka.mayumi", "tanaka.mayumi"),
        ("@snake_case-name", "snake_case-name"),
        ("@ｔａｎａ", "ｔａｎａ"),        // full-width Latin
        ("@ラーメン々", "ラーメン々"),     // prolonged sound mark, iteration mark
        ("@user42", "user42"),
    ])
    func wordCharactersOfEveryScript(text: String, query: String) throws {
        let found = try #require(word(text), "\(text)")
        #expect(found.query == query)
        #expect(found.range == 0..<text.unicodeScalars.count)
    }

    @Test(arguments: ["こんにちは @たな", "(@tana", "「@たな", "hi,@tana", "\n@tana", "🐱@tana", "❤️@tana", "x.@tana", "\u{3000}@たな"])
    func prefixAfterWhitespacePunctuationOrSymbol(text: String) {
        #expect(word(text)?.query.isEmpty == false, "\(text)")
    }

    @Test(arguments: ["mail@host", "Jiří@x", "a1@x", "１２@x", "tanaka", "@tana ", "@ta na", "@tana!", "ab#1"])
    func noWordMidWordOrAfterTheWordEnded(text: String) {
        #expect(word(text) == nil, "\(text)")
    }

    /// Japanese, Chinese and Korean put no space between words (#17): a kanji, kana, Hangul
    /// or Bopomofo right before the prefix is a boundary; Latin letters and digits are not.
    @Test(arguments: [("お疲れ様です@tana", "tana"), ("田中さん@tanaka", "tanaka"), ("田中@たな", "たな"),
                      ("김@x", "x"), ("안녕하세요#일반", "일반"), ("你好@wang", "wang"), ("ㄋㄧ@li", "li"),
                      ("ｶﾀｶﾅ@x", "x"), ("猫です:ne", "ne")])
    func prefixRightAfterAScriptWrittenWithoutSpaces(text: String, query: String) throws {
        let found = try #require(word(text), "\(text)")
        #expect(found.query == query)
        #expect(found.range.upperBound == text.unicodeScalars.count)
    }

    @Test func fullWidthPrefixesAsJapaneseInputMethodsCommitThem() throws {
        let found = try #require(word("＠たなか"))
        #expect(found.prefix == "@" && found.query == "たなか" && found.range == 0..<4)
        #expect(word("＃開発")?.source == "channels")
        #expect(word("：ねこ")?.source == "emoji")
    }

    @Test func emojiFromTheSecondCharacter() {
        #expect(word(":") == nil)
        #expect(word(":c") == nil)
        #expect(word(":ca")?.query == "ca")
        #expect(word("10:30") == nil)
        #expect(word("note: ok") == nil)
        #expect(word(":ねこ")?.source == "emoji")
    }

    @Test func theWordEndsAtTheCaretAndNeedsAnEmptySelection() {
        #expect(word("@tanaka", caret: 3) == CompletionWord(prefix: "@", query: "ta", source: "people", range: 0..<3))
        #expect(word("say @tanaka now", caret: 11)?.query == "tanaka")
        #expect(word("@tanaka", caret: 0) == nil)
        let document = TextDocument("@tanaka")
        #expect(trigger.word(in: document, selection: TextSelection(anchor: 1, caret: 7)) == nil)
        #expect(trigger.word(in: document, selection: TextSelection(caret: 7)) != nil)
    }

    @Test func boundedLookBehind() {
        let long = String(repeating: "a", count: CompletionTrigger.maximumQueryLength)
        #expect(word("@" + long)?.query == long)
        #expect(word("@" + long + "a") == nil)
        #expect(word("x @" + long)?.range == 2..<(3 + CompletionTrigger.maximumQueryLength))
        // A huge document: only the window before the caret is read.
        let big = String(repeating: "lorem ipsum ", count: 20_000) + "@tana"
        #expect(word(big)?.range.count == 5)
    }

    @Test func configuredPrefixes() {
        var trigger = CompletionTrigger.standard
        let registered = [
            trigger.register(prefix: "+", source: "teams"),
            trigger.register(prefix: "+:", source: "reactions", minimumQueryLength: 1),
            trigger.register(prefix: "x", source: "bad"),  // a word character
            trigger.register(prefix: "", source: "bad"),
        ]
        #expect(registered == [true, true, false, false])
        #expect(trigger.word(in: "ping +design", caret: 12)?.source == "teams")
        #expect(trigger.word(in: "+:ok", caret: 4) == CompletionWord(prefix: "+:", query: "ok", source: "reactions", range: 0..<4))
        #expect(trigger.word(in: "+:", caret: 2) == nil)  // minimum length of the longer prefix
    }

    /// Wherever the caret is in random text, a found word really is prefix + word
    /// characters up to the caret, and the prefix starts the text or follows a non-word.
    @Test func foundWordsAreWellFormed() async {
        let pieces = ["@", "#", ":", "a", "た", "김", " ", ".", "-", "\u{30C}", "！", "＠", "🐱", "\n"]
        let text = Gen.element(of: pieces).map { $0! }.array(of: 0...20).map { $0.joined() }
        await propertyCheck(count: 300, input: text, Gen.int(in: 0...40)) { text, caretSeed in
            let scalars = Array(text.unicodeScalars)
            let caret = caretSeed % (scalars.count + 1)
            guard let found = word(text, caret: caret) else { return }
            #expect(found.range.upperBound == caret)
            let prefixLength = found.range.count - found.query.unicodeScalars.count
            #expect(prefixLength == found.prefix.unicodeScalars.count)
            #expect(found.query.unicodeScalars.allSatisfy(CompletionTrigger.isWordScalar))
            if found.range.lowerBound > 0 {
                let before = scalars[found.range.lowerBound - 1]
                #expect(!CompletionTrigger.isWordScalar(before) || "._-".unicodeScalars.contains(before)
                        || CompletionTrigger.isUnspacedScript(before))
            }
        }
    }
}
