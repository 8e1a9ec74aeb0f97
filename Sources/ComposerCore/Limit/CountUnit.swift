/// What the length limit counts.
///
/// Users count graphemes (👨‍👩‍👧, 🇯🇵, e + U+0301, 간 and C + U+030C are one each); some
/// back ends count Unicode scalars or UTF-16 code units (a JavaScript or Java server). The
/// default is what a person calls a character.
public enum CountUnit: String, Sendable, CaseIterable {
    case graphemes
    case scalars
    case utf16
}

extension TextDocument {
    /// The length of the whole text in `unit`. O(1) on the rope.
    public func count(in unit: CountUnit) -> Int {
        switch unit {
        case .graphemes: return graphemeCount
        case .scalars: return scalarCount
        case .utf16: return utf16Count
        }
    }

    /// The length of `scalars` (clamped) in `unit`: O(log n). Exact for graphemes when both
    /// ends are grapheme boundaries (the only ranges the limit cuts).
    public func count(in unit: CountUnit, scalars: Range<Int>) -> Int {
        let range = clampedScalarRange(scalars)
        switch unit {
        case .scalars: return range.count
        case .utf16: return utf16Offset(ofScalar: range.upperBound) - utf16Offset(ofScalar: range.lowerBound)
        case .graphemes:
            return graphemeOffset(ofScalar: range.upperBound) - graphemeOffset(ofScalar: range.lowerBound)
        }
    }

    /// The scalar offset of the last grapheme boundary at which the text before it is at
    /// most `limit` units long: everything after it is the overflow. Never inside a
    /// grapheme, whatever the unit (a flag is coloured whole, never half).
    public func limitBoundary(_ limit: Int, in unit: CountUnit) -> Int {
        let limit = max(0, limit)
        guard count(in: unit) > limit else { return scalarCount }
        let scalar: Int
        switch unit {
        case .graphemes: return scalarOffset(ofGrapheme: limit)
        case .scalars: scalar = limit
        case .utf16:
            // A limit in the middle of a surrogate pair leaves that scalar out.
            let rounded = scalarOffset(ofUTF16: limit)
            scalar = utf16Offset(ofScalar: rounded) > limit ? rounded - 1 : rounded
        }
        return scalarOffset(ofGrapheme: graphemeOffset(ofScalar: scalar))
    }

    /// Whether the text is only whitespace and newlines (scalars with Unicode's
    /// White_Space property: a mark on a space is something to see, not blank). Stops at the
    /// first other scalar, so a real message costs nothing however long it is.
    public var isBlank: Bool {
        storage.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }
}
