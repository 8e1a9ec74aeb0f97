import _RopeModule

/// The committed text of the composer (never the preedit).
///
/// Backed by `BigString`, a rope that keeps per-node counts of characters, scalars,
/// UTF-16 and UTF-8 units. GTK speaks in characters (scalars) and Pango in bytes,
/// the trace in scalars, and users in graphemes; with a rope every conversion
/// between them is O(log n), so a settle on a large draft stays cheap.
///
/// All offsets taken by this type are clamped to the document: the composer
/// observes edits from a toolkit and must never crash on an odd offset.
public struct TextDocument: Sendable, Equatable {
    var storage: BigString

    public init(_ string: String = "") {
        storage = BigString(string)
    }

    /// The whole text as a `String`. O(n): for snapshots, not for conversions.
    public var string: String { String(storage) }

    public var scalarCount: Int { storage.unicodeScalars.count }
    public var graphemeCount: Int { storage.count }
    public var utf16Count: Int { storage.utf16.count }
    public var utf8Count: Int { storage.utf8.count }
    public var isEmpty: Bool { storage.isEmpty }

    /// The text between two scalar offsets (clamped).
    public func substring(scalars: Range<Int>) -> String {
        let range = clampedScalarRange(scalars)
        let indices = scalarIndex(range.lowerBound)..<scalarIndex(range.upperBound)
        return String(storage.unicodeScalars[indices])
    }

    /// The scalars between two scalar offsets (clamped), straight from the rope: for
    /// settle steps that read a small window around the caret or an edit on every settle.
    public func scalars(in scalars: Range<Int>) -> [Unicode.Scalar] {
        // Through a String: copying the slice out is much cheaper than iterating the rope's
        // scalar view index by index (callgrind: ~5× fewer instructions for 200 scalars).
        // The count is known, so the array is filled in one pass (no counting walk first).
        let range = clampedScalarRange(scalars)
        let string = substring(scalars: range)
        return [Unicode.Scalar](unsafeUninitializedCapacity: range.count) { buffer, initialized in
            initialized = 0
            for scalar in string.unicodeScalars where initialized < buffer.count {
                (buffer.baseAddress! + initialized).initialize(to: scalar)
                initialized += 1
            }
        }
    }

    /// Replaces the scalars in `scalars` (clamped) with `replacement`.
    ///
    /// Works on the scalar view, so an edit may split or join graphemes (a lone
    /// U+030C after "C" becomes "Č"); the rope re-derives grapheme breaks around it.
    public mutating func replace(scalars: Range<Int>, with replacement: String) {
        let range = clampedScalarRange(scalars)
        // One walk down the rope for an insertion (every keystroke), two for a replacement.
        let lower = scalarIndex(range.lowerBound)
        let upper = range.isEmpty ? lower : scalarIndex(range.upperBound)
        storage.unicodeScalars.replaceSubrange(lower..<upper, with: replacement.unicodeScalars)
    }

    /// Scalar-exact equality. `BigString` and `String` compare by canonical
    /// equivalence ("é" == "e\u{301}"), but those differ in scalar count, so offsets
    /// valid in one are wrong in the other: the composer must see them as different.
    public static func == (lhs: TextDocument, rhs: TextDocument) -> Bool {
        lhs.storage.unicodeScalars == rhs.storage.unicodeScalars
    }

    /// Clamps a scalar offset into `0...scalarCount`.
    public func clampScalar(_ offset: Int) -> Int {
        min(max(offset, 0), scalarCount)
    }

    /// Clamps both bounds of a scalar range into the document.
    public func clampedScalarRange(_ range: Range<Int>) -> Range<Int> {
        clampScalar(range.lowerBound)..<clampScalar(range.upperBound)
    }

    func scalarIndex(_ offset: Int) -> BigString.Index {
        storage.unicodeScalars.index(storage.startIndex, offsetBy: clampScalar(offset))
    }
}
