/// Scalar-exact string comparison.
///
/// Swift's `String ==` uses canonical equivalence, so "é" (U+00E9) equals "e\u{301}".
/// For an editor those are different texts with different offsets; value types that
/// carry text use this for their `Equatable` conformance.
func isScalarIdentical(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.elementsEqual(rhs.utf8)
}
