import CGtk
import ComposerCore
import GtkBinding

/// What tests and the measuring tools read of the widgets: the state a person would see,
/// without reaching into GTK from the test. Not the app's interface: `@_spi(Testing)`
/// (`@_spi(Testing) import ComposerApp` to use it).
extension ComposerController {
    /// Whether the window is gone (closed or destroyed): its pointers must not be touched.
    @_spi(Testing) public var isWindowDestroyed: Bool { destroyed }

    /// Plays the simulated colleague's next step now instead of at its time (tests, which
    /// must not depend on the wall clock). Returns what was played (empty without a peer).
    @discardableResult
    @_spi(Testing) public func playPeerNow() -> [PeerEvent] {
        guard !destroyed, let peerDriver else { return [] }
        return peerDriver.playNextNow()
    }

    /// Whether the "composer" group's action `name` can run now (for tests).
    @_spi(Testing) public func actionIsEnabled(_ name: String) -> Bool { actions.isEnabled(name) }

    /// The top-level window (for `gtk_application_add_window` and tests).
    @_spi(Testing) public var window: UnsafeMutablePointer<GtkWidget> { ui.window }
    @_spi(Testing) public var textView: UnsafeMutablePointer<GtkWidget> { ui.textView }
    @_spi(Testing) public var sendButton: UnsafeMutablePointer<GtkWidget> { ui.sendButton }
    @_spi(Testing) public var counterText: String { string(fromBorrowed: gtk_inscription_get_text(opaque(ui.limitIndicators.counterLabel))) }
    /// Whether the counter can be seen (hidden, its row too, far from the limit).
    @_spi(Testing) public var counterIsShown: Bool {
        gtk_widget_get_visible(ui.limitIndicators.counterStatus) != 0 && gtk_widget_get_visible(ui.limitIndicators.row) != 0
    }
    /// The counter's tooltip (it says whether the count is provisional).
    @_spi(Testing) public var counterTooltip: String { string(fromBorrowed: gtk_widget_get_tooltip_text(ui.limitIndicators.counterLabel)) }
    @_spi(Testing) public var sentMessagesShown: [String] { ui.messageList.shownTexts }
    @_spi(Testing) public var inputHeight: Int { ui.inputHeight }
    /// The text view's width: where its text wraps (tests).
    @_spi(Testing) public var inputWidth: Int { Int(gtk_widget_get_width(ui.textView)) }
    /// Where the input's bottom edge is in the window (tests).
    @_spi(Testing) public var inputBottom: Int {
        var x = 0.0, y = 0.0
        gtk_widget_translate_coordinates(ui.inputScroller, ui.window, 0, Double(gtk_widget_get_height(ui.inputScroller)), &x, &y)
        return Int(y)
    }
    @_spi(Testing) public var bufferText: String { ui.buffer.text }
    /// The text view's input method context (tests watch it being finalized).
    @_spi(Testing) public var inputMethodContext: UnsafeMutableRawPointer? { inputMethod.contextPointer }
    @_spi(Testing) public var messageListShowsNewest: Bool { ui.messageList.isScrolledToBottom }
    @_spi(Testing) public var messageListScrollValue: Double {
        get { ui.messageList.scrollValue }
        set { ui.messageList.scrollValue = newValue }
    }
    @_spi(Testing) public var inputMaximumHeight: Int { Int(gtk_scrolled_window_get_max_content_height(opaque(ui.inputScroller))) }
    /// The input's vertical scroll: its position, the text's height and the input's (tests).
    @_spi(Testing) public var inputScroll: (value: Double, upper: Double, pageSize: Double) {
        let adjustment = gtk_scrolled_window_get_vadjustment(opaque(ui.inputScroller))
        return (gtk_adjustment_get_value(adjustment), gtk_adjustment_get_upper(adjustment),
                gtk_adjustment_get_page_size(adjustment))
    }
    /// Runs what the frame that gives the input a new height runs after GTK allocated it
    /// (`InputSizer.endScrollWhileGrowing`), on the adjustment as the test left it.
    @_spi(Testing) public func endInputScrollAsInAGrowthFrame() { ui.inputSizer.endScrollWhileGrowing() }
    /// Scrolls the input to `value` as dragging its scroll bar does (tests).
    @_spi(Testing) public func scrollInput(to value: Double) {
        gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(opaque(ui.inputScroller)), value)
    }
    /// Whether the input still follows the end of the draft it was given (`StartAtEnd`).
    @_spi(Testing) public var inputFollowsEnd: Bool { ui.inputSizer.followsEnd }

    /// Turns the simulated keyboard on or off (the toggle's action; for tests too).
    @_spi(Testing) public func setSimulatedKeyboard(_ on: Bool) {
        actions.request(.simulatedKeyboard, on)
    }

    /// Whether the simulated keyboard's toggle shows it up.
    @_spi(Testing) public var simulatedKeyboardToggleActive: Bool { gtk_toggle_button_get_active(cast(ui.keyboardToggle)) != 0 }

    /// The window's X11 id once realized on X11 (for tests that send it keys), else nil.
    @_spi(Testing) public var x11WindowID: String? {
        let id = cgtk_x11_window_id(ui.window)
        return id == 0 ? nil : String(id)
    }

    /// The current layout (for tests).
    @_spi(Testing) public var layout: Layout? { panelLayout.layout }
    /// What GTK allocated: list, completion, indicator, toolbar, input, keyboard.
    @_spi(Testing) public var allocatedHeights: [Int] { panelLayout.allocatedHeights }
    @_spi(Testing) public var caretToolbarShown: Bool { gtk_widget_get_visible(ui.caretToolbar) != 0 }
    @_spi(Testing) public var typingIndicatorShown: String? {
        gtk_widget_get_visible(ui.typingIndicator) != 0 ? string(fromBorrowed: gtk_label_get_text(opaque(ui.typingIndicator))) : nil
    }
    /// Presses caret toolbar button `direction` (for tests; a real click does the same).
    @_spi(Testing) public func pressCaretButton(_ direction: CaretDirection, extend: Bool = false) {
        guard !model.isComposing else { return }  // the buttons are insensitive then
        caretToolbar?.press(direction, extend: extend)
    }
    /// The input bar (the input's frame, the toggles, Send) and the input's frame, to see what
    /// they draw (tests).
    @_spi(Testing) public var inputBarWidgets: (bar: UnsafeMutablePointer<GtkWidget>, frame: UnsafeMutablePointer<GtkWidget>) {
        (ui.inputBar, ui.inputScroller)
    }
    /// The limit's row (hint, counter, Trim), to see what it draws (tests).
    @_spi(Testing) public var limitRowWidget: UnsafeMutablePointer<GtkWidget> { ui.limitIndicators.row }
    /// The completion list's slot, to see what it draws (tests).
    @_spi(Testing) public var completionListWidget: UnsafeMutablePointer<GtkWidget> { ui.completionList.container }
    /// The message list's scrolled window, to see what it draws (tests).
    @_spi(Testing) public var messageListWidget: UnsafeMutablePointer<GtkWidget> { ui.messageList.scrolledWindow }
    /// Allocated heights of the input bar and the panel (for tests).
    @_spi(Testing) public var inputBarAllocation: (top: Double, height: Int)? {
        var x = 0.0, y = 0.0
        guard gtk_widget_translate_coordinates(ui.inputBar, ui.panel, 0, 0, &x, &y) != 0 else { return nil }
        return (y, Int(gtk_widget_get_height(ui.inputBar)))
    }
    @_spi(Testing) public var panelHeight: Int { Int(gtk_widget_get_height(ui.panel)) }

    /// The panel the layout solver sizes (tests measure it).
    @_spi(Testing) public var panel: UnsafeMutablePointer<GtkWidget> { ui.panel }

    /// The caret toolbar's `direction` button.
    @_spi(Testing) public func caretButton(_ direction: CaretDirection) -> UnsafeMutablePointer<GtkWidget> {
        ui.caretButtons.first { $0.0 == direction }!.1
    }
    /// The input bar's toggles: the IME inspector's and the caret toolbar's.
    @_spi(Testing) public var inspectorToggle: UnsafeMutablePointer<GtkWidget> { ui.inspectorToggle }
    @_spi(Testing) public var caretToolbarToggle: UnsafeMutablePointer<GtkWidget> { ui.toolbarToggle }
    /// Where `widget`'s center is, in window coordinates (for tests that click).
    @_spi(Testing) public func center(of widget: UnsafeMutablePointer<GtkWidget>) -> (x: Double, y: Double)? {
        var x = 0.0, y = 0.0
        let width = Double(gtk_widget_get_width(widget)), height = Double(gtk_widget_get_height(widget))
        guard width > 0, gtk_widget_translate_coordinates(widget, ui.window, width / 2, height / 2, &x, &y) != 0 else { return nil }
        return (x, y)
    }

    /// Where the shown completion row `row` is, in window coordinates (for tests that click).
    @_spi(Testing) public func completionRowCenter(_ row: Int) -> (x: Double, y: Double)? {
        ui.completionList.rowCenter(row, in: ui.window)
    }

    /// The completion rows as shown (for tests).
    @_spi(Testing) public var completionTitlesShown: [String] { ui.completionList.isShown ? ui.completionList.shownTitles : [] }
    /// The completion rows' details as shown (for tests).
    @_spi(Testing) public var completionDetailsShown: [String] { ui.completionList.isShown ? ui.completionList.shownDetails : [] }
    /// The shown completion rows' widgets (for tests that check rows are reused, not rebuilt).
    @_spi(Testing) public var completionRowWidgets: [UnsafeMutablePointer<GtkWidget>] {
        ui.completionList.isShown ? ui.completionList.shownRows : []
    }
    /// The height the layout reserves for each completion row (for tests: it must be the
    /// rows' real height).
    @_spi(Testing) public var completionRowHeight: Int { ui.completionList.rowHeight }
    /// The bold runs of the shown completion titles, read back from the labels (for tests).
    @_spi(Testing) public var completionTitleHighlightsShown: [[Range<Int>]] {
        ui.completionList.isShown ? ui.completionList.shownTitleHighlights : []
    }

    /// The ranges the buffer's highlight tag of `kind` covers (for tests).
    @_spi(Testing) public func highlightedRanges(_ kind: HighlightKind) -> [Range<Int>] { ui.buffer.ranges(of: ui.tags.highlights[kind]!) }

    /// The invisible controls the buffer's tag marks (for tests).
    @_spi(Testing) public var controlMarkedRanges: [Range<Int>] { ui.buffer.ranges(of: ui.tags.control) }
    /// The invisible-control tag (tests read its properties and what it draws).
    @_spi(Testing) public var controlTag: UnsafeMutablePointer<GtkTextTag> { ui.tags.control }
    /// The sent messages' labels' Pango attributes, serialized (for tests).
    @_spi(Testing) public var sentMessageAttributesShown: [String] { ui.messageList.shownAttributes }

    /// The committed text's overflow as the buffer's tag shows it (for tests).
    @_spi(Testing) public var overflowTaggedRanges: [Range<Int>] { ui.buffer.ranges(of: ui.tags.overflow) }
    /// Whether the text tags are coloured for a dark theme (nil before the first time).
    @_spi(Testing) public var tagsStyledForDarkStyle: Bool? { ui.tags.styled?.appearance.dark }

    /// Whether the overflow tag sets `property` ("underline-set", "background-set") (tests).
    @_spi(Testing) public func overflowTagSets(_ property: String) -> Bool {
        cgtk_object_get_int(ui.tags.overflow, property) != 0
    }

    /// The overflow tag's text colour as GTK holds it ("rgb(192,28,40)") (tests).
    @_spi(Testing) public var overflowTagColor: String {
        var value = GValue()
        g_value_init(&value, gdk_rgba_get_type())
        g_object_get_property(cast(ui.tags.overflow), "foreground-rgba", &value)
        defer { g_value_unset(&value) }
        guard let rgba = g_value_get_boxed(&value) else { return "" }
        let text = gdk_rgba_to_string(rgba.assumingMemoryBound(to: GdkRGBA.self))!
        defer { g_free(text) }
        return String(cString: text)
    }
    @_spi(Testing) public var limitHintShown: String? {
        gtk_widget_get_visible(ui.limitIndicators.limitHint) != 0 ? string(fromBorrowed: gtk_label_get_text(opaque(ui.limitIndicators.limitHint))) : nil
    }
    @_spi(Testing) public var trimButtonShown: Bool { gtk_widget_get_visible(ui.limitIndicators.trimButton) != 0 }
    /// The counter as screen readers get it (its status's accessible name).
    @_spi(Testing) public var counterSpoken: String? { ui.limitIndicators.shownCounterSpoken }
    /// The input's accessible description (the hint, the selected suggestion), or nil.
    @_spi(Testing) public var inputDescription: String? { ui.announcements.description }
    @_spi(Testing) public var counterClasses: Set<String> {
        Set(["error", "provisional"].filter { gtk_widget_has_css_class(ui.limitIndicators.counterLabel, $0) != 0 })
    }
}
