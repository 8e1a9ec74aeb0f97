import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a short external command with a time limit, for `ime-composer doctor` and the IME
/// inspector: a daemon that hangs, a session bus that does not answer, must never make the
/// doctor or the window wait.
///
/// Output goes to temporary files, not pipes, so that a grandchild keeping a descriptor open
/// cannot block the read; the files are removed before returning. The command runs in a
/// process group of its own (`Spawn`), killed as a whole when it overruns its time.
public enum BoundedCommand {
    public struct Output: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        public var succeeded: Bool { status == 0 }
    }

    public enum Failure: Error, CustomStringConvertible, Sendable {
        case notInstalled(String)
        case timedOut(String, TimeInterval)
        case couldNotStart(String, String)

        public var description: String {
            switch self {
            case let .notInstalled(program): return "\(program) is not installed"
            case let .timedOut(command, seconds): return "`\(command)` did not answer within \(Int(seconds)) s"
            case let .couldNotStart(program, why): return "\(program) could not be started: \(why)"
            }
        }
    }

    /// Runs `program` (looked up on `environment["PATH"]`, then /usr/bin and /bin) and waits
    /// at most `timeout` seconds; on timeout its process group is killed (SIGKILL). A command
    /// killed by a signal has the status 128 + the signal, as a shell says it.
    public static func run(_ program: String, _ arguments: [String], environment: [String: String],
                    timeout: TimeInterval = 3) -> Result<Output, Failure> {
        guard let executable = resolve(program, path: environment["PATH"] ?? "") else {
            return .failure(.notInstalled(program))
        }
        let directory = FileManager.default.temporaryDirectory
        let stem = "ime-composer-command-\(getpid())-\(UUID().uuidString)"
        let outURL = directory.appendingPathComponent(stem + ".out")
        let errURL = directory.appendingPathComponent(stem + ".err")
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        // The child opens the files itself; nothing of this process's is passed on but them
        // (`Spawn`: Foundation's `Process` cost 8–75 M instructions a command here).
        let (rc, pid) = Spawn.start(path: executable, arguments: [executable] + arguments,
                                    environment: environment.map { "\($0.key)=\($0.value)" }) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, outURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, errURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        guard rc == 0 else {
            // The child opens its output files first: a full or read-only directory fails here too.
            return .failure(.couldNotStart(program, "\(String(cString: strerror(rc))) (its output goes to \(directory.path))"))
        }
        guard let status = Spawn.wait(for: pid, seconds: timeout) else {
            // Its process group: what it started goes too.
            kill(-pid, SIGKILL)
            // SIGKILL cannot be ignored, but a process in uninterruptible sleep ends later:
            // bounded all the same, and reaped by a thread of its own then (no zombie).
            if Spawn.wait(for: pid, seconds: 2) == nil {
                Thread.detachNewThread {
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                }
            }
            return .failure(.timedOut(([program] + arguments).joined(separator: " "), timeout))
        }
        let read = { (url: URL) in String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self) }
        return .success(Output(status: Spawn.exitCode(status), stdout: read(outURL), stderr: read(errURL)))
    }

    public static func resolve(_ program: String, path: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        return directories.lazy.map { $0 + "/" + program }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
