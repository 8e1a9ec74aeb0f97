import CGtk

/// A GtkTextBuffer addressed by character offsets.
///
/// GtkTextBuffer counts characters as Unicode scalars (code points), the same unit the
/// core and the trace use, so offsets pass through unchanged. GtkTextIters are only valid
/// until the next change; this wrapper never hands one out beyond a single call.
public struct TextBuffer {
    public let pointer: UnsafeMutablePointer<GtkTextBuffer>

    public init(_ pointer: UnsafeMutablePointer<GtkTextBuffer>) { self.pointer = pointer }

    public var characterCount: Int { Int(gtk_text_buffer_get_char_count(pointer)) }

    /// The whole text (never contains preedit: GtkTextView keeps that out of the buffer).
    public var text: String {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(pointer, &start, &end)
        return slice(&start, &end)
    }

    public func slice(_ start: UnsafePointer<GtkTextIter>, _ end: UnsafePointer<GtkTextIter>) -> String {
        string(takingOwnership: gtk_text_buffer_get_slice(pointer, start, end, 1))
    }

    public func iter(at offset: Int) -> GtkTextIter {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(pointer, &iter, Int32(clamping: offset))
        return iter
    }

    /// (anchor, caret): the selection-bound and insert marks' offsets.
    public var selection: (anchor: Int, caret: Int) {
        var caret = GtkTextIter(), anchor = GtkTextIter()
        gtk_text_buffer_get_iter_at_mark(pointer, &caret, gtk_text_buffer_get_insert(pointer))
        gtk_text_buffer_get_iter_at_mark(pointer, &anchor, gtk_text_buffer_get_selection_bound(pointer))
        return (Int(gtk_text_iter_get_offset(&anchor)), Int(gtk_text_iter_get_offset(&caret)))
    }

    public func select(anchor: Int, caret: Int) {
        var insert = iter(at: caret), bound = iter(at: anchor)
        gtk_text_buffer_select_range(pointer, &insert, &bound)
    }

    public func replaceAll(with text: String) {
        gtk_text_buffer_set_text(pointer, text, -1)
    }

    /// Inserts at the caret, replacing the selection, as typing would (respects editability).
    public func insertAtCaret(_ text: String) {
        gtk_text_buffer_begin_user_action(pointer)
        _ = gtk_text_buffer_delete_selection(pointer, 1, 1)
        _ = gtk_text_buffer_insert_interactive_at_cursor(pointer, text, -1, 1)
        gtk_text_buffer_end_user_action(pointer)
    }

    /// Deletes `range` (character offsets) as one undoable step.
    public func delete(_ range: Range<Int>) {
        var start = iter(at: range.lowerBound), end = iter(at: range.upperBound)
        gtk_text_buffer_begin_user_action(pointer)
        gtk_text_buffer_delete(pointer, &start, &end)
        gtk_text_buffer_end_user_action(pointer)
    }

    /// Replaces `range` with `text` as one undoable step.
    public func replace(_ range: Range<Int>, with text: String) {
        gtk_text_buffer_begin_user_action(pointer)
        var start = iter(at: range.lowerBound), end = iter(at: range.upperBound)
        gtk_text_buffer_delete(pointer, &start, &end)
        gtk_text_buffer_insert(pointer, &start, text, -1)
        gtk_text_buffer_end_user_action(pointer)
    }

    /// Creates a tag in the buffer's tag table (owned by the table).
    public func createTag(named name: String) -> UnsafeMutablePointer<GtkTextTag> {
        let tag = gtk_text_tag_new(name)!
        gtk_text_tag_table_add(gtk_text_buffer_get_tag_table(pointer), tag)
        g_object_unref(tag.rawPointer)
        return tag
    }

    /// Puts `tag` on `range`, and does nothing when every character there carries it already:
    /// GTK would still emit "apply-tag" and invalidate the range's lines, dropping the
    /// paragraph layout the text view has just built for the caret. Typed text inherits the
    /// tags around it, so text typed into the overflow is usually tagged already.
    public func applyTag(_ tag: UnsafeMutablePointer<GtkTextTag>, to range: Range<Int>) {
        guard !range.isEmpty else { return }
        var start = iter(at: range.lowerBound)
        guard !tagCovers(tag, from: start, through: range.upperBound) else { return }
        var end = iter(after: start, at: range.upperBound)
        gtk_text_buffer_apply_tag(pointer, tag, &start, &end)
    }

    /// The iterator at `offset`, from `start` (before it) when that is near: a typed
    /// character's range is found once, not looked up twice from the top of the B-tree.
    private func iter(after start: GtkTextIter, at offset: Int) -> GtkTextIter {
        var start = start
        let distance = offset - Int(gtk_text_iter_get_offset(&start))
        guard distance <= 64 else { return iter(at: offset) }
        gtk_text_iter_forward_chars(&start, Int32(distance))
        return start
    }

    /// Takes `tag` off `range`, and does nothing when no character there carries it: GTK
    /// would still emit "remove-tag" and queue the range for redisplay (for a tag that
    /// changes sizes, a new layout of its lines) — on every keystroke, since the settle
    /// controllers clear freshly typed text of tags it may have inherited.
    public func removeTag(_ tag: UnsafeMutablePointer<GtkTextTag>, from range: Range<Int>) {
        guard hasTag(tag, in: range) else { return }
        var start = iter(at: range.lowerBound), end = iter(at: range.upperBound)
        gtk_text_buffer_remove_tag(pointer, tag, &start, &end)
    }

    /// Whether some character in `range` carries `tag`. Walks to the tag's next toggle,
    /// which the B-tree's per-node tag summaries make cheap in a long text.
    public func hasTag(_ tag: UnsafeMutablePointer<GtkTextTag>, in range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return false }
        var position = iter(at: range.lowerBound)
        if gtk_text_iter_has_tag(&position, tag) != 0 { return true }
        guard gtk_text_iter_forward_to_tag_toggle(&position, tag) != 0 else { return false }
        return offset(of: &position) < range.upperBound
    }

    /// Whether every character in `range` carries `tag` (an empty range: yes). The run of
    /// the tag at the range's start ends at the tag's next toggle.
    public func tagCovers(_ tag: UnsafeMutablePointer<GtkTextTag>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return true }
        return tagCovers(tag, from: iter(at: range.lowerBound), through: range.upperBound)
    }

    private func tagCovers(_ tag: UnsafeMutablePointer<GtkTextTag>, from start: GtkTextIter, through end: Int) -> Bool {
        var position = start
        guard gtk_text_iter_has_tag(&position, tag) != 0 else { return false }
        guard gtk_text_iter_forward_to_tag_toggle(&position, tag) != 0 else { return true }
        return offset(of: &position) >= end
    }

    /// Takes `tag` off `remove`, then puts it on `add`: a controller's tag difference.
    public func retag(_ tag: UnsafeMutablePointer<GtkTextTag>, add: [Range<Int>], remove: [Range<Int>]) {
        for range in remove { removeTag(tag, from: range) }
        for range in add { applyTag(tag, to: range) }
    }

    /// The character ranges carrying `tag` (walks its toggles: for tests and diagnostics).
    public func ranges(of tag: UnsafeMutablePointer<GtkTextTag>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var iterator = iter(at: 0)
        var start: Int? = gtk_text_iter_has_tag(&iterator, tag) != 0 ? 0 : nil
        while gtk_text_iter_forward_to_tag_toggle(&iterator, tag) != 0 {
            let position = offset(of: &iterator)
            if let begin = start {
                if gtk_text_iter_ends_tag(&iterator, tag) != 0 { ranges.append(begin..<position); start = nil }
            } else if gtk_text_iter_starts_tag(&iterator, tag) != 0 {
                start = position
            }
        }
        if let begin = start { ranges.append(begin..<characterCount) }
        return ranges
    }

    /// Deletes everything as one step the user cannot undo (the text was sent).
    public func clearIrreversibly() {
        gtk_text_buffer_begin_irreversible_action(pointer)
        gtk_text_buffer_set_text(pointer, "", 0)
        gtk_text_buffer_end_irreversible_action(pointer)
    }
}

public func offset(of iter: UnsafePointer<GtkTextIter>) -> Int {
    Int(gtk_text_iter_get_offset(iter))
}
