import Foundation

/// Why a trace file could not be opened.
public struct TraceWriterError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "cannot open trace file '\(path)': \(reason)" }
}

/// Writes trace v1 as JSON Lines.
///
/// Each event is one `write(2)` of one complete line, unbuffered: a test reading
/// the file while the composer runs (or after it is killed) sees every event
/// emitted so far and never half a line.
public final class TraceWriter {
    /// How many recent events are kept in memory for in-process tests.
    public static let historyCapacity = 10_000

    private var fileDescriptor: Int32?
    private let ownsFileDescriptor: Bool
    private let startInstant = ContinuousClock.now
    private var history = BoundedHistory<TraceEvent>(capacity: TraceWriter.historyCapacity)
    /// Whether `emitted` is kept: in-process tests read it; the app does not (a trace of
    /// a long draft holds the whole text in every "text" event).
    private let keepsHistory: Bool

    /// Whether anything is written (false for `disabled()`).
    public private(set) var isEnabled: Bool

    /// Why writing stopped (the reader of `--trace -` went away, the disk is full), if it did.
    public private(set) var failure: String?

    /// Opens `path` for writing (created or truncated, readable by its owner only: a trace
    /// is a keystroke log); "-" means standard output. A symbolic link is refused: another
    /// user's link must not redirect what is typed into a file of their choosing.
    public init(path: String, keepsHistory: Bool = true) throws {
        isEnabled = true
        self.keepsHistory = keepsHistory
        if path == "-" {
            fileDescriptor = STDOUT_FILENO
            ownsFileDescriptor = false
            return
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link, which a trace never follows" : String(cString: strerror(errno))
            throw TraceWriterError(path: path, reason: reason)
        }
        // An existing file keeps its mode through O_TRUNC: make it private too.
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG { fchmod(descriptor, 0o600) }
        fileDescriptor = descriptor
        ownsFileDescriptor = true
    }

    private init(disabled: Void) {
        isEnabled = false
        keepsHistory = true
        fileDescriptor = nil
        ownsFileDescriptor = false
    }

    /// A writer that writes nothing (tracing off). It still remembers `emitted`.
    public static func disabled() -> TraceWriter {
        TraceWriter(disabled: ())
    }

    deinit {
        if ownsFileDescriptor, let fileDescriptor { close(fileDescriptor) }
    }

    /// The last `historyCapacity` events emitted, oldest first.
    public var emitted: [TraceEvent] { history.elements }

    /// Milliseconds on a monotonic clock since this writer was created.
    public var elapsedMilliseconds: Int {
        let elapsed = ContinuousClock.now - startInstant
        let (seconds, attoseconds) = elapsed.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// Writes `event` as one line, stamped with `elapsedMilliseconds`.
    /// True once "exit" was emitted: nothing is written after it.
    public private(set) var isFinished = false

    public func emit(_ event: TraceEvent) {
        // "exit" is the last line, whatever still happens while the app tears down
        // (focus-out, the IM flushing its preedit, a queued "ready").
        guard !isFinished else { return }
        if case .exit = event { isFinished = true }
        if keepsHistory { history.append(event) }
        guard let fileDescriptor else { return }
        let line = event.json(t: elapsedMilliseconds).serialized() + "\n"
        if let error = Self.writeAll(Array(line.utf8), to: fileDescriptor) { stopWriting(error) }
    }

    /// The trace cannot be written any more: say so once on stderr and go on without it (the
    /// composer must keep working when its trace cannot; the app ignores SIGPIPE for this).
    private func stopWriting(_ error: Int32) {
        if ownsFileDescriptor, let fileDescriptor { close(fileDescriptor) }
        fileDescriptor = nil
        let reason = error == EPIPE ? "its reader went away" : String(cString: strerror(error))
        failure = reason
        FileHandle.standardError.write(Data("ime-composer: the trace stopped: \(reason); composing goes on\n".utf8))
    }

    /// Writes every byte, retrying short writes and EINTR; returns the errno that stopped it.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return written < 0 ? errno : EIO
                }
            }
            return nil
        }
    }
}
