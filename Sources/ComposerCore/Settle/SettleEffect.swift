/// What a settle step decides. The `Composer` makes a cut in its model at once and
/// hands it to the window as an edit of its own; tags go to the window as they are.
public enum SettleEffect: Equatable, Sendable {
    /// Delete `range` as the composer's own edit, as one undoable step, and put the caret
    /// at `caret`.
    case trim(range: Range<Int>, caret: Int)
    /// Take the overflow tag off `remove`, then put it on `add` (scalar ranges).
    case overflowTag(add: [Range<Int>], remove: [Range<Int>])
    /// Take `kind`'s highlight tag off `remove`, then put it on `add` (scalar ranges).
    case highlight(kind: HighlightKind, add: [Range<Int>], remove: [Range<Int>])
    /// Take the invisible-control mark off `remove`, then put it on `add` (scalar ranges).
    case controlTag(add: [Range<Int>], remove: [Range<Int>])
}

extension SettleEffect {
    /// Whether it changes the text (a cut), rather than how the text looks.
    var isEdit: Bool {
        if case .trim = self { true } else { false }
    }
}

/// A settle step's retagging, as the window gets it (`Effect.tag`): it cannot say "cut",
/// which the composer makes in its model and hands on as an edit.
public enum TagEffect: Equatable, Sendable {
    /// Take the overflow tag off `remove`, then put it on `add` (scalar ranges).
    case overflow(add: [Range<Int>], remove: [Range<Int>])
    /// Take `kind`'s highlight tag off `remove`, then put it on `add` (scalar ranges).
    case highlight(kind: HighlightKind, add: [Range<Int>], remove: [Range<Int>])
    /// Take the invisible-control mark off `remove`, then put it on `add` (scalar ranges).
    case control(add: [Range<Int>], remove: [Range<Int>])
}

extension SettleEffect {
    /// The retagging it asks for; nil for a cut.
    var tag: TagEffect? {
        switch self {
        case .trim: nil
        case let .overflowTag(add, remove): .overflow(add: add, remove: remove)
        case let .highlight(kind, add, remove): .highlight(kind: kind, add: add, remove: remove)
        case let .controlTag(add, remove): .control(add: add, remove: remove)
        }
    }
}
