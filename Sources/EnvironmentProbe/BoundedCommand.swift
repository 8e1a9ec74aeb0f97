import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a short external command with a time limit, for `ime-composer doctor` and the IME
/// inspector: a daemon that hangs, a session bus that does not answer, must never make the
/// doctor or the window wait.
///
/// Output goes to temporary files, not pipes, so that a grandchild keeping a descriptor open
/// cannot block the read; the files are removed before returning.
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
    /// at most `timeout` seconds; on timeout it is killed (SIGKILL).
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
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
              FileManager.default.createFile(atPath: errURL.path, contents: nil),
              let outHandle = try? FileHandle(forWritingTo: outURL),
              let errHandle = try? FileHandle(forWritingTo: errURL) else {
            return .failure(.couldNotStart(program, "cannot create temporary files in \(directory.path)"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            return .failure(.couldNotStart(program, "\(error)"))
        }
        try? outHandle.close()
        try? errHandle.close()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = finished.wait(timeout: .now() + 2)  // SIGKILL cannot be ignored; bounded all the same
            return .failure(.timedOut(([program] + arguments).joined(separator: " "), timeout))
        }
        let read = { (url: URL) in String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self) }
        return .success(Output(status: process.terminationStatus, stdout: read(outURL), stderr: read(errURL)))
    }

    public static func resolve(_ program: String, path: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        return directories.lazy.map { $0 + "/" + program }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
