/// A selection in Unicode scalar offsets; a caret is an empty selection.
///
/// `anchor` is where the selection started and `caret` is the moving end, so a
/// backwards selection keeps its direction instead of being normalised away.
public struct TextSelection: Equatable, Sendable {
    public var anchor: Int
    public var caret: Int

    public init(anchor: Int, caret: Int) {
        self.anchor = anchor
        self.caret = caret
    }

    /// A collapsed selection: just a caret.
    public init(caret: Int) {
        self.init(anchor: caret, caret: caret)
    }

    public var lower: Int { min(anchor, caret) }
    public var upper: Int { max(anchor, caret) }
    public var isEmpty: Bool { anchor == caret }
}
