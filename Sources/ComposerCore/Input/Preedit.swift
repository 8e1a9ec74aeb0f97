/// How an input method asks a span of its uncommitted text to look.
///
/// Cases are `Comparable` by declaration order so that style lists have one
/// canonical order and two segments with the same styles compare equal.
public enum PreeditStyle: String, Sendable, CaseIterable, Comparable {
    case underline
    case doubleUnderline = "double-underline"
    case highlight
    case foreground
    case bold
    case strikethrough

    public static func < (lhs: PreeditStyle, rhs: PreeditStyle) -> Bool {
        lhs.declarationIndex < rhs.declarationIndex
    }

    private var declarationIndex: Int {
        Self.allCases.firstIndex(of: self)!
    }
}

/// A styled span of preedit text, in Unicode scalar offsets into `Preedit.text`.
public struct PreeditSegment: Equatable, Sendable {
    public var start: Int
    public var end: Int
    /// Sorted and without duplicates, so equal styling means equal arrays.
    public var styles: [PreeditStyle]

    /// Normalises `styles` (sorted, unique) so callers cannot build two unequal
    /// values that describe the same styling.
    public init(start: Int, end: Int, styles: [PreeditStyle]) {
        self.start = start
        self.end = end
        self.styles = Array(Set(styles)).sorted()
    }
}

/// The input method's uncommitted (marked) text.
///
/// It is never part of the committed text: the composer acts only on committed text, and
/// the preedit is only displayed and traced.
public struct Preedit: Equatable, Sendable {
    public var text: String
    /// Caret inside the preedit, in Unicode scalars.
    public var cursor: Int
    public var segments: [PreeditSegment]

    public init(text: String, cursor: Int, segments: [PreeditSegment]) {
        self.text = text
        self.cursor = cursor
        self.segments = segments
    }

    /// Scalar-exact, so a change of normalisation is a change (see `isScalarIdentical`).
    public static func == (lhs: Preedit, rhs: Preedit) -> Bool {
        isScalarIdentical(lhs.text, rhs.text) && lhs.cursor == rhs.cursor && lhs.segments == rhs.segments
    }

    /// What a preedit looks like right after `preedit-start`, before any text.
    public static let empty = Preedit(text: "", cursor: 0, segments: [])
}
