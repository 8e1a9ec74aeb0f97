import Foundation

/// What the doctor and the IME inspector ask the running session, asked one way: each
/// through a `BoundedCommand` (or the `SessionBus`) with a time limit, each answer read by
/// one parser (the `static` functions, tested on their own).
///
/// Nothing here starts a daemon: bus names are checked with NameHasOwner first (a method
/// call to `org.fcitx.Fcitx5` would D-Bus-activate fcitx5, and a starting fcitx5 takes the
/// IBus name over from a running ibus-daemon).
public struct SessionQuestions: Sendable {
    /// The environment child commands get (`childEnvironment(from:)`).
    public let environment: [String: String]
    /// Each command's time limit, in seconds.
    public let timeout: TimeInterval

    /// - Parameter systemToolsFirst: put /usr/bin and /bin first on PATH (the inspector,
    ///   inside the app: a tool of the same name earlier on PATH, a virtualenv's, must not
    ///   answer for the system's). The doctor keeps the PATH it was given, which is what
    ///   its user runs.
    public init(environment: [String: String], timeout: TimeInterval = 3, systemToolsFirst: Bool = false) {
        var env = Self.childEnvironment(from: environment)
        if systemToolsFirst {
            env["PATH"] = "/usr/bin:/bin" + (env["PATH"].map { $0.isEmpty ? "" : ":" + $0 } ?? "")
        }
        self.environment = env
        self.timeout = timeout
    }

    /// The session bus, with the same environment and time limit.
    public var bus: SessionBus { SessionBus(environment: environment, timeout: timeout) }

    /// `environment` for child commands: the session bus address made explicit when it is
    /// only implied (`$XDG_RUNTIME_DIR/bus`), so that no tool tries to autolaunch a bus.
    public static func childEnvironment(from environment: [String: String]) -> [String: String] {
        var env = environment
        if (env["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty, let runtime = env["XDG_RUNTIME_DIR"], !runtime.isEmpty,
           FileManager.default.fileExists(atPath: runtime + "/bus") {
            env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(runtime)/bus"
        }
        return env
    }

    /// Runs `program` with the child environment and the time limit.
    public func command(_ program: String, _ arguments: [String]) -> Result<BoundedCommand.Output, BoundedCommand.Failure> {
        BoundedCommand.run(program, arguments, environment: environment, timeout: timeout)
    }

    // MARK: IBus

    /// IBus's global engine (`ibus engine`): nil when none is set (the tool exits 1 then).
    public func ibusEngine() -> Result<String?, BoundedCommand.Failure> {
        command("ibus", ["engine"]).map { $0.succeeded ? Self.engine(fromIBusEngine: $0.stdout) : nil }
    }

    /// The engine's name from `ibus engine`'s output: its last non-empty line, trimmed.
    public static func engine(fromIBusEngine output: String) -> String? {
        let line = output.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return line.isEmpty ? nil : line
    }

    /// The IBus release the tool was built from (`ibus version`), without asking the daemon.
    public func ibusVersion() -> String? {
        guard case let .success(output) = command("ibus", ["version"]), output.succeeded else { return nil }
        return Self.version(fromIBusVersion: output.stdout)
    }

    /// "1.5.27" from "IBus 1.5.27".
    public static func version(fromIBusVersion output: String) -> String? {
        let words = output.split(whereSeparator: \.isWhitespace)
        guard words.count == 2, words[0] == "IBus" else { return nil }
        return String(words[1])
    }

    // MARK: Fcitx5

    /// Fcitx5's current input method, asked only of an fcitx5 that owns its bus name (see
    /// the type's comment): nil when the reply is empty.
    public func fcitx5InputMethod() -> Result<String?, SessionBus.Failure> {
        bus.call(destination: "org.fcitx.Fcitx5", path: "/controller",
                 method: "org.fcitx.Fcitx.Controller1.CurrentInputMethod")
            .map { $0.isEmpty ? nil : $0 }
    }

    // MARK: Settings and the keyboard

    /// `gsettings get SCHEMA KEY`, nil when the schema is missing or nothing answers.
    public func gsettings(_ schema: String, _ key: String) -> String? {
        guard case let .success(output) = command("gsettings", ["get", schema, key]), output.succeeded else { return nil }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The X keyboard layout (`setxkbmap -query`), nil when it does not answer.
    public func keyboardLayout() -> String? {
        guard case let .success(output) = command("setxkbmap", ["-query"]), output.succeeded else { return nil }
        return Self.layout(fromQuery: output.stdout)
    }

    /// "us (intl)" from `setxkbmap -query`'s "layout:" and "variant:" lines.
    public static func layout(fromQuery output: String) -> String? {
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        guard let layout = values["layout"] else { return nil }
        return values["variant"].map { "\(layout) (\($0))" } ?? layout
    }
}
