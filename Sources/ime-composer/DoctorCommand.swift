import ArgumentParser
import ComposerCore
import Foundation

/// `ime-composer doctor`: says which GTK 4 IM module will be used and why, whether the input
/// method daemons answer, and what in the environment or the engines needs fixing.
/// The facts are gathered here (`DoctorProbe`); `Doctor.diagnose` in the core decides.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Diagnose the input method setup and say what to fix.",
        discussion: """
            Checks which GTK 4 input method module applications will use and why (GTK_IM_MODULE, \
            gtk-im-module in settings.ini and GSettings, the installed modules), whether ibus-daemon and \
            fcitx5 answer on D-Bus and with which engine, XMODIFIERS, QT_IM_MODULE and SDL_IM_MODULE, \
            X11 or Wayland, the desktop (GNOME: gnome-shell runs IBus, engines in GNOME's input sources; KDE \
            Plasma: KWin starts the input method chosen as its Virtual Keyboard in kwinrc) and what it implies \
            for GTK_IM_MODULE, and known quirks of the installed engines (a warning only for an engine in use \
            or in IBus's preload-engines or fcitx5's profile; a note for one that is merely installed). \
            Exit status: 0 when nothing needs fixing (only ok and info findings), 1 when a finding is a \
            warning or a problem, 2 for a usage error.
            """)

    @Flag(help: "Print one JSON object (findings with id, severity, topic, summary, fix; and the facts).")
    var json = false

    func run() throws {
        let facts = DoctorProbe(environment: ProcessInfo.processInfo.environment).gather()
        let report = Doctor.diagnose(facts)
        let output = json ? report.json(facts: facts).serialized() + "\n" : report.text()
        FileHandle.standardOutput.write(Data(output.utf8))
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }
}
