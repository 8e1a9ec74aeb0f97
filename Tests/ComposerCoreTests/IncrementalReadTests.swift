@testable import ComposerCore
import PropertyBased
import Testing

// The per-keystroke reads of the settle controllers are short cuts (issue #11: CPU per
// keystroke flat and small): the completion trigger reads back from the caret in small
// steps, the word tests take an ASCII fast path, the highlighter reads scalars straight
// from the rope. Each is checked here against the plain definition it replaced.

/// `CompletionTrigger.word` as it was: the whole bounded window read at once.
private func referenceWord(_ trigger: CompletionTrigger, in document: TextDocument,
                           selection: TextSelection) -> CompletionWord? {
    guard selection.isEmpty, !trigger.prefixes.isEmpty else { return nil }
    let caret = document.clampScalar(selection.caret)
    let longestPrefix = trigger.prefixes.map { $0.prefix.unicodeScalars.count }.max() ?? 1
    let windowStart = max(0, caret - CompletionTrigger.maximumQueryLength - longestPrefix - 1)
    let window = Array(document.substring(scalars: windowStart..<caret).unicodeScalars)
    var queryStart = window.count
    while queryStart > 0, referenceIsWord(window[queryStart - 1]) { queryStart -= 1 }
    let queryLength = window.count - queryStart
    guard queryLength <= CompletionTrigger.maximumQueryLength else { return nil }
    for registered in trigger.prefixes {
        let prefix = Array(registered.prefix.unicodeScalars)
        let prefixStart = queryStart - prefix.count
        guard prefixStart >= 0,
              zip(window[prefixStart..<queryStart], prefix).allSatisfy({ CompletionTrigger.widthFolded($0) == $1 })
        else { continue }
        if prefixStart == 0 {
            guard windowStart == 0 else { continue }
        } else {
            guard referenceMayPrecede(window[prefixStart - 1]) else { continue }
        }
        guard queryLength >= registered.minimumQueryLength else { return nil }
        var query = ""
        query.unicodeScalars.append(contentsOf: window[queryStart...])
        return CompletionWord(prefix: registered.prefix, query: query, source: registered.source,
                              range: (windowStart + prefixStart)..<caret)
    }
    return nil
}

/// The word-scalar definition by general category alone (no ASCII fast path).
private func referenceIsWord(_ scalar: Unicode.Scalar) -> Bool {
    let scalar = CompletionTrigger.widthFolded(scalar)
    if scalar == "_" || scalar == "-" || scalar == "." { return true }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
         .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
        return true
    default:
        return false
    }
}

private func referenceMayPrecede(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.properties.isWhitespace || scalar.properties.isIdeographic { return true }
    // Kana, Hangul and Bopomofo blocks (#17: scripts written without spaces).
    let unspaced: [ClosedRange<UInt32>] = [0x3040...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F,
                                           0x1B000...0x1B16F, 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F,
                                           0xA960...0xA97F, 0xD7B0...0xD7FF, 0xFFA0...0xFFDC, 0x3100...0x312F,
                                           0x31A0...0x31BF]
    if unspaced.contains(where: { $0.contains(scalar.value) }) { return true }
    switch scalar.value {
    case 0xFE00...0xFE0F, 0x200D, 0xE0020...0xE007F: return true
    default: break
    }
    switch scalar.properties.generalCategory {
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
         .initialPunctuation, .finalPunctuation, .otherPunctuation,
         .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
         .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator:
        return true
    default:
        return false
    }
}

/// Pieces that make words of every length around the read steps (16, 64, the 64-scalar
/// query limit), prefixes full-width and not, and what may or may not precede them.
private let pieces = [
    "@", "#", ":", "＠", "＃", "：", "+:", "tanaka", "たなか", "田中", "ｔａｎａ", ".", "_", "-", " ", "\n", "、",
    "mail", "x", "7", "👍", "\u{301}", "\u{FE0F}", "abcdefghijklmnop", "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstu",
]

@Suite("Incremental reads of the settle controllers equal the full definitions")
struct IncrementalReadTests {
    @Test func wordAndPrecedingScalarTestsMatchTheGeneralCategoryDefinition() {
        var scalars: [Unicode.Scalar] = []
        for value in UInt32(0)...0x2FFFF { if let scalar = Unicode.Scalar(value) { scalars.append(scalar) } }
        for value in UInt32(0xE0000)...0xE01EF { if let scalar = Unicode.Scalar(value) { scalars.append(scalar) } }
        let wordMismatches = scalars.filter { CompletionTrigger.isWordScalar($0) != referenceIsWord($0) }
        let precedeMismatches = scalars.filter { CompletionTrigger.mayPrecedePrefix($0) != referenceMayPrecede($0) }
        #expect(wordMismatches.isEmpty, "isWordScalar differs for \(wordMismatches.prefix(10).map { $0.value })")
        #expect(precedeMismatches.isEmpty, "mayPrecedePrefix differs for \(precedeMismatches.prefix(10).map { $0.value })")
    }

    @Test func scalarsInARangeAreTheSubstringsScalars() async {
        await propertyCheck(count: 300, input: Gen.element(of: pieces).map { $0! }.array(of: 0...30).map { $0.joined() },
                            Gen.int(in: -5...200), Gen.int(in: -5...200)) { text, a, b in
            let document = TextDocument(text)
            let range = min(a, b)..<max(a, b)
            #expect(document.scalars(in: range) == Array(document.substring(scalars: range).unicodeScalars))
        }
    }

    @Test func completionWordReadInStepsIsTheWholeWindowsWord() async {
        var trigger = CompletionTrigger.standard
        trigger.register(prefix: "+:", source: "teams", minimumQueryLength: 1)
        let triggers = [CompletionTrigger.standard, trigger]
        await propertyCheck(count: 2000, input: Gen.element(of: pieces).map { $0! }.array(of: 0...12).map { $0.joined() },
                            Gen.int(in: 0...400), Gen.int(in: 0...1)) { text, caretSeed, which in
            let document = TextDocument(text)
            let caret = caretSeed % (document.scalarCount + 1)
            let trigger = triggers[which]
            let selection = TextSelection(caret: caret)
            #expect(trigger.word(in: document, selection: selection)
                    == referenceWord(trigger, in: document, selection: selection),
                    "\(text.debugDescription) caret \(caret)")
        }
    }

    @Test func longWordsAroundTheReadSteps() {
        let trigger = CompletionTrigger.standard
        for length in [0, 1, 14, 15, 16, 17, 62, 63, 64, 65, 66, 70, 200] {
            for before in ["", " ", "x", "、", "@", "mail"] {
                let text = "lead " + before + "@" + String(repeating: "a", count: length)
                let document = TextDocument(text)
                let selection = TextSelection(caret: document.scalarCount)
                #expect(trigger.word(in: document, selection: selection)
                        == referenceWord(trigger, in: document, selection: selection), "\(before)@ + \(length) letters")
            }
        }
    }
}
