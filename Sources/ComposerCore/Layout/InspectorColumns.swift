/// Where the window's width and the divider go when the IME inspector shows or hides beside
/// the composer. The app measures the widgets, this decides, the app applies it.
///
/// Opening the inspector widens the window by the inspector's width instead of taking it
/// from the composer, whose input would shrink to nothing beside it; closing gives the width
/// back. Not when the window's size is not the app's to choose (maximized, fullscreen): the
/// inspector then shares the width, the composer keeping its minimum.
public enum InspectorColumns {
    /// The inspector's width when it opens (its divider moves it later): room for its
    /// buttons and a readable row, unless its own minimum is wider.
    public static let openingWidth = 560

    /// Widths in pixels, measured as the inspector shows or hides.
    public struct Measures: Equatable, Sendable {
        /// The composer's width before the inspector showed or hid (0: not laid out yet).
        public var composerWidth: Int
        /// The minimum widths of the composer, the inspector and the two columns together
        /// (which adds the divider's own width).
        public var composerMinimum: Int
        public var inspectorMinimum: Int
        public var columnsMinimum: Int
        /// The columns' current width (what a maximized or fullscreen window offers).
        public var columnsWidth: Int
        /// Whether the window's size is the app's to choose (neither maximized nor fullscreen).
        public var windowResizable: Bool

        public init(composerWidth: Int, composerMinimum: Int, inspectorMinimum: Int, columnsMinimum: Int,
                    columnsWidth: Int, windowResizable: Bool) {
            self.composerWidth = composerWidth
            self.composerMinimum = composerMinimum
            self.inspectorMinimum = inspectorMinimum
            self.columnsMinimum = columnsMinimum
            self.columnsWidth = columnsWidth
            self.windowResizable = windowResizable
        }
    }

    /// What to change; nil leaves it as it is.
    public struct Resize: Equatable, Sendable {
        /// The window's new default width (its height stays).
        public var windowWidth: Int?
        /// The divider's new position: the composer's width.
        public var dividerPosition: Int?

        public init(windowWidth: Int? = nil, dividerPosition: Int? = nil) {
            self.windowWidth = windowWidth
            self.dividerPosition = dividerPosition
        }
    }

    public static func resize(inspectorShown shown: Bool, _ m: Measures) -> Resize {
        guard m.composerWidth > 0 else { return Resize() }
        guard shown else { return Resize(windowWidth: m.windowResizable ? m.composerWidth : nil) }
        let inspectorWidth = max(m.inspectorMinimum, openingWidth)
        let divider = max(0, m.columnsMinimum - m.composerMinimum - m.inspectorMinimum)
        if m.windowResizable {
            return Resize(windowWidth: m.composerWidth + divider + inspectorWidth, dividerPosition: m.composerWidth)
        }
        return Resize(dividerPosition: max(m.composerMinimum, m.columnsWidth - divider - inspectorWidth))
    }
}
