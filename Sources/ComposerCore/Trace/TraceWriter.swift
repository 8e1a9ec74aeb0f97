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

    /// Nil when tracing is off.
    private let output: TraceOutput?
    private let startInstant = ContinuousClock.now
    private var history = BoundedHistory<TraceEvent>(capacity: TraceWriter.historyCapacity)
    /// Whether `emitted` is kept: in-process tests read it; the app does not (a trace of
    /// a long draft holds the whole text in every "text" event).
    private let keepsHistory: Bool

    /// Whether anything is written (false for `disabled()`).
    public private(set) var isEnabled: Bool

    /// Why writing stopped (the reader of `--trace -` went away or stalled, the disk is
    /// full), if it did.
    public var failure: String? { output?.failure }

    /// Opens `path` for writing (created or truncated, readable by its owner only: a trace
    /// is a keystroke log); "-" means standard output. A symbolic link is refused: another
    /// user's link must not redirect what is typed into a file of their choosing.
    public init(path: String, keepsHistory: Bool = true) throws {
        isEnabled = true
        self.keepsHistory = keepsHistory
        if path == "-" {
            output = TraceOutput(descriptor: STDOUT_FILENO, ownsDescriptor: false)
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
        output = TraceOutput(descriptor: descriptor, ownsDescriptor: true)
    }

    private init(disabledKeepingHistory keepsHistory: Bool) {
        isEnabled = false
        self.keepsHistory = keepsHistory
        output = nil
    }

    /// A writer that writes nothing (tracing off). It still remembers `emitted` (for
    /// in-process tests) unless `keepsHistory` is false (the app: its inspector keeps the
    /// recent events itself).
    public static func disabled(keepsHistory: Bool = true) -> TraceWriter {
        TraceWriter(disabledKeepingHistory: keepsHistory)
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
        guard let output else { return }
        output.write(Array((event.json(t: elapsedMilliseconds).serialized() + "\n").utf8))
        // The last line: give a slow reader a moment to take everything.
        if isFinished { output.finish() }
    }

    /// Bytes waiting for a slow trace reader (tests).
    public var pendingBytes: Int { output?.pendingCount ?? 0 }
}
