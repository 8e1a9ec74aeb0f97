import EnvironmentProbe
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started by the harness (the app under test, Xvfb, dbus-daemon, …).
/// stdout and stderr go to files in the session directory (never pipes, so a chatty child
/// can never block).
///
/// Spawned with `Spawn` rather than Foundation's `Process` (whose children inherit the
/// calling thread's blocked signals): the child gets an empty signal mask, default signal
/// dispositions, no inherited descriptors beyond 0–2, and its own process group (pgid ==
/// pid), which `stop()` uses to take down helpers it spawned.
public final class AppProcess: @unchecked Sendable {
    public let name: String
    public let executable: String
    public let arguments: [String]
    public let stdoutURL: URL
    public let stderrURL: URL
    public let pid: Int32
    private let lock = NSLock()
    private var rawStatus: Int32?

    /// Launches `executable` (absolute path, or a name looked up on `environment["PATH"]`).
    public init(name: String, executable: String, arguments: [String] = [],
                environment: [String: String], logDirectory: URL) throws {
        let path = try Self.resolve(executable, environment: environment)
        self.name = name
        self.executable = path
        self.arguments = arguments
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        var base = safe
        var n = 1
        while FileManager.default.fileExists(atPath: logDirectory.appendingPathComponent(base + ".stderr").path) {
            n += 1; base = safe + "-\(n)"
        }
        stdoutURL = logDirectory.appendingPathComponent(base + ".stdout")
        stderrURL = logDirectory.appendingPathComponent(base + ".stderr")
        pid = try Self.spawn(path: path, arguments: arguments, environment: environment,
                             stdout: stdoutURL.path, stderr: stderrURL.path, name: name)
    }

    private static func spawn(path: String, arguments: [String], environment: [String: String],
                              stdout: String, stderr: String, name: String) throws -> pid_t {
        let (rc, child) = Spawn.start(path: path, arguments: [path] + arguments,
                                      environment: environment.map { "\($0.key)=\($0.value)" }) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        }
        guard rc == 0 else {
            throw HarnessError("could not launch \(name) (\(path)): \(String(cString: strerror(rc)))")
        }
        return child
    }

    /// Reaps the child if it has exited (never blocks). Returns the raw wait status.
    private func reap() -> Int32? {
        lock.withLock {
            if let rawStatus { return rawStatus }
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                rawStatus = status
            } else if r == -1 && errno == ECHILD {
                // Reaped by someone else: report as unknown exit.
                rawStatus = 0xff00
            }
            return rawStatus
        }
    }

    public var isRunning: Bool { reap() == nil }

    /// Exit status once exited: the exit code, or 128+signal if it was killed by a signal
    /// (shell convention). nil while running.
    public var exitStatus: Int32? { reap().map(Spawn.exitCode) }

    /// True if the process ended because of a signal (not a normal exit).
    public var wasSignaled: Bool {
        guard let status = reap() else { return false }
        return status & 0x7f != 0
    }

    public var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }
    public func stderrTail(lines: Int = 20) -> String { tail(of: stderrURL, lines: lines) }

    /// A block for error messages: status, the messages that explain an end (from the
    /// whole of stderr: a crash report's registers and frames would push them out of the
    /// tail), and recent stderr.
    public func diagnostics(lines: Int = 20) -> String {
        let state = exitStatus.map { "exited with status \($0)\(wasSignaled ? " (signal \($0 - 128))" : "")" }
            ?? "running (pid \(pid))"
        let err = stderrTail(lines: lines)
        let tailLines = Set(err.split(separator: "\n").map(String.init))
        let explaining = Self.explainingLines(in: stderr).filter { !tailLines.contains($0) }
        return "\(name): \(state); stderr (\(stderrURL.path))"
            + (explaining.isEmpty ? "" : ", its messages:\n" + indent(explaining.joined(separator: "\n")) + "\nand")
            + " last lines:\n"
            + (err.isEmpty ? "    <empty>" : indent(err))
    }

    /// The lines of `stderr` that say why a program ended: its own `name: …` messages (the
    /// fatal GLib problem the app aborts on), GLib's `DOMAIN-LEVEL **` messages, and the
    /// first lines of a Swift crash report. At most 30, the first ones.
    static func explainingLines(in stderr: String) -> [String] {
        let markers = ["-CRITICAL **", "-WARNING **", "-ERROR **", "fatal GLib problem", "Fatal error",
                       "*** Program crashed", "Crashed thread", "Thread ", "Assertion", "assertion"]
        var result: [String] = []
        for line in stderr.split(separator: "\n") where result.count < 30 {
            let text = String(line)
            if text.hasPrefix("ime-composer: ") || markers.contains(where: { text.contains($0) }) {
                if text.hasPrefix("Thread "), !text.contains("crashed") { continue }
                result.append(text)
            }
        }
        return result
    }

    /// Whether the process ended by a signal that means it crashed (an abort, a bad memory
    /// access), not one the harness or a test sent to stop it (SIGTERM, SIGKILL, SIGINT).
    public var crashed: Bool {
        guard wasSignaled, let status = exitStatus else { return false }
        return [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS].contains(status - 128)
    }

    /// Sends `signal` to the process itself (not its group).
    public func terminate(signal sig: Int32 = SIGTERM) {
        guard isRunning else { return }
        _ = kill(pid, sig)
    }

    /// Sends `signal` to the whole process group (the process and children that did not
    /// move to their own group).
    public func signalGroup(_ sig: Int32) {
        _ = kill(-pid, sig)
    }

    /// Waits for the process to exit and returns its exit status (see `exitStatus`).
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(10)) throws -> Int32 {
        try Wait.until("\(name) (pid \(pid)) to exit", timeout: timeout,
                       diagnostics: { diagnostics() }) { exitStatus }
    }

    /// SIGTERM to the group, wait up to `grace`, then SIGKILL. Safe to call repeatedly.
    public func stop(grace: Duration = .seconds(3)) {
        if isRunning {
            signalGroup(SIGTERM)
            if (try? waitForExit(timeout: grace)) == nil {
                signalGroup(SIGKILL)
                _ = try? waitForExit(timeout: .seconds(5))
            }
        }
        // Helpers left in the group after the leader exited.
        signalGroup(SIGKILL)
    }

    /// Finds `tool` on the environment's PATH. Throws `HarnessError.missingTool`.
    public static func resolve(_ tool: String, environment: [String: String]) throws -> String {
        if tool.contains("/") {
            guard FileManager.default.isExecutableFile(atPath: tool) else {
                throw HarnessError("executable not found: \(tool)")
            }
            return tool
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw HarnessError.missingTool(tool)
    }
}

/// Result of a short command run to completion.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var succeeded: Bool { status == 0 }
    /// stdout with surrounding whitespace removed.
    public var output: String { stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
}
