import Foundation

/// Where the trace's bytes go, without ever blocking the window on a slow reader.
///
/// A file takes every line at once (one `write(2)` each: a reader of the file, or what is
/// left after a kill, never sees half a line). A pipe or FIFO (`--trace -` into another
/// program) is written non-blocking: when its buffer is full because the reader is slow or
/// stalled, the rest waits in memory, in order, and a thread of its own writes it as the
/// reader takes it. Past `pendingLimit` waiting bytes the reader is taken to be stuck: the
/// trace stops with a message, and typing never waits for it.
final class TraceOutput: @unchecked Sendable {
    /// How much may wait for a slow reader before the trace gives up on it.
    static let pendingLimit = 16 << 20
    /// How long the exit line may wait for a slow reader.
    static let finishTimeout: Duration = .seconds(2)

    private let lock = NSLock()
    /// Nil once the trace stopped.
    private var descriptor: Int32?
    private let ownsDescriptor: Bool
    /// Bytes waiting for the reader, from `pendingStart` on.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var draining = false
    private var _failure: String?
    private let drained = NSCondition()

    init(descriptor: Int32, ownsDescriptor: Bool) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFIFO || (status.st_mode & S_IFMT) == S_IFSOCK {
            // Only for pipes: its own end, shared with no terminal or shell.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
    }

    deinit {
        if ownsDescriptor, let descriptor { close(descriptor) }
    }

    /// Why writing stopped, if it did.
    var failure: String? { lock.withLock { _failure } }

    /// Bytes waiting for a slow reader (tests).
    var pendingCount: Int { lock.withLock { pending.count - pendingStart } }

    /// Writes `bytes` now, or queues them behind what already waits.
    func write(_ bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        guard let descriptor else { return }
        if draining {
            pending += bytes
            if pending.count - pendingStart > Self.pendingLimit {
                stop("its reader is not reading (\(Self.pendingLimit >> 20) MiB of trace waiting)")
            }
            return
        }
        let outcome = Self.writeSome(bytes[...], to: descriptor)
        switch outcome {
        case .all: return
        case .wouldBlock(let written):
            pending = Array(bytes[written...])
            pendingStart = 0
            draining = true
            Thread.detachNewThread { self.drain() }
        case .failed(let error):
            stop(error == EPIPE ? "its reader went away" : String(cString: strerror(error)))
        }
    }

    /// Waits (up to `timeout`) until what waits is written: the exit line should reach a
    /// slow reader, but a stalled one must not keep the app from exiting.
    func finish(timeout: Duration = TraceOutput.finishTimeout) {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds)
                                                 + Double(timeout.components.attoseconds) / 1e18)
        drained.lock()
        while lock.withLock({ draining }) {
            guard drained.wait(until: deadline) else { break }
        }
        drained.unlock()
    }

    /// The thread that writes what waits, as the reader takes it.
    private func drain() {
        while true {
            lock.lock()
            guard let descriptor, pendingStart < pending.count else {
                pending = []
                pendingStart = 0
                draining = false
                lock.unlock()
                drained.lock()
                drained.broadcast()
                drained.unlock()
                return
            }
            let chunk = Array(pending[pendingStart..<min(pending.count, pendingStart + 65_536)])
            lock.unlock()
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, 1000)
            let outcome = Self.writeSome(chunk[...], to: descriptor)
            lock.lock()
            switch outcome {
            case .all: pendingStart += chunk.count
            case .wouldBlock(let written): pendingStart += written
            case .failed(let error):
                if self.descriptor != nil { stop(error == EPIPE ? "its reader went away" : String(cString: strerror(error))) }
            }
            lock.unlock()
        }
    }

    /// Called with `lock` held: closes (if ours), says so once on stderr.
    private func stop(_ reason: String) {
        guard _failure == nil else { return }
        if ownsDescriptor, let descriptor { close(descriptor) }
        descriptor = nil
        pending = []
        pendingStart = 0
        _failure = reason
        FileHandle.standardError.write(Data("ime-composer: the trace stopped: \(reason); composing goes on\n".utf8))
    }

    private enum Outcome { case all, wouldBlock(written: Int), failed(Int32) }

    /// Writes as much as the descriptor takes now, retrying short writes and EINTR.
    private static func writeSome(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Outcome {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    return .wouldBlock(written: offset)
                } else {
                    return .failed(written < 0 ? errno : EIO)
                }
            }
            return .all
        }
    }
}
