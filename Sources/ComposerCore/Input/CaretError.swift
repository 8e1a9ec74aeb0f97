/// Why a caret offset is not acceptable for the current document.
///
/// Used by tests and by the trace checker to say precisely what was wrong, rather
/// than silently clamping a caret that a toolkit put inside a grapheme.
public enum CaretError: Error, Equatable, Sendable, CustomStringConvertible {
    case outOfRange(caret: Int, length: Int)
    case insideGrapheme(caret: Int, graphemeStart: Int, graphemeEnd: Int)

    public var description: String {
        switch self {
        case let .outOfRange(caret, length):
            return "caret \(caret) is outside the text (valid scalar offsets are 0...\(length))"
        case let .insideGrapheme(caret, start, end):
            return "caret \(caret) splits the grapheme at scalars \(start)..<\(end); "
                + "a caret must sit at \(start) or \(end)"
        }
    }
}

extension TextDocument {
    /// Throws unless `scalar` is inside the text and on a grapheme boundary.
    public func validateCaret(_ scalar: Int) throws(CaretError) {
        guard scalar >= 0, scalar <= scalarCount else {
            throw .outOfRange(caret: scalar, length: scalarCount)
        }
        guard isGraphemeBoundary(scalar: scalar) else {
            let bounds = graphemeBounds(aroundScalar: scalar)
            throw .insideGrapheme(caret: scalar, graphemeStart: bounds.start, graphemeEnd: bounds.end)
        }
    }
}
