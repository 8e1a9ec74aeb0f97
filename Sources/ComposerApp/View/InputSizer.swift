import CGtk
import ComposerCore
import GtkBinding

/// Sizes the input to its text, up to six display lines, then it scrolls; it owns what it
/// measured last (`InputGrowth` in the core decides when to measure again).
final class InputSizer {
    private let textView: UnsafeMutablePointer<GtkWidget>
    private let inputScroller: UnsafeMutablePointer<GtkWidget>
    private let buffer: TextBuffer

    /// The text view's vertical adjustment (the scrolled window's).
    private let adjustment: UnsafeMutablePointer<GtkAdjustment>

    init(textView: UnsafeMutablePointer<GtkWidget>, inputScroller: UnsafeMutablePointer<GtkWidget>, buffer: TextBuffer) {
        self.textView = textView
        self.inputScroller = inputScroller
        self.buffer = buffer
        adjustment = gtk_scrolled_window_get_vadjustment(opaque(inputScroller))
    }

    /// Whether the input is kept at the end of its text (`StartAtEnd`): a draft given with
    /// the caret at its end, until the user's first input.
    private(set) var followsEnd = false
    private var followHandlers: [gulong] = []
    private var userScrollWatcher: OpaquePointer?

    /// Keeps the input at the very end of its text (its bottom margin shown) while GTK lays
    /// the draft out, from the first frame until `stopFollowingEnd`: each time the text's
    /// height (the adjustment's upper) or the input's (its page size) changes. The user
    /// scrolling or pressing on the scroll bar stops it here; every other input is an
    /// `InputEvent` (`StartAtEnd.endsFollowing`).
    func followEndUntilInput() {
        guard !followsEnd else { return }
        followsEnd = true
        let follow: () -> Void = { [weak self] in self?.showEnd() }
        followHandlers = [onNotify(adjustment, property: "upper", follow),
                          onNotify(adjustment, property: "page-size", follow)]
        let watcher = gtk_event_controller_legacy_new()!
        gtk_event_controller_set_propagation_phase(watcher, GTK_PHASE_CAPTURE)
        onPointerBoolSignal(watcher, "event") { [weak self] event in
            switch gdk_event_get_event_type(OpaquePointer(event)) {
            case GDK_BUTTON_PRESS, GDK_SCROLL, GDK_TOUCH_BEGIN, GDK_TOUCHPAD_SWIPE, GDK_TOUCHPAD_PINCH:
                self?.stopFollowingEnd()
            default: break
            }
            return false
        }
        gtk_widget_add_controller(inputScroller, watcher)
        userScrollWatcher = watcher
    }

    /// The user's first input: from now on the text view keeps its caret in view itself.
    func stopFollowingEnd() {
        guard followsEnd else { return }
        followsEnd = false
        for handler in followHandlers { g_signal_handler_disconnect(adjustment.rawPointer, handler) }
        followHandlers = []
        if let watcher = userScrollWatcher { gtk_widget_remove_controller(inputScroller, watcher) }
        userScrollWatcher = nil
    }

    /// Scrolls to the end of the text without animation (a value set ends any animation).
    private func showEnd() {
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
    }

    /// The scalar offset where the last walk over the display lines stopped, after the
    /// seventh; nil when the text had fewer. Edits past it cannot change the cap.
    private(set) var growthMeasuredThrough: Int?
    /// The height at which the input stops growing (six display lines), nil below that.
    private var growthCap: Int?
    /// `lastParagraphBottom()` when the input was last fitted.
    private var fittedLastParagraphBottom: Int?
    /// The edit log's sequence when the input's growth was last measured.
    private var fittedAtSequence = Int.min

    /// The input grows with its text in this frame: fitted to the edits `log` holds since
    /// the last call (the cap is measured again only when an edit could change it). The
    /// first call only notes where the log stands: the view measures itself once on screen.
    func fit(after log: EditLog) {
        if fittedAtSequence != Int.min, let editFrom = log.lowestEditStart(after: fittedAtSequence) {
            fit(editFrom: editFrom)
        }
        fittedAtSequence = log.lastSequence
    }

    /// Sizes the input exactly to its text, up to six display lines, then it scrolls.
    ///
    /// Why not let the scrolled window follow the text view's natural height: GTK learns a
    /// wrapped line's new height only when it validates the line while painting, so a
    /// line that wraps was drawn one frame in the old height. The display lines' heights
    /// are exact when asked for, before the frame, so the input grows in the frame that
    /// shows the new line.
    ///
    /// The display lines are walked again only when `InputGrowth.needsRemeasure` says an
    /// edit could have changed them: the last paragraph's own lines are laid out exactly,
    /// the paragraphs above keep their heights.
    func fit(editFrom: Int?) {
        // Asking an unallocated text view for line positions lays it out at width 0 and
        // leaves it collapsed: measure only once it is on screen (its first layout calls us).
        guard gtk_widget_get_mapped(textView) != 0, gtk_widget_get_width(textView) > 0,
              !InputGrowth.keepsCap(editFrom: editFrom, measuredThrough: growthMeasuredThrough) else { return }
        let (bottom, lastParagraphStart) = lastParagraphBottom()
        let walk = InputGrowth.needsRemeasure(editFrom: editFrom, lastParagraphStart: lastParagraphStart,
                                              bottomMoved: bottom != fittedLastParagraphBottom,
                                              measuredThrough: growthMeasuredThrough)
        fittedLastParagraphBottom = bottom
        guard walk else { return }
        let (bottoms, end) = displayLineBottoms(limit: 7)
        growthMeasuredThrough = end
        growthCap = InputGrowth.maximumHeight(displayLineBottoms: bottoms, verticalPadding: verticalPadding)
        let shown = growthCap ?? (bottoms.last ?? 0) + verticalPadding
        // GTK requires min ≤ max at every step: the old minimum goes first.
        gtk_scrolled_window_set_min_content_height(opaque(inputScroller), -1)
        gtk_scrolled_window_set_max_content_height(opaque(inputScroller), Int32(shown))
        gtk_scrolled_window_set_min_content_height(opaque(inputScroller), Int32(shown))
        // The content heights above count only with a scrolling policy (NEVER takes the text
        // view's own, lagging height). A possible scrollbar makes the scrolled window at least
        // a slider tall (~46 px, two lines): until the input is full it scrolls without one
        // (EXTERNAL); then with one.
        gtk_scrolled_window_set_policy(opaque(inputScroller), GTK_POLICY_NEVER,
                                       growthCap == nil ? GTK_POLICY_EXTERNAL : GTK_POLICY_AUTOMATIC)
        // Full, the input scrolls: a new height can leave the caret outside (a long draft
        // given at start), so show it. Not while it grows: the new height shows every line,
        // and GTK, still seeing the old height, would animate a scroll over the next frames.
        if growthCap != nil {
            if followsEnd {
                showEnd()
            } else {
                gtk_text_view_scroll_mark_onscreen(cast(textView), gtk_text_buffer_get_insert(buffer.pointer))
            }
        }
    }

    /// Gives a long draft's input its full height before the window is shown, or a little
    /// more (`InputGrowth.estimatedFullHeight` says when, how tall, and why never less); the
    /// first `fit` then sets the exact height.
    func prefit(draft: String) {
        guard gtk_widget_get_mapped(textView) == 0,
              let estimate = InputGrowth.estimatedFullHeight(draftBytes: draft.utf8.count,
                                                             lineHeight: tallestLine(of: InputGrowth.estimateSample(of: draft)),
                                                             verticalPadding: verticalPadding) else { return }
        gtk_scrolled_window_set_max_content_height(opaque(inputScroller), Int32(estimate))
        gtk_scrolled_window_set_min_content_height(opaque(inputScroller), Int32(estimate))
        gtk_scrolled_window_set_policy(opaque(inputScroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    }

    /// The height of the tallest line of `sample` laid out unwrapped with the text view's
    /// font (fallback fonts included), and at least the font's own line height.
    private func tallestLine(of sample: Substring) -> Int {
        var tallest = 0
        if let metrics = pango_context_get_metrics(gtk_widget_get_pango_context(textView), nil, nil) {
            tallest = Int((Double(pango_font_metrics_get_height(metrics)) / Double(PANGO_SCALE)).rounded(.up))
            pango_font_metrics_unref(metrics)
        }
        guard let layout = gtk_widget_create_pango_layout(textView, String(sample)) else { return tallest }
        defer { g_object_unref(layout.rawPointer) }
        guard let iterator = pango_layout_get_iter(layout) else { return tallest }
        defer { pango_layout_iter_free(iterator) }
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            tallest = max(tallest, Int((Double(logical.height) / Double(PANGO_SCALE)).rounded(.up)))
        } while pango_layout_iter_next_line(iterator) != 0
        return tallest
    }

    /// Ends any scroll of the input while it grows: it then shows all of its text, so there
    /// is nothing to scroll to. GTK does not know that when it handles the key that wraps a
    /// line: the caret is below the input's old height, so it starts a scroll animation
    /// (200 ms of frames that all look the same). Called in the layout phase that gives the
    /// input its new height, after GTK started it; a value set without animation ends it.
    ///
    /// Full (it scrolls), the caret is shown under the new height instead. GTK 4.8 lays out
    /// the lines a text view shows only when something invalidated it or it scrolled; a
    /// text view that grew does neither, and `gtk_text_layout_snapshot` then finds no line
    /// at the bottom of the new height and draws every line to the end of the buffer: a
    /// paste of 100,000 lines that grew the input made 200,000 text nodes, 5 s, in one
    /// frame. Nor does it update its page size while a scroll animates
    /// (`gtk_text_view_size_allocate` skips it), and the paste had started one for the old
    /// height. So: the adjustment takes the text view's height as its page size, the value
    /// is set anew (that ends the animation and clamps the value to the text: a value kept
    /// from the old page size showed past the validated lines, every line drawn again, when
    /// the input grew while the paste's scroll animated), the text view is told its value
    /// changed (it validates what its new height shows), and the caret scrolled into view.
    func endScrollWhileGrowing() {
        guard growthCap != nil else {
            gtk_adjustment_set_value(adjustment, 0)
            return
        }
        // The text view was allocated its new height earlier in this layout phase, while the
        // scroll still animated, and so kept the old page size: a value that was fine for it
        // now shows past the validated text, where GTK draws every line to the buffer's
        // end. The page takes the text view's height; the value set anew ends the animation
        // and is clamped to the text (upper − page size).
        let shown = Double(gtk_widget_get_height(textView))
        if shown > 0, gtk_adjustment_get_page_size(adjustment) != shown { gtk_adjustment_set_page_size(adjustment, shown) }
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment))
        cgtk_adjustment_emit_value_changed(adjustment)
        if followsEnd {
            showEnd()
            return
        }
        var caret = GtkTextIter()
        gtk_text_buffer_get_iter_at_mark(buffer.pointer, &caret, gtk_text_buffer_get_insert(buffer.pointer))
        gtk_text_view_scroll_to_iter(cast(textView), &caret, 0, 0, 0, 0)
    }

    /// The bottom of the text's last display line (exact for the last paragraph's own
    /// lines; the paragraphs above count with the heights GTK has for them), and the scalar
    /// offset where the last paragraph starts.
    private func lastParagraphBottom() -> (bottom: Int, lastParagraphStart: Int) {
        var end = GtkTextIter(), location = GdkRectangle()
        gtk_text_buffer_get_end_iter(buffer.pointer, &end)
        gtk_text_view_get_iter_location(cast(textView), &end, &location)
        gtk_text_iter_set_line_offset(&end, 0)
        return (Int(location.y + location.height), Int(gtk_text_iter_get_offset(&end)))
    }

    private var verticalPadding: Int {
        Int(gtk_text_view_get_top_margin(cast(textView)) + gtk_text_view_get_bottom_margin(cast(textView)))
    }

    /// Bottom y of the first `limit` display lines (wrapped lines count separately), as
    /// running sums of their heights: right after a change GTK has not validated the
    /// layout yet and reports estimated y positions, but each line's height is exact.
    /// Also: the offset where the walk stopped, when it stopped at `limit` lines.
    private func displayLineBottoms(limit: Int) -> (bottoms: [Int], stoppedAt: Int?) {
        var iter = GtkTextIter()
        gtk_text_buffer_get_start_iter(buffer.pointer, &iter)
        var bottoms: [Int] = []
        var location = GdkRectangle()
        func addLine() {
            gtk_text_view_get_iter_location(cast(textView), &iter, &location)
            bottoms.append((bottoms.last ?? 0) + Int(location.height))
        }
        while bottoms.count < limit {
            addLine()
            if gtk_text_view_forward_display_line(cast(textView), &iter) != 0 { continue }
            // GTK answers false at the last line, also when it moved onto a final empty line
            // after a trailing newline; that line is shown, so it counts.
            var previous = iter
            if gtk_text_iter_is_end(&iter) != 0, gtk_text_iter_backward_char(&previous) != 0,
               gtk_text_iter_get_char(&previous) == 0x0A, bottoms.count < limit {
                addLine()
            }
            return (bottoms, nil)
        }
        return (bottoms, Int(gtk_text_iter_get_offset(&iter)))
    }
}
