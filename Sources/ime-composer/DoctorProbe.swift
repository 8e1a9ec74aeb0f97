import ComposerCore
import EnvironmentProbe
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Gathers `DoctorFacts` for `ime-composer doctor`: the environment, GTK's settings files
/// and module directories, installed engines, and what the session bus and the daemons answer.
///
/// It only observes; `Doctor.diagnose` decides. It never starts a daemon: bus names are
/// checked with NameHasOwner (a method call to `org.freedesktop.IBus` or `org.fcitx.Fcitx5`
/// would D-Bus-activate the daemon), and a daemon is called only once it owns its name.
/// It asks the session what the inspector asks, the same way (`SessionQuestions`).
struct DoctorProbe {
    let environment: [String: String]
    /// Made once: its child environment looks at the runtime directory.
    private let questions: SessionQuestions

    init(environment: [String: String]) {
        self.environment = environment
        questions = SessionQuestions(environment: environment)
    }

    func gather() -> DoctorFacts {
        var facts = DoctorFacts()
        facts.environment = environment.filter { DoctorFacts.environmentVariables.contains($0.key) }
        facts.settingsFiles = settingsFiles()
        facts.gsettingsIMModule = gsettings("org.gnome.desktop.interface", "gtk-im-module").map(GVariantText.string)
        facts.moduleDirectories = moduleDirectories()
        facts.moduleLibraries = moduleLibraries(in: facts.moduleDirectories)
        facts.ibusComponents = names(in: dataDirectories.map { $0 + "/ibus/component" }, suffix: ".xml")
        facts.fcitx5InputMethods = names(in: dataDirectories.map { $0 + "/fcitx5/inputmethod" }, suffix: ".conf")
        facts.mozcServerInstalled = ["/usr/lib/mozc/mozc_server", "/usr/libexec/mozc/mozc_server"]
            .contains { FileManager.default.isExecutableFile(atPath: $0) }
        for setting in EngineSetting.allCases where facts.ibusComponents.contains(setting.component) {
            facts.engineSettings[setting.rawValue] = gsettings(setting.schema, setting.key)
        }
        // The engines one switches between: an engine's quirk is a warning while it is one of
        // them, a note while it is only installed.
        if !facts.ibusComponents.isEmpty {
            facts.ibusPreloadEngines = gsettings("org.freedesktop.ibus.general", "preload-engines").flatMap(GVariantText.strings)
        }
        facts.fcitx5ProfileInputMethods = fcitx5Profile().map(Fcitx5Profile.inputMethods(inProfile:))
        facts.isRoot = getuid() == 0
        facts.ibusVersion = questions.ibusVersion()
        // The desktop's own settings: KWin's Virtual Keyboard is a file read; GNOME's input
        // sources one more gsettings call, made only on GNOME.
        facts.kwinInputMethod = kwinInputMethod()
        if facts.desktop == .gnome {
            facts.gnomeInputSources = gsettings("org.gnome.desktop.input-sources", "sources")
                .flatMap(GnomeInputSource.sources(fromGVariant:))
        }

        let bus = questions.bus
        let ibusOwner = bus.nameOwner("org.freedesktop.IBus")
        // A bus that did not answer once is not asked again (each try waits out its time limit).
        var fcitx5Owner = ibusOwner
        if case .failure = ibusOwner {
            facts.sessionBusReachable = false
        } else {
            fcitx5Owner = bus.nameOwner("org.fcitx.Fcitx5")
        }
        // fcitx5's IBus frontend owns org.freedesktop.IBus itself (and writes IBus's address
        // file), so the name alone does not say that ibus-daemon runs.
        if case let .success(owner?) = ibusOwner, case let .success(fcitx5?) = fcitx5Owner, owner == fcitx5 {
            facts.ibusServedByFcitx5 = true
            facts.ibus = .notAnswering
        } else {
            facts.ibus = ibusState(ibusOwner)
        }
        facts.fcitx5 = fcitx5State(fcitx5Owner)
        return facts
    }

    // MARK: commands

    private func command(_ program: String, _ arguments: [String]) -> Result<BoundedCommand.Output, BoundedCommand.Failure> {
        questions.command(program, arguments)
    }

    private func gsettings(_ schema: String, _ key: String) -> String? {
        questions.gsettings(schema, key)
    }

    // MARK: daemons

    private func ibusState(_ owner: Result<String?, SessionBus.Failure>) -> DaemonState {
        switch owner {
        case let .failure(failure): return .unknown(failure.description)
        case .success(nil): return .notAnswering
        case .success:
            guard case let .success(engine) = questions.ibusEngine() else { return .answering(current: nil) }
            return .answering(current: engine)
        }
    }

    private func fcitx5State(_ owner: Result<String?, SessionBus.Failure>) -> DaemonState {
        switch owner {
        case let .failure(failure): return .unknown(failure.description)
        case .success(nil): return .notAnswering
        case .success:
            switch questions.fcitx5InputMethod() {
            case let .success(current):
                return .answering(current: current)
            case let .failure(failure):
                return .unknown("fcitx5 owns org.fcitx.Fcitx5 but did not answer CurrentInputMethod (\(failure))")
            }
        }
    }

    // MARK: files

    private var configHome: String {
        if let value = environment["XDG_CONFIG_HOME"], !value.isEmpty { return value }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
    }

    private var dataDirectories: [String] {
        let value = environment["XDG_DATA_DIRS"] ?? ""
        let dirs = (value.isEmpty ? "/usr/local/share:/usr/share" : value).split(separator: ":").map(String.init)
        return dirs.contains("/usr/share") ? dirs : dirs + ["/usr/share"]
    }

    /// `$XDG_CONFIG_DIRS` (default /etc/xdg), split.
    private var configDirectories: [String] {
        (environment["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg")
            .split(separator: ":").map(String.init)
    }

    /// KWin's Virtual Keyboard: `InputMethod` in `[Wayland]` of the first `kwinrc` that sets
    /// it, the user's then `$XDG_CONFIG_DIRS`', as KConfig cascades them.
    private func kwinInputMethod() -> KWinInputMethod? {
        for directory in [configHome] + configDirectories {
            let path = directory + "/kwinrc"
            guard let text = smallRegularFile(path), let value = KWinInputMethod.value(inKwinrc: text) else { continue }
            return KWinInputMethod(path: path, value: value)
        }
        return nil
    }

    /// A regular file's text when it is at most 1 MiB (a FIFO there would block the doctor).
    private func smallRegularFile(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= 1 << 20,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// fcitx5's profile: the user's, else the first in `$XDG_CONFIG_DIRS` (default /etc/xdg),
    /// as fcitx5 looks for it; nil when there is none. Only a regular file of at most 1 MiB is
    /// read (a FIFO there would block the doctor).
    private func fcitx5Profile() -> String? {
        let configDirs = (environment["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg")
            .split(separator: ":").map(String.init)
        for directory in [configHome] + configDirs {
            let path = directory + "/fcitx5/profile"
            var info = stat()
            guard stat(path, &info) == 0 else { continue }  // follows a symbolic link, as fcitx5 does
            guard info.st_mode & S_IFMT == S_IFREG, info.st_size <= 1 << 20,
                  let data = FileManager.default.contents(atPath: path) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        return nil
    }

    /// GTK 4's settings.ini files, highest precedence first: the user's, `$XDG_CONFIG_DIRS`'
    /// (default /etc/xdg), /etc/gtk-4.0, then the data prefix's.
    private func settingsFiles() -> [GtkSettingsFile] {
        let configDirs = (environment["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg")
            .split(separator: ":").map(String.init)
        let paths = [configHome] + configDirs + ["/etc", "/usr/share"]
        return paths.map { $0 + "/gtk-4.0/settings.ini" }.map { path in
            guard let data = FileManager.default.contents(atPath: path) else {
                return GtkSettingsFile(path: path, exists: false, imModule: nil)
            }
            return GtkSettingsFile(path: path, exists: true,
                                   imModule: GtkSettingsFile.imModule(inSettingsIni: String(decoding: data, as: UTF8.self)))
        }
    }

    /// Where GTK 4 loads IM modules from: `$GTK_PATH` entries, then its libdir (from
    /// pkg-config when the development files are there, else the usual Debian, Fedora and
    /// Arch places) + `/gtk-4.0/4.0.0/immodules`. Only existing directories are returned.
    private func moduleDirectories() -> [String] {
        var candidates: [String] = []
        for entry in (environment["GTK_PATH"] ?? "").split(separator: ":") {
            candidates += ["\(entry)/4.0.0/immodules", "\(entry)/immodules"]
        }
        var libdirs: [String] = []
        if case let .success(output) = command("pkg-config", ["--variable=libdir", "gtk4"]), output.succeeded {
            libdirs.append(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        if let triple = Self.multiarchTriple { libdirs += ["/usr/lib/\(triple)", "/usr/local/lib/\(triple)"] }
        libdirs += ["/usr/lib64", "/usr/lib", "/usr/local/lib"]
        candidates += libdirs.map { $0 + "/gtk-4.0/4.0.0/immodules" }
        var seen: [String] = []
        for candidate in candidates {
            let path = URL(fileURLWithPath: candidate).standardizedFileURL.resolvingSymlinksInPath().path
            var isDirectory: ObjCBool = false
            if !seen.contains(path), FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                seen.append(path)
            }
        }
        return seen
    }

    private static var multiarchTriple: String? {
        #if arch(x86_64)
        return "x86_64-linux-gnu"
        #elseif arch(arm64)
        return "aarch64-linux-gnu"
        #else
        return nil
        #endif
    }

    /// The `*.so` files in those directories; the first of a name wins, as in GTK.
    private func moduleLibraries(in directories: [String]) -> [String] {
        var libraries: [String] = []
        for directory in directories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for file in files.sorted() where file.hasSuffix(".so") && !libraries.contains(file) {
                libraries.append(file)
            }
        }
        return libraries
    }

    /// File names ending in `suffix` (without it) in these directories, sorted, once each.
    private func names(in directories: [String], suffix: String) -> [String] {
        var names = Set<String>()
        for directory in directories {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where file.hasSuffix(suffix) {
                names.insert(String(file.dropLast(suffix.count)))
            }
        }
        return names.sorted()
    }
}
