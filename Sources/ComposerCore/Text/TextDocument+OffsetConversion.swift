import _RopeModule

// Offset conversions between the units the composer meets.
//
// Every function here walks the rope's index, never a materialised String, so each
// call is O(log n). (A test reads this file to keep it that way.)
// Out-of-range inputs are clamped to the document.
extension TextDocument {
    /// Number of complete graphemes before the scalar offset; rounds down inside a grapheme.
    public func graphemeOffset(ofScalar scalar: Int) -> Int {
        storage.distance(from: storage.startIndex, to: scalarIndex(scalar))
    }

    /// Scalar offset where grapheme number `grapheme` starts (clamped).
    public func scalarOffset(ofGrapheme grapheme: Int) -> Int {
        let clamped = min(max(grapheme, 0), graphemeCount)
        let index = storage.index(storage.startIndex, offsetBy: clamped)
        return storage.unicodeScalars.distance(from: storage.startIndex, to: index)
    }

    public func utf16Offset(ofScalar scalar: Int) -> Int {
        storage.utf16.distance(from: storage.startIndex, to: scalarIndex(scalar))
    }

    /// Scalar offset of a UTF-16 offset; inside a surrogate pair it rounds down.
    public func scalarOffset(ofUTF16 utf16: Int) -> Int {
        let clamped = min(max(utf16, 0), utf16Count)
        let index = storage.utf16.index(storage.startIndex, offsetBy: clamped)
        return scalarDistance(toRoundingDown: index)
    }

    public func utf8Offset(ofScalar scalar: Int) -> Int {
        scalarIndex(scalar).utf8Offset
    }

    /// Scalar offset of a UTF-8 byte offset; inside a multibyte scalar it rounds down.
    public func scalarOffset(ofUTF8 utf8: Int) -> Int {
        let clamped = min(max(utf8, 0), utf8Count)
        let index = storage.utf8.index(storage.startIndex, offsetBy: clamped)
        return scalarDistance(toRoundingDown: index)
    }

    /// Whether a caret may sit at this scalar offset without splitting a grapheme.
    /// Offsets outside `0...scalarCount` are not boundaries.
    public func isGraphemeBoundary(scalar: Int) -> Bool {
        guard scalar >= 0, scalar <= scalarCount else { return false }
        let index = scalarIndex(scalar)
        return storage.index(roundingDown: index) == index
    }

    /// The scalar offsets of the grapheme around `scalar`: equal bounds on a boundary.
    func graphemeBounds(aroundScalar scalar: Int) -> (start: Int, end: Int) {
        let index = scalarIndex(scalar)
        let start = storage.index(roundingDown: index)
        let end = storage.index(roundingUp: index)
        return (
            storage.unicodeScalars.distance(from: storage.startIndex, to: start),
            storage.unicodeScalars.distance(from: storage.startIndex, to: end)
        )
    }

    private func scalarDistance(toRoundingDown index: BigString.Index) -> Int {
        let scalarAligned = storage.unicodeScalars.index(roundingDown: index)
        return storage.unicodeScalars.distance(from: storage.startIndex, to: scalarAligned)
    }
}
