/// What the full scan knows of a candidate without reading its text, enough to skip most
/// candidates of a scattered query once the results are full, and where its text is, so
/// that scoring it reads nothing else. 32 bytes: two per cache line.
///
/// A contiguous match needs every adjacent pair of query characters adjacent in some key
/// (`hasPair`). A scattered match scores at most `FuzzyScore.scatteredBase` plus, per query
/// character (by the rule in `FuzzyMatcher`'s documentation and the values in `FuzzyScore`):
/// - the first: +`wordStart` if it starts a word somewhere (`initials`), else −`lateStart`
///   (it cannot be at a key's start either), 0 for a separator;
/// - after a separator: +`wordStart` if it starts a word somewhere, else 0;
/// - otherwise: `wordStart` − `nextWordGap` if it starts a word somewhere (reaching a later
///   word's start from a letter skips the separator before it), else 0 if the pair with the
///   previous character is adjacent somewhere, else −`vowelGap` (the cheapest gap).
struct CandidateSummary {
    /// Mask bits (`FuzzyMatcher.maskBit`) of the characters that start a word of any key.
    var initials: UInt64 = 0
    /// A 128-bit hashed set of the adjacent character pairs in each key: 64 bits would
    /// be half full with the ~40 pairs of a person's four keys.
    var pairsLow: UInt64 = 0
    var pairsHigh: UInt64 = 0
    /// The candidate's keys in the matcher's buffer: each ends with a 0.
    var textStart: UInt32 = 0
    var textEnd: UInt32 = 0

    /// Where the pair's bit is: 0…63 in `pairsLow`, 64…127 in `pairsHigh`.
    @inline(__always)
    static func pairIndex(_ first: UInt32, _ second: UInt32) -> UInt32 {
        let hash = (first &* 0x9E37_79B1) ^ (second &* 0x85EB_CA77)
        return ((hash ^ (hash >> 15)) &* 0x2C1B_3C6D) >> 25
    }

    mutating func addPair(_ first: UInt32, _ second: UInt32) {
        let index = Self.pairIndex(first, second)
        if index < 64 { pairsLow |= 1 << UInt64(index) } else { pairsHigh |= 1 << UInt64(index - 64) }
    }

    /// False only when the pair (by `pairIndex`) is adjacent in none of the keys.
    @inline(__always)
    func hasPair(index: UInt32) -> Bool {
        (index < 64 ? pairsLow >> UInt64(index) : pairsHigh >> UInt64(index - 64)) & 1 != 0
    }
}
