import CGtk
import ComposerCore
import GtkBinding
import Foundation

/// Sizes the panel's vertical stack of regions (messages, completion list, typing indicator,
/// caret toolbar, input bar) with the core's `LayoutSolver`, one pass per change: the input
/// grew a line, the completion list opened or closed, the indicator or toolbar appeared, the
/// keyboard appeared or disappeared, the window was resized.
///
/// The toolkit will not move the input out of an on-screen keyboard's way: the app has to
/// learn where the keyboard is and lay the panel out itself. It is learned from
/// squeekboard's `Visible` property and from the window's own height (sway shrinks the
/// window for it) through the core's `KeyboardState`, which ignores bogus intermediate
/// sizes; or simulated with `--osk-inset` and the toggle in the UI.
final class PanelLayout {
    private let ui: ComposerView
    /// The window's sources: cancelled when the window is destroyed, so no idle or
    /// timeout of ours measures a freed widget.
    private let sources: SourceGroup
    /// The window's frame clock "layout" phase, followed while the window is realized.
    private var framePhases: FrameClockPhases?
    /// The keyboard as the composer knows it (it learns it from `observeKeyboard`).
    var keyboard = KeyboardEvent.hidden
    private var lastLayout: Layout?
    private var lastWindowHeight = 0
    private var lastInputSize = Size(width: 0, height: 0)
    /// What the last relayout saw of the regions a settle can change.
    private var lastRegions: Regions?
    /// The separator's height: fixed by the theme, measured once (a measure per keystroke
    /// is a noticeable share of the composer's own work).
    private var separatorHeight: Int?
    private var heightRepeat: UInt32?
    /// The caret toolbar turned on by hand (it also shows while a keyboard is up).
    var toolbarToggled = false { didSet { relayout() } }
    /// "Hanako is typing…", or nil.
    var indicatorText: String? { didSet { relayout() } }
    /// Rows the completion controller wants shown (0 when closed).
    var completionRowsWanted: () -> Int = { 0 }
    /// Shows the completion list with at most this many rows.
    var showCompletion: (Int) -> Void = { _ in }
    /// The input's size changed (its lines wrapped anew, or it grew or shrank).
    var inputResized: () -> Void = {}
    /// Reports what was seen of the keyboard (the window's height) to the composer.
    var observeKeyboard: (KeyboardObservation) -> Void = { _ in }
    /// Reports a new layout to the composer (for the trace).
    var laidOut: (Layout) -> Void = { _ in }
    var keyboardVisible: Bool { keyboard.visible }
    private(set) var layout: Layout?

    init(ui: ComposerView, sources: SourceGroup) {
        self.ui = ui
        self.sources = sources
        // The window's height is looked at in each frame's layout phase, after GTK has
        // allocated the window: a frame that shows a new size is the only way the height
        // can change, and nothing runs while no frame is drawn (no per-frame callback: that
        // kept the frame clock ticking for the window's whole life, woke the process 60
        // times a second and made every keystroke wait for the next tick). A relayout
        // queued from here makes GTK run the layout phase again before it paints, so the
        // new regions land in the same frame as the new size.
        framePhases = FrameClockPhases(of: ui.window, [("layout", { [weak self] in self?.windowLaidOut() })])
    }

    /// After GTK allocated the window in a frame's layout phase. A new size of the input
    /// (the text view's width, the scroller's height) re-measures its growth and re-solves
    /// the panel; a new window height is also the keyboard's news (sway shrinks the window
    /// for it). The first frame is such a change, so the window is drawn laid out from its
    /// first frame.
    ///
    /// A height change is reported at once, and again once it has held for a moment: the
    /// repeat is what tells the core a size is settled, not a step between two.
    private func windowLaidOut() {
        let input = Size(width: Int(gtk_widget_get_width(ui.textView)), height: Int(gtk_widget_get_height(ui.inputScroller)))
        let inputChanged = input.width > 0 && input != lastInputSize
        if inputChanged {
            lastInputSize = input
            inputResized()
        }
        let height = Int(gtk_widget_get_height(ui.window))
        guard height > 0, height != lastWindowHeight else {
            if inputChanged { relayout() }
            return
        }
        lastWindowHeight = height
        observeKeyboard(.windowHeight(height))
        sources.remove(heightRepeat)
        heightRepeat = sources.timeout(milliseconds: 150) { [weak self] in
            guard let self else { return false }
            heightRepeat = nil
            observeKeyboard(.windowHeight(lastWindowHeight))
            return false
        }
    }

    /// Relayouts when the completion rows wanted or the limit row's visibility (the hint, the
    /// counter, Trim) changed since the last relayout: what a settle can change that GTK would not lay out by itself.
    func relayoutIfRegionsChanged() {
        guard currentRegions != lastRegions else { return }
        relayout()
    }

    private var currentRegions: Regions {
        Regions(completionRows: completionRowsWanted(), limitRowShown: gtk_widget_get_visible(ui.limitIndicators.row) != 0)
    }

    /// Measures the regions, solves, applies the heights in one go, and reports the layout
    /// when it changed.
    func relayout() {
        lastRegions = currentRegions
        guard !sources.isCancelled else { return }  // the window is gone
        let width = Int(gtk_widget_get_width(ui.panel))
        if separatorHeight == nil { separatorHeight = naturalHeight(ui.separator, width: width) }
        let chrome = separatorHeight!
        let panelHeight = Int(gtk_widget_get_height(ui.panel)) - chrome
        guard width > 0, panelHeight > 0 else { return }
        let event = keyboard
        var minimum: Int32 = 0, natural: Int32 = 0
        // The input's region: the bar and, while it shows, the limit's row above it.
        gtk_widget_measure(ui.inputArea, GTK_ORIENTATION_VERTICAL, Int32(width), &minimum, &natural, nil, nil)
        let showToolbar = event.visible || toolbarToggled
        // Real rows and the real indicator text first, so their measured heights are true.
        let wantedRows = completionRowsWanted()
        if wantedRows > 0 { showCompletion(wantedRows) }
        if let text = indicatorText { gtk_label_set_text(opaque(ui.typingIndicator), text) }
        // GTK measures hidden widgets as 0 tall: make the wanted ones visible to measure
        // them (apply() settles their visibility in the same pass, before any frame).
        if indicatorText != nil { gtk_widget_set_visible(ui.typingIndicator, 1) }
        if showToolbar { gtk_widget_set_visible(ui.caretToolbar, 1) }
        let input = LayoutInput(
            panelWidth: width, panelHeight: panelHeight, keyboardOverlap: event.overlap,
            inputNaturalHeight: Int(natural), inputMinimumHeight: Int(minimum),
            completionRows: wantedRows, completionRowHeight: ui.completionList.rowHeight,
            indicatorHeight: indicatorText == nil ? 0 : max(1, naturalHeight(ui.typingIndicator, width: width)),
            toolbarHeight: showToolbar ? max(1, naturalHeight(ui.caretToolbar, width: width)) : 0)
        let solved = LayoutSolver.solve(input)
        apply(solved)
        if solved != lastLayout {
            lastLayout = solved
            laidOut(solved)
        }
        layout = solved
    }

    /// Every region gets exactly its height; the message list takes the rest, and the
    /// input bar keeps its natural height (which the solver gave it whenever it fits).
    private func apply(_ layout: Layout) {
        showCompletion(layout.completionRows)
        // A possible scrollbar makes the list at least a slider tall: below that, let it go
        // (it can still be scrolled, it is just too short for a bar).
        gtk_scrolled_window_set_policy(opaque(ui.messageList.scrolledWindow), GTK_POLICY_NEVER,
                                       layout.list < 60 ? GTK_POLICY_EXTERNAL : GTK_POLICY_AUTOMATIC)
        for (widget, height) in [(ui.completionList.container, layout.completion), (ui.typingIndicator, layout.indicator),
                                 (ui.caretToolbar, layout.toolbar), (ui.keyboardArea, layout.keyboard)] {
            gtk_widget_set_visible(widget, height > 0 ? 1 : 0)
            gtk_widget_set_size_request(widget, -1, Int32(height))
        }
    }

    /// The allocated heights with their margins (the slot each region takes in the panel),
    /// in the layout's order (for tests: they must match it).
    var allocatedHeights: [Int] {
        [ui.messageList.scrolledWindow, ui.completionList.container, ui.typingIndicator,
         ui.caretToolbar, ui.inputArea, ui.keyboardArea].map {
            gtk_widget_get_visible($0) != 0
                ? Int(gtk_widget_get_allocated_height($0) + gtk_widget_get_margin_top($0) + gtk_widget_get_margin_bottom($0))
                : 0
        }
    }

    private func naturalHeight(_ widget: UnsafeMutablePointer<GtkWidget>, width: Int) -> Int {
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(widget, GTK_ORIENTATION_VERTICAL, Int32(max(width, 1)), &minimum, &natural, nil, nil)
        return Int(natural)
    }
}

private struct Size: Equatable { let width: Int, height: Int }

private struct Regions: Equatable { let completionRows: Int, limitRowShown: Bool }
