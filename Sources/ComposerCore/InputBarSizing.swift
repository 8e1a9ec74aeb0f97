/// Height of the input bar: it grows with its text from `minLines` to `maxLines`
/// lines, then stays put and scrolls (a Slack-style growing bar, lesson 000).
/// Integers are pixels.
public struct InputBarSizing: Sendable {
    public let lineHeight: Int
    public let verticalPadding: Int
    public let minLines: Int
    public let maxLines: Int

    /// Nonsense values are repaired rather than trapped: line height and padding
    /// at least 0, at least one line, and `maxLines >= minLines`.
    public init(lineHeight: Int, verticalPadding: Int, minLines: Int = 1, maxLines: Int = 6) {
        self.lineHeight = max(0, lineHeight)
        self.verticalPadding = max(0, verticalPadding)
        self.minLines = max(1, minLines)
        self.maxLines = max(self.minLines, maxLines)
    }

    public var minHeight: Int { minLines * lineHeight + verticalPadding }
    public var maxHeight: Int { maxLines * lineHeight + verticalPadding }

    /// Bar height for text content of the given height (padding added), clamped.
    public func height(forContentHeight contentHeight: Int) -> Int {
        min(max(contentHeight + verticalPadding, minHeight), maxHeight)
    }

    /// True when the content no longer fits in the tallest bar and must scroll.
    public func needsScrolling(forContentHeight contentHeight: Int) -> Bool {
        contentHeight + verticalPadding > maxHeight
    }
}
