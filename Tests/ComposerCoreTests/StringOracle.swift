/// Naive O(n) answers to every `TextDocument` question, straight from `String`.
/// The property tests compare the rope-backed document against this.
struct StringOracle {
    let scalars: [Unicode.Scalar]
    /// Scalar offsets where graphemes start, plus the end offset.
    let graphemeBoundaries: [Int]

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var boundaries = [0]
        for character in text {
            boundaries.append(boundaries.last! + character.unicodeScalars.count)
        }
        graphemeBoundaries = boundaries
    }

    var graphemeCount: Int { graphemeBoundaries.count - 1 }

    func graphemeOffset(ofScalar scalar: Int) -> Int {
        graphemeBoundaries.dropFirst().filter { $0 <= scalar }.count
    }

    func scalarOffset(ofGrapheme grapheme: Int) -> Int { graphemeBoundaries[grapheme] }

    func utf16Offset(ofScalar scalar: Int) -> Int {
        scalars[..<scalar].reduce(0) { $0 + UTF16.width($1) }
    }

    func utf8Offset(ofScalar scalar: Int) -> Int {
        scalars[..<scalar].reduce(0) { $0 + UTF8.width($1) }
    }

    /// Number of scalars that end at or before `unit` (rounds down inside a scalar).
    func scalarOffset(ofUnit unit: Int, width: (Unicode.Scalar) -> Int) -> Int {
        var end = 0
        var count = 0
        for scalar in scalars {
            end += width(scalar)
            if end > unit { break }
            count += 1
        }
        return count
    }

    func isGraphemeBoundary(_ scalar: Int) -> Bool { graphemeBoundaries.contains(scalar) }
}
