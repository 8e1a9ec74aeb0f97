/// One observed change of the committed text.
///
/// Recorded after the fact (the composer never vetoes an edit); later settle steps
/// read these to decide what to do with text that arrived since input last settled.
public struct Edit: Equatable, Sendable {
    /// Position in the log, shared with settle marks, strictly increasing.
    public let sequence: Int
    /// Scalar range replaced, in the text as it was BEFORE this edit.
    public let range: Range<Int>
    public let removed: String
    public let inserted: String
    public let origin: EditOrigin
    /// Number of scalars this edit adds at `range.lowerBound`. Counted once: every settle
    /// step asks, and a 10 MB paste must not be counted over and over.
    public let insertedScalarCount: Int

    public init(sequence: Int, range: Range<Int>, removed: String, inserted: String, origin: EditOrigin) {
        self.sequence = sequence
        self.range = range
        self.removed = removed
        self.inserted = inserted
        self.origin = origin
        insertedScalarCount = inserted.unicodeScalars.count
    }

    public static func == (lhs: Edit, rhs: Edit) -> Bool {
        lhs.sequence == rhs.sequence && lhs.range == rhs.range && lhs.origin == rhs.origin
            && isScalarIdentical(lhs.removed, rhs.removed) && isScalarIdentical(lhs.inserted, rhs.inserted)
    }
}

/// The moment input settled (the idle after an event, or focus-out).
///
/// A settle with no preedit is "quiet": input is complete, so the text may be
/// judged (decide after input settles). A settle during composition is only a checkpoint.
public struct SettleMark: Equatable, Sendable {
    public let sequence: Int
    public let preeditActive: Bool

    public init(sequence: Int, preeditActive: Bool) {
        self.sequence = sequence
        self.preeditActive = preeditActive
    }

    public var isQuiet: Bool { !preeditActive }
}
