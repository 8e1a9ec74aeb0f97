import CGtk
import ComposerCore
import GtkBinding

/// The window's view of its input method: the text view's IM context, the module drawing
/// in it, the commits it made, when it last acted (for keys a Wayland input method passes
/// on) and whether its daemon is still on the session bus. Everything it sees goes to the
/// composer as an `InputEvent` (`report`); it decides nothing, and keeps its state to itself.
final class InputMethodObserver {
    /// How a finished composition went: the window types what was drawn only when the
    /// module neither committed it nor still draws it.
    struct Finish: Equatable {
        /// The module committed text while finishing.
        var committed: Bool
        /// The module still draws a composition afterwards.
        var stillDrawn: Bool
    }

    private var context: InputMethodContext?
    private let report: (InputEvent) -> Void
    /// Commits the input method made so far (`finishComposition` tells by it whether the
    /// module committed the orphaned composition itself).
    private var commits = 0
    /// The IM module last told to the composer (`.inputMethodModuleChanged`).
    private var module: InputMethodModule?
    /// Tells the keys a Wayland input method passed on after committing (`ForwardedKeyClock`).
    private var forwardedKeys = ForwardedKeyClock(enabled: DisplayEnvironment.backend == "wayland")
    /// ibus-daemon's and fcitx5's names on the session bus.
    private var daemons: [BusNameWatch] = []

    /// Observes the IM context of `textView` and the input method daemons on the session bus.
    init(textView: UnsafeMutablePointer<GtkWidget>, report: @escaping (InputEvent) -> Void) {
        self.report = report
        context = InputMethodContext(textView: textView)
        context?.observe { [weak self] event in self?.observed(event) }
        watchDaemons()
    }

    /// `--surrounding off`: the input method is answered no surrounding text (`InputMethodContext.refuseSurrounding`).
    func refuseSurrounding(of textView: UnsafeMutablePointer<GtkWidget>) throws {
        try context?.refuseSurrounding(of: textView)
    }

    /// What the IM context would answer a request for surrounding text now (tests).
    var surroundingForInputMethod: (text: String, cursorByte: Int)? { context?.surroundingForInputMethod }

    /// The IM context's own pointer (tests).
    var contextPointer: UnsafeMutableRawPointer? { context?.pointer.rawPointer }

    /// The GTK IM module in use (`gtk-im-module`'s id), if any.
    var moduleID: String? { context?.moduleID }

    /// Whether the input method acted after an event stamped `eventTime` was made: a key it
    /// was given first and passed on, or a press the compositor reset it for before passing
    /// the press on (`ForwardedKeyClock`).
    func actedAfter(eventTime: UInt32) -> Bool {
        forwardedKeys.inputMethodActedAfter(eventTime: eventTime, now: monotonicMilliseconds())
    }

    /// Asks the module to end its composition (commit it or drop it, as the module does) and
    /// says how that went; nil when there is no IM context.
    func finishComposition() -> Finish? {
        guard let context else { return nil }
        let before = commits
        context.finishComposition()
        return Finish(committed: commits != before, stillDrawn: !context.preeditText.isEmpty)
    }

    /// The window is gone: nothing is observed any more.
    func stop() {
        context = nil
        daemons = []
    }

    private func observed(_ event: InputMethodEvent) {
        switch event {
        case .preeditChanged, .preeditEnd, .commitWillInsert:
            if forwardedKeys.enabled { forwardedKeys.inputMethodActed(at: monotonicMilliseconds()) }
        default: break
        }
        switch event {
        case .preeditStart:
            // The module drawing it (GTK picks it at focus in, and may change it). Read
            // through `self`: the context keeps this closure, which must not keep it.
            if let id = moduleID, InputMethodModule(id: id) != module {
                let module = InputMethodModule(id: id)
                self.module = module
                report(.inputMethodModuleChanged(module))
            }
            report(.preeditStarted)
        case .preeditChanged(let preedit): report(.preeditChanged(Preedit(preedit)))
        case .preeditEnd: report(.preeditEnded)
        case .commitWillInsert(let text):
            commits += 1
            report(.commitStarted(text))
        case .commitDidInsert: report(.commitEnded)
        case .retrieveSurrounding: report(.surroundingRetrieved)
        case let .deleteSurrounding(offset, count): report(.surroundingDeleted(offset: offset, count: count))
        }
    }

    /// An input method daemon that dies mid-composition leaves its GTK module showing the
    /// preedit forever (no preedit-end; seen with ibus-daemon and fcitx5 killed): its name
    /// leaving the session bus is the sign. Watched without D-Bus activation; only a name
    /// that had an owner and lost it counts.
    private func watchDaemons() {
        daemons = ["org.freedesktop.IBus", "org.fcitx.Fcitx5"].map { name in
            var owned = false
            return BusNameWatch(name: name) { [weak self] nowOwned in
                defer { owned = nowOwned }
                if owned, !nowOwned { self?.report(.inputMethodLost(name: name)) }
            }
        }
    }
}
