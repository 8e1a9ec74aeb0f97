/// What the user sees as committed text at one moment: text, caret and selection.
///
/// The trace's `text` event carries one, and the settle pipeline compares them to
/// report only real changes. Equality is scalar-exact (see `isScalarIdentical`),
/// so a normalisation change is reported too.
public struct TextSnapshot: Equatable, Sendable {
    public var text: String
    public var caret: Int
    public var selection: TextSelection

    public init(text: String, caret: Int, selection: TextSelection) {
        self.text = text
        self.caret = caret
        self.selection = selection
    }

    public static func == (lhs: TextSnapshot, rhs: TextSnapshot) -> Bool {
        isScalarIdentical(lhs.text, rhs.text) && lhs.caret == rhs.caret && lhs.selection == rhs.selection
    }
}
