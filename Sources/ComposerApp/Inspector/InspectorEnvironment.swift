import CGtk
import ComposerCore
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
    private var timer: UInt32?
    private var asking = false
    private var layout: String?
    private var engines: [(String, String)] = []

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
        return facts + engines
    }

    /// The module the text view's GtkIMMulticontext delegates to now (GTK_IM_MODULE and
    /// settings only say what was asked for).
    private var moduleInUse: String {
        guard let context = InputMethodContext(textView: textView) else { return "none" }
        let inUse = string(fromBorrowed: gtk_im_multicontext_get_context_id(cast(context.pointer)))
        let requested = DisplayEnvironment.requestedInputMethodModule
        return inUse.isEmpty ? "\(requested) (requested; none active yet)" : inUse + (inUse == requested ? "" : " (requested: \(requested))")
    }

    private func refresh() {
        show(facts.map { "\($0.0): \($0.1)" })
        guard !asking else { return }
        asking = true
        let askLayout = layout == nil && DisplayEnvironment.backend == "x11"
        MainLoop.offMainThread({ () -> EngineAnswers in
            EngineAnswers(layout: askLayout ? Self.run("setxkbmap", ["-query"]).flatMap(Self.layout(fromQuery:)) : nil,
                          ibus: Self.run("ibus", ["engine"]).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) },
                          fcitx: Self.fcitxInputMethod())
        }, then: { [weak self] answers in
            guard let self else { return }
            asking = false
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

    /// Runs a tool (from /usr/bin first) with a two-second limit; its output, or nil when it
    /// failed or is missing.
    nonisolated private static func run(_ tool: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/usr/bin:/bin:" + (environment["PATH"] ?? "")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do { try process.run() } catch { return nil }
        if finished.wait(timeout: .now() + 2) == .timedOut {
            process.terminate()
            return nil
        }
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Fcitx5's current input method, if fcitx5 runs. Asked only when its name has an owner
    /// on the session bus: a plain call would start it through D-Bus activation
    /// (org.fcitx.Fcitx5.service), and a starting fcitx5 takes the IBus name over from a
    /// running ibus-daemon — every IBus input context of the app would be gone.
    nonisolated private static func fcitxInputMethod() -> String? {
        let owned = run("gdbus", ["call", "--session", "--timeout", "1", "--dest", "org.freedesktop.DBus",
                                  "--object-path", "/org/freedesktop/DBus",
                                  "--method", "org.freedesktop.DBus.NameHasOwner", "org.fcitx.Fcitx5"])
        guard owned?.contains("true") == true else { return nil }
        return run("gdbus", ["call", "--session", "--timeout", "1", "--dest", "org.fcitx.Fcitx5", "--object-path", "/controller",
                             "--method", "org.fcitx.Fcitx.Controller1.CurrentInputMethod"]).flatMap(firstString)
    }

    /// "us (intl)" from `setxkbmap -query`'s "layout:" and "variant:" lines.
    nonisolated static func layout(fromQuery output: String) -> String? {
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        guard let layout = values["layout"] else { return nil }
        return values["variant"].map { "\(layout) (\($0))" } ?? layout
    }

    /// The first quoted string of a gdbus reply: `('anthy',)` → anthy.
    nonisolated static func firstString(_ reply: String) -> String? {
        guard let open = reply.firstIndex(of: "'"), let close = reply[reply.index(after: open)...].firstIndex(of: "'") else { return nil }
        return String(reply[reply.index(after: open)..<close])
    }
}
