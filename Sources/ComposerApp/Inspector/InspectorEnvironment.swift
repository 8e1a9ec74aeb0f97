import CGtk
import ComposerCore
import EnvironmentProbe
import Foundation
import GtkBinding

/// The inspector's header: where the app runs and which input method it talks to — the GDK
/// backend, the IM module GTK actually uses, GTK's version, the keyboard layout, and the
/// IBus global engine or the Fcitx5 input method when they answer — refreshed every two
/// seconds while the inspector is shown (asked off the main thread: a daemon that hangs
/// must not freeze the window).
final class InspectorEnvironment {
    private let textView: UnsafeMutablePointer<GtkWidget>
    private let sources: SourceGroup
    private let show: ([String]) -> Void
    /// The doctor's questions, asked the same way; two seconds each, system tools first.
    private let questions = SessionQuestions(environment: ProcessInfo.processInfo.environment, timeout: 2,
                                             systemToolsFirst: true)
    private var timer: UInt32?
    private var asking = false
    private var layout: String?
    private var engines: [(String, String)] = []
    /// Whether the daemons answered once (until then the engine in use is not known).
    private(set) var hasAnswered = false

    /// While true, the engines are asked again every two seconds.
    var watching = false {
        didSet {
            guard watching != oldValue else { return }
            sources.remove(timer)
            timer = nil
            if watching {
                refresh()
                timer = sources.timeout(milliseconds: 2_000) { [weak self] in
                    self?.refresh()
                    return true
                }
            }
        }
    }

    init(textView: UnsafeMutablePointer<GtkWidget>, sources: SourceGroup, show: @escaping ([String]) -> Void) {
        self.textView = textView
        self.sources = sources
        self.show = show
    }

    /// Name–value pairs, for the header and the bug report.
    var facts: [(String, String)] {
        var facts = [
            ("GDK backend", DisplayEnvironment.backend),
            ("IM module", moduleInUse),
            ("GTK", "\(gtk_get_major_version()).\(gtk_get_minor_version()).\(gtk_get_micro_version())"),
        ]
        if let layout { facts.append(("keyboard layout", layout)) }
        if !hasAnswered { facts.append(("input method", "being asked")) }
        return facts + engines
    }

    /// The engine keys go to now, for the Timing view's per-engine sections: "IBus anthy",
    /// "Fcitx5 hangul", else the IM module in use.
    var engineName: String {
        for (name, value) in engines {
            if name == "IBus engine" { return "IBus \(value)" }
            if name == "Fcitx5 input method" { return "Fcitx5 \(value)" }
        }
        return moduleInUse
    }

    /// The module the text view's GtkIMMulticontext delegates to now (GTK_IM_MODULE and
    /// settings only say what was asked for).
    private var moduleInUse: String {
        guard let context = InputMethodContext(textView: textView) else { return "none" }
        let inUse = context.moduleID
        let requested = DisplayEnvironment.requestedInputMethodModule
        return inUse.isEmpty ? "\(requested) (requested; none active yet)" : inUse + (inUse == requested ? "" : " (requested: \(requested))")
    }

    private func refresh() {
        show(facts.map { "\($0.0): \($0.1)" })
        guard !asking else { return }
        asking = true
        let askLayout = layout == nil && DisplayEnvironment.backend == "x11"
        let questions = questions
        MainLoop.offMainThread({ () -> EngineAnswers in
            let fcitx5: String?
            if case .success(_?) = questions.bus.nameOwner("org.fcitx.Fcitx5") {
                fcitx5 = (try? questions.fcitx5InputMethod().get()) ?? nil
            } else {
                fcitx5 = nil
            }
            return EngineAnswers(layout: askLayout ? questions.keyboardLayout() : nil,
                                 ibus: (try? questions.ibusEngine().get()) ?? nil, fcitx: fcitx5)
        }, then: { [weak self] answers in
            guard let self else { return }
            asking = false
            hasAnswered = true
            if let layout = answers.layout { self.layout = layout }
            engines = []
            if let ibus = answers.ibus, !ibus.isEmpty { engines.append(("IBus engine", ibus)) }
            if let fcitx = answers.fcitx, !fcitx.isEmpty { engines.append(("Fcitx5 input method", fcitx)) }
            if engines.isEmpty { engines.append(("input method daemon", "neither IBus nor Fcitx5 answers")) }
            show(facts.map { "\($0.0): \($0.1)" })
        })
    }

    private struct EngineAnswers: Sendable {
        let layout: String?
        let ibus: String?
        let fcitx: String?
    }
}
