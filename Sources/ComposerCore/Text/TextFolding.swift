import Foundation

/// Folds text so that what a user types matches what the data says, whichever way it
/// was typed: completion matches folded queries against folded keys.
///
/// Per scalar, in this order:
/// - **Width**: full-width ASCII (`ｔａｎａ`, `＠`) becomes ASCII; half-width katakana
///   (`ﾀﾅ`, `ｶﾞ`) becomes full-width; the ideographic space is a space.
/// - **Kana**: katakana becomes hiragana (`タナ` → `たな`), so the two match each other;
///   a combining or half-width (semi-)voiced mark joins the kana before it (`か゛` → `が`),
///   so voicing is kept: `か` and `が` stay different.
/// - **Case**: lowercase (any script with case).
/// - **Latin diacritics**: Latin letters lose their marks (`Č` → `c`, `ř` → `r`, `é` → `e`,
///   `ß` → `ss`, `ł` → `l`); a combining mark after a letter (decomposed input, `c` + U+030C)
///   is dropped (any combining mark from U+0300–U+036F). Precomposed letters of other
///   scripts keep their marks (Cyrillic `й` is not `и`).
/// - **Hangul**: syllables are split into conjoining jamo (`김` → ᄀ ᅵ ᆷ), so a query whose
///   last syllable is still incomplete matches (`김미` finds `김민준`); compatibility jamo
///   (`ㄱ`, what an input method commits for a lone consonant) become conjoining jamo.
/// - **Separators**: whitespace and punctuation (`.`, `_`, `-`, `・`, …) all become one
///   separator, a space, so `tanaka.ma` matches `tanaka mayumi` and `cat_f` matches `cat face`.
///
/// Every folded scalar remembers the scalar range of the original it came from
/// (`FoldedText.sources`), so a match found in folded text can be highlighted in the original.
public enum TextFolding {
    /// What every separator folds to.
    public static let separator: UInt32 = 0x20

    /// The folded scalars of `text` (the fast path, without the mapping back).
    public static func foldedScalars(_ text: String) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(text.utf8.count)
        fold(text) { value, _, _ in result.append(value) }
        return result
    }

    /// The folded text as a String (for tests and diagnostics).
    public static func fold(_ text: String) -> String {
        var result = ""
        for value in foldedScalars(text) {
            if let scalar = Unicode.Scalar(value) { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// The folded text with, for each folded scalar, the original scalars it came from.
    public static func foldWithSources(_ text: String) -> FoldedText {
        var scalars: [UInt32] = []
        var sources: [Range<Int>] = []
        fold(text) { value, start, end in
            scalars.append(value)
            sources.append(start..<end)
        }
        return FoldedText(scalars: scalars, sources: sources, originalCount: text.unicodeScalars.count)
    }

    /// Folds `text`, calling `emit(folded, sourceStart, sourceEnd)` for each folded scalar.
    /// The last folded scalar is held back until the next one arrives, so that a following
    /// mark can still join it (and extend its source range).
    static func fold(_ text: String, _ emit: (UInt32, Int, Int) -> Void) {
        // One pending folded scalar, so a following mark can still change or extend it.
        var pending: (value: UInt32, start: Int, end: Int)?
        var offset = 0
        func flush() {
            if let item = pending { emit(item.value, item.start, item.end) }
            pending = nil
        }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            defer { offset += 1 }
            if value < 0x80 {
                flush()
                pending = (asciiFold[Int(value)], offset, offset + 1)
                continue
            }
            switch classify(value) {
            case .single(let folded):
                flush()
                pending = (folded, offset, offset + 1)
            case .many(let folded):
                flush()
                for item in folded.dropLast() { emit(item, offset, offset + 1) }
                if let last = folded.last { pending = (last, offset, offset + 1) }
            case .voicing(let mark):
                // Joins the kana before it when they compose; else a standalone mark, dropped.
                if let item = pending, let composed = composeVoicing(item.value, mark) {
                    pending = (composed, item.start, offset + 1)
                } else if let item = pending {
                    pending = (item.value, item.start, offset + 1)
                }
            case .dropMark:
                if let item = pending {
                    pending = (item.value, item.start, offset + 1)
                }
            }
        }
        flush()
    }

    enum Fold {
        case single(UInt32)
        case many([UInt32])
        /// A (semi-)voiced sound mark: 0x3099 or 0x309A.
        case voicing(UInt32)
        /// A combining mark folded away (merges into the scalar before it).
        case dropMark
    }

    static func classify(_ value: UInt32) -> Fold {
        switch value {
        case 0xFF01...0xFF5E:  // full-width ASCII
            return .single(asciiFold[Int(value - 0xFEE0)])
        case 0x3000:
            return .single(separator)
        case 0x30A1...0x30F6, 0x30FD, 0x30FE:  // katakana → hiragana (ヽヾ → ゝゞ)
            return .single(value - 0x60)
        case 0x3099, 0x309A:
            return .voicing(value)
        case 0xFF9E:
            return .voicing(0x3099)
        case 0xFF9F:
            return .voicing(0x309A)
        case 0xAC00...0xD7A3:
            return .many(hangulJamo(value))
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x3041...0x3096:  // ideographs, hiragana: as is
            return .single(value)
        default:
            if let folded = table[value] { return folded }
            return generic(value)
        }
    }

    /// Anything not in the tables: punctuation and spaces are separators, combining marks
    /// after Latin are handled by the table (this keeps other scripts' marks), case is folded.
    static func generic(_ value: UInt32) -> Fold {
        guard let scalar = Unicode.Scalar(value) else { return .single(value) }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return .single(separator)
        default:
            break
        }
        if properties.changesWhenLowercased {
            let lower = properties.lowercaseMapping.unicodeScalars.map(\.value)
            return lower.count == 1 ? .single(lower[0]) : .many(lower)
        }
        return .single(value)
    }

    /// ASCII: letters lowercased, digits and symbols as is, punctuation and controls → separator.
    static let asciiFold: [UInt32] = (0..<128).map { value -> UInt32 in
        let scalar = Unicode.Scalar(UInt8(value))
        if (0x41...0x5A).contains(value) { return UInt32(value + 0x20) }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .decimalNumber, .mathSymbol, .currencySymbol,
             .modifierSymbol, .otherSymbol:
            return UInt32(value)
        default:
            return separator
        }
    }

    /// Folds that need Unicode data, computed once: Latin letters with diacritics, Latin
    /// combining marks, half-width katakana and compatibility jamo.
    static let table: [UInt32: Fold] = {
        var table: [UInt32: Fold] = [:]
        let special: [UInt32: String] = [
            0xDF: "ss", 0x1E9E: "ss", 0xC6: "ae", 0xE6: "ae", 0x152: "oe", 0x153: "oe",
            0xD8: "o", 0xF8: "o", 0x110: "d", 0x111: "d", 0xD0: "d", 0xF0: "d", 0x141: "l", 0x142: "l",
            0x131: "i", 0xDE: "th", 0xFE: "th", 0x126: "h", 0x127: "h", 0x166: "t", 0x167: "t",
        ]
        let latinRanges: [ClosedRange<UInt32>] = [0xC0...0x24F, 0x1E00...0x1EFF]
        for range in latinRanges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let base: String
                if let replacement = special[value] {
                    base = replacement
                } else {
                    let decomposed = String(scalar).decomposedStringWithCanonicalMapping
                    base = String(String.UnicodeScalarView(decomposed.unicodeScalars.filter {
                        $0.properties.canonicalCombiningClass == .notReordered
                    }))
                }
                let folded = base.lowercased().unicodeScalars.map(\.value)
                if folded.count == 1 {
                    table[value] = .single(folded[0])
                } else if !folded.isEmpty {
                    table[value] = .many(folded)
                }
            }
        }
        // Combining diacritical marks (decomposed Latin input): dropped.
        for value in UInt32(0x300)...0x36F { table[value] = .dropMark }
        // Half-width katakana and punctuation → full-width, then folded again.
        for value in UInt32(0xFF61)...0xFF9D {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let wide = String(scalar).precomposedStringWithCompatibilityMapping.unicodeScalars.map(\.value)
            guard wide.count == 1 else { continue }
            table[value] = classifyWide(wide[0])
        }
        // Compatibility jamo (ㄱ ㅏ) → conjoining jamo (ᄀ ᅡ): the first compatibility mapping.
        for value in UInt32(0x3131)...0x318E {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let jamo = String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars.map(\.value)
            if jamo.count == 1 { table[value] = .single(jamo[0]) }
        }
        return table
    }()

    private static func classifyWide(_ value: UInt32) -> Fold {
        switch value {
        case 0x30A1...0x30F6: return .single(value - 0x60)
        case 0x3099, 0x309A: return .voicing(value)
        default: return generic(value)
        }
    }

    /// か + ゛ → が, は + ゜ → ぱ (hiragana only: katakana was already folded to hiragana).
    static func composeVoicing(_ base: UInt32, _ mark: UInt32) -> UInt32? {
        voicingTable[base &* 4 &+ (mark - 0x3099)]
    }

    private static let voicingTable: [UInt32: UInt32] = {
        var table: [UInt32: UInt32] = [:]
        for base in UInt32(0x3041)...0x309F {
            for mark in [UInt32(0x3099), 0x309A] {
                guard let baseScalar = Unicode.Scalar(base), let markScalar = Unicode.Scalar(mark) else { continue }
                var pair = ""
                pair.unicodeScalars.append(baseScalar)
                pair.unicodeScalars.append(markScalar)
                let composed = pair.precomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)
                if composed.count == 1 { table[base &* 4 &+ (mark - 0x3099)] = composed[0] }
            }
        }
        return table
    }()

    /// Hangul syllable → leading consonant, vowel, optional trailing consonant (conjoining jamo).
    static func hangulJamo(_ value: UInt32) -> [UInt32] {
        let index = value - 0xAC00
        let lead = 0x1100 + index / 588
        let vowel = 0x1161 + (index % 588) / 28
        let trail = index % 28
        return trail == 0 ? [lead, vowel] : [lead, vowel, 0x11A7 + trail]
    }
}

/// Folded text with the original scalar range of every folded scalar.
public struct FoldedText: Equatable, Sendable {
    public let scalars: [UInt32]
    /// `sources[i]`: the original scalars that folded scalar `i` came from. Several folded
    /// scalars may share one source (`ß` → `ss`, a Hangul syllable → its jamo); one folded
    /// scalar may cover several (`c` + U+030C → `c`).
    public let sources: [Range<Int>]
    public let originalCount: Int

    /// The original scalar range covering the folded range (clamped).
    public func originalRange(ofFolded range: Range<Int>) -> Range<Int> {
        let lower = max(0, min(range.lowerBound, scalars.count))
        let upper = max(lower, min(range.upperBound, scalars.count))
        guard lower < upper else {
            let at = lower < sources.count ? sources[lower].lowerBound : originalCount
            return at..<at
        }
        return sources[lower].lowerBound..<sources[upper - 1].upperBound
    }

    /// Original scalar ranges of folded ranges, merged where they touch or overlap.
    public func originalRanges(ofFolded ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.map(originalRange(ofFolded:)).sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
