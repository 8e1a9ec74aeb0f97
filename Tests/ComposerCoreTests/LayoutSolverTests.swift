import ComposerCore
import PropertyBased
import Testing

private func layoutInputs() -> Generator<LayoutInput, some Sequence & SendableMetatype> {
    zip(
        zip(Gen.int(in: 0...1200), Gen.int(in: -50...1500), Gen.int(in: -20...900)),
        zip(Gen.int(in: 0...200), Gen.int(in: 0...60)),
        zip(Gen.int(in: 0...12), Gen.int(in: -5...48)),
        zip(Gen.element(of: [0, 0, 18, 24, 30]).map { $0! }, Gen.element(of: [0, 0, 36, 44]).map { $0! },
            Gen.element(of: [0, 0, 0, 20, 60, 200]).map { $0! })
    ).map { panel, input, completion, extras in
        LayoutInput(panelWidth: panel.0, panelHeight: panel.1, keyboardOverlap: panel.2,
                    inputNaturalHeight: input.0, inputMinimumHeight: input.1,
                    completionRows: completion.0, completionRowHeight: completion.1,
                    indicatorHeight: extras.0, toolbarHeight: extras.1, listMinimumHeight: extras.2)
    }
}

/// The same input with `delta` more (or fewer) pixels of panel.
private func resized(_ input: LayoutInput, by delta: Int) -> LayoutInput {
    var copy = input
    copy.panelHeight += delta
    return copy
}

@Suite("LayoutSolver: properties over random inputs")
struct LayoutSolverPropertyTests {
    @Test func regionsFillThePanelExactlyAndNothingIsNegative() async {
        await propertyCheck(count: 1000, input: layoutInputs()) { input in
            let layout = LayoutSolver.solve(input)
            let panel = max(0, input.panelHeight)
            #expect(layout.total == panel)
            #expect(layout.panelHeight == panel)
            #expect(layout.panelWidth == max(0, input.panelWidth))
            for height in [layout.list, layout.completion, layout.indicator, layout.toolbar, layout.input, layout.keyboard] {
                #expect(height >= 0)
            }
            #expect(layout.keyboard == min(max(0, input.keyboardOverlap), panel))
            #expect(LayoutSolver.solve(input) == layout, "deterministic")
        }
    }

    @Test func theInputBarIsWholeWheneverItFitsAboveTheKeyboard() async {
        await propertyCheck(count: 1000, input: layoutInputs()) { input in
            let layout = LayoutSolver.solve(input)
            let wanted = max(input.inputNaturalHeight, input.inputMinimumHeight, 0)
            let above = max(0, input.panelHeight) - layout.keyboard
            if wanted <= above {
                #expect(layout.input == wanted)
            } else {
                #expect(layout.input == above, "it gets everything above the keyboard")
                #expect(layout.list + layout.completion + layout.indicator + layout.toolbar == 0)
            }
        }
    }

    @Test func optionalRegionsAreAllOrNothingAndCompletionIsWholeRows() async {
        await propertyCheck(count: 1000, input: layoutInputs()) { input in
            let layout = LayoutSolver.solve(input)
            #expect(layout.indicator == 0 || layout.indicator == input.indicatorHeight)
            #expect(layout.toolbar == 0 || layout.toolbar == input.toolbarHeight)
            #expect(layout.completion == layout.completionRows * max(0, input.completionRowHeight))
            #expect(layout.completionRows >= 0 && layout.completionRows <= max(0, input.completionRows))
        }
    }

    /// The shrink order as a property: a region only gives up space when every region
    /// that gives up before it already has.
    @Test func spaceIsGivenUpInOrder() async {
        await propertyCheck(count: 1000, input: layoutInputs()) { input in
            let layout = LayoutSolver.solve(input)
            let open = input.completionRows > 0 && input.completionRowHeight > 0
            let completionFull = !open || layout.completionRows == input.completionRows
            let indicatorShown = layout.indicator == input.indicatorHeight
            let toolbarShown = layout.toolbar == input.toolbarHeight
            let listKept = layout.list >= input.listMinimumHeight
            let firstRowShown = !open || layout.completionRows >= 1
            if !indicatorShown { #expect(open ? layout.completionRows <= 1 : true, "rows shrink before the indicator hides") }
            if !toolbarShown { #expect(layout.indicator == 0 && (!open || layout.completionRows <= 1)) }
            if !listKept { #expect(layout.toolbar == 0 && layout.indicator == 0 && (!open || layout.completionRows <= 1)) }
            if !firstRowShown {
                #expect(layout.toolbar == 0 && layout.indicator == 0)
                #expect(layout.list < input.completionRowHeight, "a row is dropped only when it cannot fit")
            }
            if !completionFull, open, layout.completionRows >= 1, indicatorShown, toolbarShown, listKept {
                #expect(layout.list - input.listMinimumHeight < input.completionRowHeight,
                        "rows are cut only when no room is left for another")
            }
        }
    }

    @Test func moreRoomNeverTakesSpaceFromAnyRegion() async {
        await propertyCheck(count: 600, input: layoutInputs(), Gen.int(in: 1...300)) { input, extra in
            let smaller = LayoutSolver.solve(input)
            let larger = LayoutSolver.solve(resized(input, by: extra))
            #expect(larger.input >= smaller.input)
            #expect(larger.completion >= smaller.completion)
            #expect(larger.toolbar >= smaller.toolbar)
            #expect(larger.indicator >= smaller.indicator)
        }
    }

    @Test func withEnoughRoomEverythingGetsWhatItAsks() async {
        await propertyCheck(count: 500, input: layoutInputs()) { input in
            var roomy = input
            let rows = max(0, input.completionRows) * max(0, input.completionRowHeight)
            roomy.panelHeight = max(0, input.keyboardOverlap) + max(input.inputNaturalHeight, input.inputMinimumHeight)
                + rows + input.indicatorHeight + input.toolbarHeight + input.listMinimumHeight
            let layout = LayoutSolver.solve(roomy)
            #expect(layout.completion == rows)
            #expect(layout.indicator == input.indicatorHeight)
            #expect(layout.toolbar == input.toolbarHeight)
            #expect(layout.list == input.listMinimumHeight)
        }
    }
}

@Suite("LayoutSolver: the shrink order, step by step")
struct LayoutSolverTests {
    /// 5 rows of 30, indicator 20, toolbar 40, input 3 lines (90, one line 30), keyboard 300.
    static func input(panel: Int, listMinimum: Int = 0) -> LayoutInput {
        LayoutInput(panelWidth: 400, panelHeight: panel, keyboardOverlap: 300,
                    inputNaturalHeight: 90, inputMinimumHeight: 30,
                    completionRows: 5, completionRowHeight: 30,
                    indicatorHeight: 20, toolbarHeight: 40, listMinimumHeight: listMinimum)
    }

    struct Heights: Equatable, CustomStringConvertible {
        var list, completion, indicator, toolbar, input, keyboard: Int
        init(_ list: Int, _ completion: Int, _ indicator: Int, _ toolbar: Int, _ input: Int, _ keyboard: Int) {
            (self.list, self.completion, self.indicator, self.toolbar, self.input, self.keyboard)
                = (list, completion, indicator, toolbar, input, keyboard)
        }
        init(_ layout: Layout) {
            self.init(layout.list, layout.completion, layout.indicator, layout.toolbar, layout.input, layout.keyboard)
        }
        var description: String { "\([list, completion, indicator, toolbar, input, keyboard])" }
    }

    func heights(panel: Int, listMinimum: Int = 0) -> Heights {
        Heights(LayoutSolver.solve(Self.input(panel: panel, listMinimum: listMinimum)))
    }

    @Test func everythingFitsAndTheListTakesTheRest() {
        // 300 + 90 + 150 + 20 + 40 = 600
        #expect(heights(panel: 700) == Heights(100, 150, 20, 40, 90, 300))
        #expect(heights(panel: 600) == Heights(0, 150, 20, 40, 90, 300))
    }

    @Test func completionShrinksFirstByWholeRows() {
        #expect(heights(panel: 599) == Heights(29, 120, 20, 40, 90, 300))
        #expect(heights(panel: 570) == Heights(0, 120, 20, 40, 90, 300))
        #expect(heights(panel: 481) == Heights(1, 30, 20, 40, 90, 300))
        #expect(heights(panel: 480) == Heights(0, 30, 20, 40, 90, 300), "one row, never fewer while open")
    }

    @Test func thenTheIndicatorHidesThenTheToolbar() {
        #expect(heights(panel: 479) == Heights(19, 30, 0, 40, 90, 300))
        #expect(heights(panel: 460) == Heights(0, 30, 0, 40, 90, 300))
        #expect(heights(panel: 459) == Heights(39, 30, 0, 0, 90, 300))
        #expect(heights(panel: 420) == Heights(0, 30, 0, 0, 90, 300))
    }

    @Test func theIndicatorDoesNotOutliveTheToolbarEvenWhenItWouldFit() {
        // 459: the toolbar (40) no longer fits; the indicator (20) would, but hides first.
        #expect(heights(panel: 459).indicator == 0)
    }

    @Test func thenTheListGivesUpItsMinimum() {
        #expect(heights(panel: 700, listMinimum: 60) == Heights(100, 150, 20, 40, 90, 300))
        #expect(heights(panel: 660, listMinimum: 60) == Heights(60, 150, 20, 40, 90, 300))
        #expect(heights(panel: 659, listMinimum: 60) == Heights(89, 120, 20, 40, 90, 300))
        #expect(heights(panel: 540, listMinimum: 60) == Heights(60, 30, 20, 40, 90, 300))
        #expect(heights(panel: 539, listMinimum: 60) == Heights(79, 30, 0, 40, 90, 300))
        #expect(heights(panel: 519, listMinimum: 60) == Heights(99, 30, 0, 0, 90, 300))
        #expect(heights(panel: 479, listMinimum: 60) == Heights(59, 30, 0, 0, 90, 300))
        #expect(heights(panel: 420, listMinimum: 60) == Heights(0, 30, 0, 0, 90, 300))
    }

    @Test func thenTheCompletionRowGoesOnlyWhenItCannotFitNextToTheInput() {
        #expect(heights(panel: 419) == Heights(29, 0, 0, 0, 90, 300))
        #expect(heights(panel: 390) == Heights(0, 0, 0, 0, 90, 300))
    }

    @Test func theInputGetsWhatIsLeftAboveTheKeyboardNeverNegative() {
        #expect(heights(panel: 389) == Heights(0, 0, 0, 0, 89, 300))
        #expect(heights(panel: 320) == Heights(0, 0, 0, 0, 20, 300), "below one line: what is left")
        #expect(heights(panel: 300) == Heights(0, 0, 0, 0, 0, 300))
        #expect(heights(panel: 200) == Heights(0, 0, 0, 0, 0, 200), "a keyboard taller than the panel is clamped")
        #expect(heights(panel: 0) == Heights(0, 0, 0, 0, 0, 0))
        #expect(heights(panel: -10) == Heights(0, 0, 0, 0, 0, 0))
    }

    @Test func theInputNeverGoesBelowOneLineOfItsOwn() {
        var input = Self.input(panel: 700)
        input.inputNaturalHeight = 10
        #expect(LayoutSolver.solve(input).input == 30)
    }

    @Test func closedCompletionAndHiddenExtrasTakeNothing() {
        let input = LayoutInput(panelWidth: 400, panelHeight: 600, inputNaturalHeight: 36, inputMinimumHeight: 36)
        #expect(Heights(LayoutSolver.solve(input)) == Heights(564, 0, 0, 0, 36, 0))
        var zeroHeightRows = input
        zeroHeightRows.completionRows = 4
        #expect(Heights(LayoutSolver.solve(zeroHeightRows)) == Heights(564, 0, 0, 0, 36, 0))
    }

    @Test func theIssueScenarioSmallWindowSixLinesKeyboardAndCompletion() {
        // A 360×480 window, a 220 px simulated keyboard, 6 lines of input (6 × 22 + 12),
        // completion wanting 8 rows of 32, indicator and toolbar: the input bar is whole,
        // completion is down to one row, the indicator and the toolbar still fit.
        let input = LayoutInput(panelWidth: 360, panelHeight: 480, keyboardOverlap: 220,
                                inputNaturalHeight: 144, inputMinimumHeight: 34,
                                completionRows: 8, completionRowHeight: 32, indicatorHeight: 22, toolbarHeight: 40)
        let layout = LayoutSolver.solve(input)
        #expect(layout.input == 144)
        #expect(layout.completionRows == 1)
        #expect(Heights(layout) == Heights(22, 32, 22, 40, 144, 220))
        #expect(layout.total == 480)
        // 40 px less: the indicator hides, then the toolbar.
        #expect(Heights(LayoutSolver.solve(resized(input, by: -30))) == Heights(14, 32, 0, 40, 144, 220))
        #expect(Heights(LayoutSolver.solve(resized(input, by: -50))) == Heights(34, 32, 0, 0, 144, 220))
    }
}
