/// What the panel layout (a vertical stack of regions) depends on, in whole pixels.
///
/// From top to bottom the panel holds the message list, the completion list, the typing
/// indicator, the caret toolbar, the input bar, and the part covered by an on-screen
/// keyboard. Negative values are treated as 0.
public struct LayoutInput: Equatable, Sendable {
    public var panelWidth: Int
    public var panelHeight: Int
    /// Pixels at the bottom of the panel covered by an on-screen keyboard (0 when the
    /// keyboard is hidden, or when the compositor shrank the window for it instead).
    public var keyboardOverlap: Int
    /// The input bar's natural height, already clamped by the app to 1…6 lines.
    public var inputNaturalHeight: Int
    /// The input bar's height with one line (a floor for `inputNaturalHeight`).
    public var inputMinimumHeight: Int
    /// Rows the completion list wants to show (0: closed).
    public var completionRows: Int
    public var completionRowHeight: Int
    /// The typing indicator's natural height; 0 when hidden.
    public var indicatorHeight: Int
    /// The caret toolbar's natural height; 0 when hidden.
    public var toolbarHeight: Int
    /// What the message list keeps while the completion list, the indicator and the
    /// toolbar give up space; below it only when all of them have. Default 0: the list is
    /// purely what is left, as in SlackTextViewController's `appropriateScrollViewHeight`.
    public var listMinimumHeight: Int

    public init(panelWidth: Int, panelHeight: Int, keyboardOverlap: Int = 0,
                inputNaturalHeight: Int, inputMinimumHeight: Int,
                completionRows: Int = 0, completionRowHeight: Int = 0,
                indicatorHeight: Int = 0, toolbarHeight: Int = 0, listMinimumHeight: Int = 0) {
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
        self.keyboardOverlap = keyboardOverlap
        self.inputNaturalHeight = inputNaturalHeight
        self.inputMinimumHeight = inputMinimumHeight
        self.completionRows = completionRows
        self.completionRowHeight = completionRowHeight
        self.indicatorHeight = indicatorHeight
        self.toolbarHeight = toolbarHeight
        self.listMinimumHeight = listMinimumHeight
    }
}

/// The height of each region of the panel, in whole pixels, top to bottom.
/// `list + completion + indicator + toolbar + input + keyboard == panelHeight`.
public struct Layout: Equatable, Sendable {
    public var panelWidth: Int
    public var panelHeight: Int
    public var list: Int
    public var completion: Int
    /// Whole completion rows shown (`completion == completionRows * rowHeight`).
    public var completionRows: Int
    public var indicator: Int
    public var toolbar: Int
    public var input: Int
    /// The keyboard's overlap of the panel (clamped to the panel).
    public var keyboard: Int

    public init(panelWidth: Int, panelHeight: Int, list: Int, completion: Int, completionRows: Int,
                indicator: Int, toolbar: Int, input: Int, keyboard: Int) {
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
        self.list = list
        self.completion = completion
        self.completionRows = completionRows
        self.indicator = indicator
        self.toolbar = toolbar
        self.input = input
        self.keyboard = keyboard
    }

    /// The sum of all regions: always `panelHeight`.
    public var total: Int { list + completion + indicator + toolbar + input + keyboard }
}

/// The panel's layout pass as a pure function: the message list is what is left.
///
/// Priority, from what is kept longest to what gives up first:
/// 1. the keyboard overlap (it is simply there; clamped to the panel);
/// 2. the input bar, whole (at its natural height, never below one line); if even that
///    does not fit above the keyboard it gets everything that is left there;
/// 3. one completion row while the list is open (a row is never cut: if one row does not
///    fit, the completion list gets 0 and everything below in this list too);
/// 4. the message list's minimum (`listMinimumHeight`, default 0);
/// 5. the caret toolbar (all or nothing);
/// 6. the typing indicator (all or nothing);
/// 7. the remaining completion rows, as many whole rows as fit.
/// Each step is served only if every step above it got all it asked for, so space is
/// taken in the reverse order: completion rows shrink first, then the indicator hides,
/// then the toolbar, then the list goes to 0. The list gets every pixel left over.
public enum LayoutSolver {
    public static func solve(_ input: LayoutInput) -> Layout {
        let panel = max(0, input.panelHeight)
        let keyboard = min(max(0, input.keyboardOverlap), panel)
        var rest = panel - keyboard

        let wantedInput = max(max(0, input.inputNaturalHeight), max(0, input.inputMinimumHeight))
        let inputHeight = min(wantedInput, rest)
        rest -= inputHeight

        var satisfied = true
        /// Takes `wanted` pixels if every earlier step was satisfied and they fit.
        func take(_ wanted: Int) -> Int {
            guard satisfied, wanted > 0 else { return 0 }
            guard wanted <= rest else {
                satisfied = false
                return 0
            }
            rest -= wanted
            return wanted
        }

        let rowHeight = max(0, input.completionRowHeight)
        let rowsWanted = rowHeight > 0 ? max(0, input.completionRows) : 0
        let firstRow = rowsWanted > 0 ? take(rowHeight) : 0
        var rows = firstRow > 0 ? 1 : 0

        let listMinimum = max(0, input.listMinimumHeight)
        if satisfied, listMinimum > rest { satisfied = false }  // the list takes what is left
        let listKept = satisfied ? listMinimum : 0
        rest -= listKept

        let toolbar = take(max(0, input.toolbarHeight))
        let indicator = take(max(0, input.indicatorHeight))

        if satisfied, rows == 1, rowsWanted > 1 {
            let extra = min(rowsWanted - 1, rest / rowHeight)
            rows += extra
            rest -= extra * rowHeight
        }

        return Layout(panelWidth: max(0, input.panelWidth), panelHeight: panel,
                      list: listKept + rest, completion: rows * rowHeight, completionRows: rows,
                      indicator: indicator, toolbar: toolbar, input: inputHeight, keyboard: keyboard)
    }
}
