import ComposerCore
import Testing

/// The inspector opens beside the composer: the window widens for it (or, maximized, the
/// columns share the width) and closing gives the width back.
@Suite("Layout: the inspector's column")
struct InspectorColumnsTests {
    /// A 480 px composer (minimum 300), an inspector whose minimum is 400, a 6 px divider.
    func measures(composer: Int = 480, inspectorMinimum: Int = 400, columns: Int = 480,
                  resizable: Bool = true) -> InspectorColumns.Measures {
        InspectorColumns.Measures(composerWidth: composer, composerMinimum: 300, inspectorMinimum: inspectorMinimum,
                                  columnsMinimum: 300 + 6 + inspectorMinimum, columnsWidth: columns,
                                  windowResizable: resizable)
    }

    @Test func openingWidensTheWindowByTheInspectorAndTheDivider() {
        let resize = InspectorColumns.resize(inspectorShown: true, measures())
        #expect(resize == InspectorColumns.Resize(windowWidth: 480 + 6 + InspectorColumns.openingWidth,
                                                  dividerPosition: 480))
    }

    @Test func anInspectorWiderThanTheOpeningWidthGetsItsMinimum() {
        let resize = InspectorColumns.resize(inspectorShown: true, measures(inspectorMinimum: 700))
        #expect(resize.windowWidth == 480 + 6 + 700)
        #expect(resize.dividerPosition == 480, "the composer keeps its width")
    }

    @Test func closingGivesTheComposerItsWidthBack() {
        // Closing measures the composer as it was beside the inspector (the user may have
        // dragged the divider): the window becomes that wide.
        let resize = InspectorColumns.resize(inspectorShown: false, measures(composer: 520, columns: 1086))
        #expect(resize == InspectorColumns.Resize(windowWidth: 520))
    }

    @Test func aMaximizedWindowIsSharedTheComposerKeepingItsMinimum() {
        let wide = InspectorColumns.resize(inspectorShown: true, measures(composer: 1920, columns: 1920, resizable: false))
        #expect(wide == InspectorColumns.Resize(dividerPosition: 1920 - 6 - InspectorColumns.openingWidth))
        let narrow = InspectorColumns.resize(inspectorShown: true, measures(composer: 700, columns: 700, resizable: false))
        #expect(narrow == InspectorColumns.Resize(dividerPosition: 300), "never below the composer's minimum")
        #expect(InspectorColumns.resize(inspectorShown: false, measures(resizable: false)) == InspectorColumns.Resize(),
                "closing leaves a maximized window as it is")
    }

    @Test func nothingChangesBeforeTheComposerIsLaidOut() {
        #expect(InspectorColumns.resize(inspectorShown: true, measures(composer: 0)) == InspectorColumns.Resize())
        #expect(InspectorColumns.resize(inspectorShown: false, measures(composer: 0)) == InspectorColumns.Resize())
    }
}
