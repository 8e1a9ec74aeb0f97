import Foundation

/// Locates the built `ime-composer` executable.
public enum ComposerBinary {
    public static let executableName = "ime-composer"

    /// 1. `IME_COMPOSER_BIN` if set;
    /// 2. an `ime-composer` next to the running test bundle (same build dir and
    ///    configuration: `.build/<triple>/debug/ime-composerPackageTests.xctest` →
    ///    `.build/<triple>/debug/ime-composer`), searching upward;
    /// 3. `swift build --show-bin-path` in the package root.
    /// Throws "run swift build first" if none exists.
    public static var path: String {
        get throws {
            let fm = FileManager.default
            if let env = ProcessInfo.processInfo.environment["IME_COMPOSER_BIN"], !env.isEmpty {
                guard fm.isExecutableFile(atPath: env) else {
                    throw HarnessError("IME_COMPOSER_BIN=\(env) is not an executable file")
                }
                return env
            }
            var starts = [Bundle.main.bundlePath, Bundle.main.executablePath ?? ""]
            if let arg0 = CommandLine.arguments.first { starts.append(arg0) }
            for start in starts where !start.isEmpty {
                var dir = URL(fileURLWithPath: start).standardizedFileURL.resolvingSymlinksInPath()
                var isDir: ObjCBool = false
                if !(fm.fileExists(atPath: dir.path, isDirectory: &isDir) && isDir.boolValue) {
                    dir = dir.deletingLastPathComponent()
                }
                for _ in 0..<6 {
                    let candidate = dir.appendingPathComponent(executableName).path
                    var candidateIsDir: ObjCBool = false
                    if fm.fileExists(atPath: candidate, isDirectory: &candidateIsDir), !candidateIsDir.boolValue,
                       fm.isExecutableFile(atPath: candidate) {
                        return candidate
                    }
                    if dir.path == "/" { break }
                    dir = dir.deletingLastPathComponent()
                }
            }
            let root = packageRoot
            if let swift = try? AppProcess.resolve("swift", environment: ProcessInfo.processInfo.environment) {
                let session = try TestSession(name: "show-bin-path")
                defer { session.stop() }
                if let r = try? session.run(swift, ["build", "--package-path", root.path, "--show-bin-path"],
                                            timeout: .seconds(120)), r.succeeded {
                    let candidate = URL(fileURLWithPath: r.output).appendingPathComponent(executableName).path
                    if fm.isExecutableFile(atPath: candidate) { return candidate }
                }
            }
            throw HarnessError("the \(executableName) executable was not found (looked next to \(starts.first ?? "?"), "
                + "and in `swift build --show-bin-path` of \(root.path)); run swift build first, "
                + "or set IME_COMPOSER_BIN")
        }
    }

    /// The package root (the directory with Package.swift), from this file's location.
    public static var packageRoot: URL {
        // <root>/Sources/IMELab/ComposerBinary.swift
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }
}

/// Checks that the programs a suite needs are installed. Missing programs are a failure,
/// never a silent skip.
public enum Prerequisites {
    public static let x11 = ["Xvfb", "xdotool", "xdpyinfo", "dbus-daemon"]
    public static let ibus = ["ibus-daemon", "ibus", "gsettings"]
    public static let screenshots = ["import"]

    /// Throws naming every missing program and pointing at scripts/install-deps.sh. Looked
    /// up on this process's PATH as it is (the sessions' processes get /usr/bin and /bin
    /// first, but a program that is not on the caller's PATH is missing for the caller).
    public static func require(_ tools: [String]) throws {
        let env = ProcessInfo.processInfo.environment
        let missing = tools.filter { (try? AppProcess.resolve($0, environment: env)) == nil }
        if !missing.isEmpty {
            throw HarnessError("required program(s) not installed: \(missing.joined(separator: ", ")). "
                + "Run scripts/install-deps.sh (or `make deps`) to install the project's Debian packages.")
        }
    }

    /// Checks that an IBus engine component is installed (e.g. "anthy", "hangul").
    /// What a session of `kind` needs on X11: Xvfb and the rest, IBus or Fcitx5 with the
    /// engine installed.
    public static func require(_ kind: InputMethodKind) throws {
        try require(x11 + (kind.framework == .ibus ? ibus : []) + (kind.framework == .fcitx5 ? fcitx5 : []))
        if kind.framework == .ibus {
            guard let component = kind.ibusComponent else {
                throw HarnessError("no installed IBus component provides the engine '\(kind.engineName ?? "")' "
                    + "(looked in /usr/share/ibus/component, /usr/share/m17n, /usr/share/ibus-table/tables)")
            }
            try requireIBusEngine(component)
        }
        if let inputMethod = kind.fcitxInputMethod { try requireFcitx5InputMethod(inputMethod.rawValue) }
    }

    public static func requireIBusEngine(_ name: String) throws {
        let component = "/usr/share/ibus/component/\(name).xml"
        if !FileManager.default.fileExists(atPath: component) {
            throw HarnessError("IBus engine '\(name)' is not installed (\(component) missing). "
                + "Run scripts/install-deps.sh (or `make deps`) to install ibus-\(name).")
        }
    }
}
