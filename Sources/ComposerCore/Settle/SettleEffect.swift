/// What a settle controller asks the toolkit to do. The controller decides; the app
/// applies the effect to the GtkTextBuffer, whose signals bring the change back into the
/// model like any other edit (data flows one way).
public enum SettleEffect: Equatable, Sendable {
    /// Delete `range` as the composer's own edit, as one undoable step, and put the caret
    /// at `caret`.
    case trim(range: Range<Int>, caret: Int)
    /// Take the overflow tag off `remove`, then put it on `add` (scalar ranges).
    case overflowTag(add: [Range<Int>], remove: [Range<Int>])
    /// Take `kind`'s highlight tag off `remove`, then put it on `add` (scalar ranges).
    case highlight(kind: HighlightKind, add: [Range<Int>], remove: [Range<Int>])
}
