/// The scores `FuzzyMatcher` ranks by, each named once (the table in `FuzzyMatcher`'s
/// documentation shows them together). Higher is better.
///
/// The contiguous tiers (the query occurs as a whole in a key) run from `wholeKey` down to
/// `insideWord`; a scattered match (the query's characters in order, with gaps) scores
/// `scatteredBase` plus its adjustments, clamped to `scatteredRange`, so it always ranks
/// below every contiguous one. The tests keep an independent reference definition with
/// the numbers written out (`FuzzyMatcherTests`), which these must agree with.
enum FuzzyScore {
    // MARK: Contiguous tiers

    /// The key is the query (`tana` → `tana`): the name typed in full, nothing is closer.
    static let wholeKey = 350
    /// The key starts with the query as a whole word (`tanaka` in `tanaka taro`): a family
    /// name typed in full beats a longer name that merely starts the same way.
    static let firstWord = 325
    /// The key starts with the query (`tana` in `tanaka`): people type a name from its start.
    static let keyPrefix = 300
    /// A later word of the key is the query (`taro` in `tanaka taro`): a given name typed in
    /// full, after every key that starts with the query (the key's own start is what is
    /// typed first).
    static let laterWord = 225
    /// A later word starts with the query (`ta` in `tanaka taro`'s `taro`).
    static let laterWordPrefix = 200
    /// The query occurs inside a word (`ana` in `tanaka`): contiguous but not where a name
    /// is typed from; still above every scattered match, which is the most the full scan
    /// can find for a candidate the prefix and word-start index did not take.
    static let insideWord = 100

    // MARK: Scattered matches

    /// Where a scattered alignment's score starts, before its adjustments: the middle of
    /// `scatteredRange`, so that bonuses and penalties both have room.
    static let scatteredBase = 60
    /// A scattered score is clamped to this: above 0 (0 means no match) and below
    /// `insideWord` (any contiguous match beats any scattered one).
    static let scatteredRange = 1...99
    /// Per query character at a word start: initials (`jn` → **J**an **N**ovák) are what a
    /// person means by a scattered query.
    static let wordStart = 8
    /// A gap between two matched characters that skips only vowels inside a word (the `a`
    /// in t·a·n): consonant skeletons (`tnk` → **t**a**n**a**k**a) are nearly as good as
    /// the word itself. The cheapest gap (`CandidateSummary`'s bound relies on it).
    static let vowelGap = 1
    /// A gap that skips a consonant inside a word: the typed characters were not adjacent
    /// sounds of the name.
    static let consonantGap = 6
    /// A gap that crosses into a later word and goes on at its start: cheap enough that
    /// initials (+`wordStart`) still gain by it.
    static let nextWordGap = 6
    /// A gap that crosses into a later word and lands in its middle (`tnk` in **T**ereza
    /// Va**nk**ová): the least likely meaning, so a skeleton inside one word beats it.
    static let midWordJump = 10
    /// The first matched character is not at the key's start: people start typing a name
    /// at its beginning.
    static let lateStart = 5

    /// A scattered alignment's score: `scatteredBase` plus `adjustment` (its word-start
    /// bonuses less its gap and start penalties), clamped to `scatteredRange`.
    @inline(__always)
    static func scattered(_ adjustment: Int) -> Int {
        min(scatteredRange.upperBound, max(scatteredRange.lowerBound, scatteredBase + adjustment))
    }
}
