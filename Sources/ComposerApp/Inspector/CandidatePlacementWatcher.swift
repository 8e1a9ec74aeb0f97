import CGtk
import ComposerCore
import GtkBinding

/// Reads, while it is on, where the text view tells its input method the caret is, what
/// the IM module sends, where the caret really is on the screen and where the input
/// method's candidate window went, and reports each reading as a `CandidatePlacement`
/// once they have been quiet for `quiet` milliseconds (the module's message and the panel's
/// window come after the caret moved: a reading taken between them would pair one caret
/// with another's rectangle). It decides nothing: which message answers the text view's
/// caret is `PlacementPairing`'s call, the composer traces a reading that changed and the
/// inspector's rules judge it.
///
/// On while the inspector is shown and with `--trace-placement`; off, it reads nothing
/// (GTK's calls still pass through the class wrapper, which then only calls GTK's own).
final class CandidatePlacementWatcher {
    /// The candidate windows' WM_CLASS names: IBus's panel (ibus-ui-gtk3) and Fcitx5's
    /// classic UI ("Fcitx5 Input Window").
    static let panelWindowNames: Set<String> = ["ibus-ui-gtk3", "fcitx"]

    private let textView: UnsafeMutablePointer<GtkWidget>
    private let context: UnsafeMutablePointer<GtkIMContext>?
    private let sources: SourceGroup
    private let moduleID: () -> String?
    private let report: (CandidatePlacement) -> Void
    private var pairing = PlacementPairing()
    private var pending: UInt32?
    static let quiet: UInt32 = 100
    private var screenWatch: gulong = 0
    /// The display `screenWatch` is connected on (the text view may be gone when it stops).
    private var watchedDisplay: OpaquePointer?
    /// The last reading, for the overlay.
    private(set) var last: CandidatePlacement?
    /// Called after each reading (the overlay redraws).
    var onReading: ((CandidatePlacement) -> Void)?

    private(set) var isOn = false

    init(textView: UnsafeMutablePointer<GtkWidget>, context: UnsafeMutableRawPointer?, sources: SourceGroup,
         moduleID: @escaping () -> String?, report: @escaping (CandidatePlacement) -> Void) {
        self.textView = textView
        self.context = context.map { $0.assumingMemoryBound(to: GtkIMContext.self) }
        self.sources = sources
        self.moduleID = moduleID
        self.report = report
    }

    func turn(on: Bool) {
        guard on != isOn, let context else { return }
        isOn = on
        if on {
            // Calls made while off were not seen: pair afresh.
            pairing = PlacementPairing(fcitxPath: pairing.fcitxPath)
            let ours = CursorLocations.identity(of: context)
            CursorLocations.observe { [weak self] call in
                guard let self else { return }
                guard call.context == ours else {
                    pairing.otherWidgetCalled()
                    return
                }
                // Read the module's messages before its next one (its module is known by now).
                watchWire()
                pairing.textViewCalled(rect: PixelRect(call.rect), ibusConnection: call.ibusConnection, ibusSerial: call.ibusSerial)
                schedule()
            }
            InputMethodWire.onSent { [weak self] sent in
                guard let self else { return }
                let origin: PlacementPairing.Origin = sent.fcitxPath.map { .fcitx5(path: $0) }
                    ?? .ibus(connection: sent.ibusConnection, serial: sent.ibusSerial ?? 0)
                let message = PlacementPairing.Message(via: sent.via, rect: PixelRect(sent.rect), origin: origin)
                let textView = textView
                if pairing.received(message, onScreen: { X11Screen.rootRect(of: ReadRect($0), in: textView).map(PixelRect.init) }) {
                    schedule()
                }
            }
            InputMethodWire.onFcitxKeySent { [weak self] path in
                guard let self else { return }
                pairing.keySent(fcitxPath: path, textViewHasFocus: gtk_widget_has_focus(textView) != 0)
            }
            watchWire()
            let display = gtk_widget_get_display(textView)!
            screenWatch = X11Screen.watchTopLevels(on: display) { [weak self] in self?.schedule() }
            watchedDisplay = display
            // The first reading comes with the text view's next call (its next caret move,
            // key or focus): a reading of what GTK gave, never a guess.
        } else {
            CursorLocations.stopObserving()
            sources.remove(pending)
            pending = nil
            if let watchedDisplay { X11Screen.stopWatchingTopLevels(on: watchedDisplay, handler: screenWatch) }
            screenWatch = 0
            watchedDisplay = nil
        }
    }

    /// The wire of the module in use, once it is loaded.
    private func watchWire() {
        switch moduleID() {
        case "ibus": InputMethodWire.watchIBus()
        case "fcitx", "fcitx5": InputMethodWire.watchFcitx5()
        default: break
        }
    }

    /// One reading once nothing changed for `quiet` ms, however many changes come before.
    private func schedule() {
        guard isOn else { return }
        sources.remove(pending)
        pending = sources.timeout(milliseconds: Self.quiet) { [weak self] in
            self?.pending = nil
            self?.read()
            return false
        }
    }

    private func read() {
        guard isOn, let given = pairing.given else { return }
        let scale = Int(gtk_widget_get_scale_factor(textView))
        var windowHeight: Int?
        if let native = gtk_widget_get_native(textView), let surface = gtk_native_get_surface(native) {
            windowHeight = Int(gdk_surface_get_height(surface)) * scale
        }
        // The given rectangle on the screen: what the module should have sent for it (the
        // caret computed from the text view now could already be the next one's).
        let caret = X11Screen.rootRect(of: ReadRect(given), in: textView)
        let popup = X11Screen.shownPopup(named: Self.panelWindowNames, on: gtk_widget_get_display(textView))
        let current = pairing.current
        let placement = CandidatePlacement(given: given, caret: caret.map(PixelRect.init),
                                           sent: current?.rect, via: current?.via,
                                           popup: popup.map(PixelRect.init), scale: scale, windowHeight: windowHeight)
        last = placement
        report(placement)
        onReading?(placement)
    }
}

extension PixelRect {
    init(_ rect: ReadRect) { self.init(x: rect.x, y: rect.y, width: rect.width, height: rect.height) }
}

extension ReadRect {
    init(_ rect: PixelRect) { self.init(x: rect.x, y: rect.y, width: rect.width, height: rect.height) }
}
