import CGtk

/// How an input method styles a run of its preedit (what Pango attributes say).
public struct PreeditAttributeRun: Equatable, Sendable {
    public enum Underline: Sendable { case single, double }
    /// UTF-8 byte offsets into the preedit string, as Pango gives them.
    public var start: Int
    public var end: Int
    public var underline: Underline?
    public var background = false
    public var foreground = false
    public var bold = false
    public var strikethrough = false
}

/// The input method's current composition, read with `gtk_im_context_get_preedit_string`.
public struct PreeditString: Equatable, Sendable {
    public var text: String
    /// In characters (Unicode scalars), unlike the byte-based attribute runs.
    public var cursor: Int
    public var runs: [PreeditAttributeRun]
}

/// Everything an input method tells the text view, in the order it happens.
public enum InputMethodEvent {
    case preeditStart
    case preeditChanged(PreeditString)
    case preeditEnd
    /// Seen by an emission hook before the text view inserts the text.
    case commitWillInsert(String)
    /// After the text view inserted it.
    case commitDidInsert(String)
    case retrieveSurrounding
    /// Seen before the text view deletes: offset and count are in characters from the cursor.
    case deleteSurrounding(offset: Int, count: Int)
}

public struct InputMethodContextError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The GtkIMContext a GtkTextView uses, and its signals.
///
/// The context is public through the view's GtkEventControllerKey
/// (`gtk_event_controller_key_get_im_context`); it is a GtkIMMulticontext that forwards
/// whatever the active module (IBus, Fcitx5, the simple context) emits.
public final class InputMethodContext {
    public let pointer: UnsafeMutablePointer<GtkIMContext>
    private let reference: ObjectRef

    /// The IM context of `textView`, or nil if the view has none (never with GTK 4.8).
    public init?(textView: some GPointer) {
        guard let context = Self.findContext(of: textView) else { return nil }
        pointer = context
        reference = ObjectRef(retaining: context)
    }

    private static func findContext(of widget: some GPointer) -> UnsafeMutablePointer<GtkIMContext>? {
        let controllers = gtk_widget_observe_controllers(cast(widget))!
        defer { g_object_unref(controllers.rawPointer) }
        let keyType = gtk_event_controller_key_get_type()
        for index in 0..<g_list_model_get_n_items(controllers) {
            guard let item = g_list_model_get_item(controllers, index) else { continue }
            defer { g_object_unref(item) }
            guard isInstance(item, of: keyType),
                  let context = gtk_event_controller_key_get_im_context(opaque(item)) else { continue }
            return context
        }
        return nil
    }

    /// Ends the composition on screen the way focus loss does: focus out (the input method
    /// commits or clears its preedit, as it does when the window loses focus), then focus
    /// in again (the view still has focus). For a preedit no engine stands behind any
    /// more, which a reset does not end.
    public func finishComposition() {
        gtk_im_context_focus_out(pointer)
        gtk_im_context_focus_in(pointer)
    }

    /// Stops answering the input method's requests for the text around the caret and its
    /// requests to delete around it, as an app without that support does (many terminals,
    /// Electron apps): the text view's own handlers are blocked, so a request returns
    /// FALSE and a deletion does nothing. Emission hooks still see every request.
    ///
    /// Throws when the text view's handlers are not where GTK 4.8 puts them (connected on
    /// this context with the view as their data): then the switch would silently do nothing.
    public func refuseSurrounding(of textView: some GPointer) throws(InputMethodContextError) {
        let type = gtk_im_context_get_type()
        for name in ["retrieve-surrounding", "delete-surrounding"] {
            let id = g_signal_lookup(name, type)
            let mask = GSignalMatchType(rawValue: G_SIGNAL_MATCH_ID.rawValue | G_SIGNAL_MATCH_DATA.rawValue)
            let blocked = g_signal_handlers_block_matched(pointer.rawPointer, mask, id, 0, nil, nil, textView.rawPointer)
            guard blocked > 0 else {
                throw InputMethodContextError("the text view has no \(name) handler on its IM context to block")
            }
        }
    }

    /// The text around the caret the context would hand the input method now (nil: none),
    /// and the caret in it as a UTF-8 byte index (`gtk_im_context_get_surrounding_with_selection`).
    public var surroundingForInputMethod: (text: String, cursorByte: Int)? {
        var text: UnsafeMutablePointer<CChar>?
        var cursor: Int32 = 0, anchor: Int32 = 0
        guard gtk_im_context_get_surrounding_with_selection(pointer, &text, &cursor, &anchor) != 0 else { return nil }
        return (GtkBinding.string(takingOwnership: text), Int(cursor))
    }

    /// The IM module in use ("ibus", "fcitx", "wayland", "gtk-im-context-simple", …).
    public var moduleID: String { string(fromBorrowed: gtk_im_multicontext_get_context_id(cast(pointer))) }

    /// The text of the composition the context shows now ("" when none).
    public var preeditText: String { Self.preedit(of: pointer).text }

    /// Delivers every event to `handler`. Commit and surrounding requests are observed with
    /// emission hooks because the text view's handlers run first and may stop the emission.
    public func observe(_ handler: @escaping (InputMethodEvent) -> Void) {
        let context = pointer
        onSignal(context, "preedit-start") { handler(.preeditStart) }
        onSignal(context, "preedit-changed") { [context] in
            handler(.preeditChanged(Self.preedit(of: context)))
        }
        onSignal(context, "preedit-end") { handler(.preeditEnd) }
        onStringSignal(context, "commit") { handler(.commitDidInsert($0)) }
        let type = gtk_im_context_get_type()
        observeEmissions(of: "commit", definedOn: type, instance: context) { params in
            handler(.commitWillInsert(params.string(1)))
        }
        observeEmissions(of: "retrieve-surrounding", definedOn: type, instance: context) { _ in
            handler(.retrieveSurrounding)
        }
        observeEmissions(of: "delete-surrounding", definedOn: type, instance: context) { params in
            handler(.deleteSurrounding(offset: Int(params.int(1)), count: Int(params.int(2))))
        }
    }

    private static func preedit(of context: UnsafeMutablePointer<GtkIMContext>) -> PreeditString {
        var text: UnsafeMutablePointer<CChar>?
        var attributes: OpaquePointer?
        var cursor: Int32 = 0
        gtk_im_context_get_preedit_string(context, &text, &attributes, &cursor)
        let string = GtkBinding.string(takingOwnership: text)
        var runs: [PreeditAttributeRun] = []
        if let attributes {
            runs = attributeRuns(attributes, byteLength: string.utf8.count)
            pango_attr_list_unref(attributes)
        }
        return PreeditString(text: string, cursor: Int(cursor), runs: runs)
    }

    /// Walks a PangoAttrList as consecutive ranges with the styles in force over each.
    private static func attributeRuns(_ list: OpaquePointer, byteLength: Int) -> [PreeditAttributeRun] {
        var runs: [PreeditAttributeRun] = []
        guard let iterator = pango_attr_list_get_iterator(list) else { return runs }
        defer { pango_attr_iterator_destroy(iterator) }
        repeat {
            var start: Int32 = 0, end: Int32 = 0
            pango_attr_iterator_range(iterator, &start, &end)
            let lower = min(Int(start), byteLength), upper = min(Int(end), byteLength)
            guard lower < upper else { continue }
            var run = PreeditAttributeRun(start: lower, end: upper)
            if let underline = pango_attr_iterator_get(iterator, PANGO_ATTR_UNDERLINE) {
                switch PangoUnderline(UInt32(cgtk_attr_int_value(underline))) {
                case PANGO_UNDERLINE_NONE: break
                case PANGO_UNDERLINE_DOUBLE, PANGO_UNDERLINE_DOUBLE_LINE: run.underline = .double
                default: run.underline = .single
                }
            }
            run.background = pango_attr_iterator_get(iterator, PANGO_ATTR_BACKGROUND) != nil
            run.foreground = pango_attr_iterator_get(iterator, PANGO_ATTR_FOREGROUND) != nil
            if let weight = pango_attr_iterator_get(iterator, PANGO_ATTR_WEIGHT) {
                run.bold = cgtk_attr_int_value(weight) >= Int32(PANGO_WEIGHT_BOLD.rawValue)
            }
            if let strike = pango_attr_iterator_get(iterator, PANGO_ATTR_STRIKETHROUGH) {
                run.strikethrough = cgtk_attr_int_value(strike) != 0
            }
            runs.append(run)
        } while pango_attr_iterator_next(iterator) != 0
        return runs
    }
}
