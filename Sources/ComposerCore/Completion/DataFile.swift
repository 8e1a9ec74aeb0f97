#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Reading a data file (`people.jsonl`, `channels.jsonl`, `emoji.jsonl`) within sane
/// bounds, so a wrong `--data` (a disk image, `/dev/zero`, a FIFO, a log of millions of
/// lines) costs a message on stderr, never the app's memory or its data thread forever.
///
/// - A file over `maximumBytes` is refused unread: its size is asked first, and no more
///   than that many bytes are ever read (a file that grows while it is read is refused
///   too). A 1 GB file costs one `fstat`.
/// - Only regular files are read: a FIFO with no writer would block the loading thread
///   and a character device (`/dev/zero`) never ends. The file is opened non-blocking, so
///   not even the open waits.
/// - Lines are taken one at a time (`lines(of:)`), and the loaders stop after
///   `maximumLines` lines with content or `maximumProblems` bad ones, saying so: what was
///   read up to there is used.
public enum DataFile {
    /// The most bytes a data file may have: 32 MiB holds about 235,000 people as
    /// `scripts/generate-directory.py` writes them — more than twice the 100,000 of
    /// `make bench` (11 MB) — and every emoji many times over. 64 MiB (470,000 people)
    /// took the debug build about 30 s and 800 MB to index: half of that is still a lot.
    public static let maximumBytes = 32 << 20
    /// The most lines with content read from one file; past them the rest is not read.
    /// About what 32 MiB of ordinary entries hold: it bounds files of very short lines.
    public static let maximumLines = 250_000
    /// The most bad lines reported from one file; past them the rest is not read (it is
    /// not a data file, or not one of ours).
    public static let maximumProblems = 1000

    /// The bytes of `url`, or the problem (for the file as a whole) why not.
    public static func read(_ url: URL, maximumBytes: Int = maximumBytes) -> Result<[UInt8], DirectoryProblem> {
        let path = url.path
        func problem(_ message: String) -> Result<[UInt8], DirectoryProblem> {
            .failure(DirectoryProblem(path: path, line: nil, message: message))
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            return problem(error == ENOENT ? "no such file" : "cannot read the file (\(String(cString: strerror(error))))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            return problem("cannot read the file (\(String(cString: strerror(errno))))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { return problem("not a regular file; not read") }
        guard Int(status.st_size) <= maximumBytes else { return problem(tooLarge(Int(status.st_size), maximumBytes)) }
        // One byte more than allowed tells a file that grew past the limit.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard bytes.count <= maximumBytes else { return problem(tooLarge(count, maximumBytes)) }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, maximumBytes + 1 - bytes.count)))
            }
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { return problem("cannot read the file (\(String(cString: strerror(errno))))") }
            if read == 0 { break }
            count += read
        }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }

    /// "1 GiB is over the 32 MiB a data file may have; not read" (in bytes when less than
    /// 1% over, where rounding would say "64.0 MiB").
    static func tooLarge(_ size: Int, _ limit: Int) -> String {
        let shown = size < limit + limit / 100 ? "\(size) bytes" : binarySize(size)
        return "\(shown) is over the \(binarySize(limit)) a data file may have; not read"
    }

    /// "64 MiB", "1.5 GiB", "512 bytes": binary units, one decimal when not whole.
    static func binarySize(_ count: Int) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(count) bytes" }
        let number = value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
        return "\(number) \(units[unit])"
    }

    /// The lines of `bytes` (split at `\n`, a `\r` before it dropped), numbered from 1, one
    /// at a time: a loader stops whenever it has had enough.
    static func lines(of bytes: [UInt8]) -> some Sequence<(number: Int, bytes: ArraySlice<UInt8>)> {
        var start = 0
        var number = 0
        return AnySequence {
            AnyIterator { () -> (number: Int, bytes: ArraySlice<UInt8>)? in
                guard start <= bytes.count else { return nil }
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                var line = bytes[start..<end]
                start = end + 1
                number += 1
                // The file's last "\n" ends the last line; no empty line after it.
                if end == bytes.count, line.isEmpty, number > 1 { return nil }
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                return (number, line)
            }
        }
    }

    /// Whether a line holds only spaces and tabs (blank lines are fine anywhere).
    static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }
}

/// One file's lines and problems counted against `DataFile`'s bounds, as a loader goes:
/// it says once, as a problem of the whole file, why the rest is not read.
struct DataFileLimits {
    let path: String
    let maximumLines: Int
    let maximumProblems: Int
    private var lines = 0
    private var skipped = 0
    private var notes = 0
    private var unlistedNotes = 0
    private var stopped = false

    init(path: String, maximumLines: Int = DataFile.maximumLines, maximumProblems: Int = DataFile.maximumProblems) {
        self.path = path
        self.maximumLines = maximumLines
        self.maximumProblems = maximumProblems
    }

    /// Whether one more line with content may be read (false once a bound is reached:
    /// then, the first time, the reason is appended).
    mutating func mayRead(problems: inout [DirectoryProblem]) -> Bool {
        guard !stopped else { return false }
        if lines == maximumLines {
            stop("more than \(maximumLines) lines; the rest of the file is not read", &problems)
        } else if skipped == maximumProblems {
            stop("\(skipped) bad lines; the rest of the file is not read", &problems)
        } else {
            lines += 1
        }
        return !stopped
    }

    /// Line `line` is skipped for `message`.
    mutating func skip(line: Int, _ message: String, problems: inout [DirectoryProblem]) {
        skipped += 1
        problems.append(DirectoryProblem(path: path, line: line, message: message))
    }

    /// Line `line` is used, changed as `message` says; past `maximumProblems` such lines
    /// they are only counted (`finish`).
    mutating func note(line: Int, _ message: String, problems: inout [DirectoryProblem]) {
        guard notes < maximumProblems else {
            unlistedNotes += 1
            return
        }
        notes += 1
        problems.append(DirectoryProblem(path: path, line: line, message: message))
    }

    /// The count of the changed lines not listed, if any.
    func finish(problems: inout [DirectoryProblem]) {
        guard unlistedNotes > 0 else { return }
        problems.append(DirectoryProblem(path: path, line: nil,
                                         message: "\(unlistedNotes) more lines had invisible controls or line breaks removed"))
    }

    private mutating func stop(_ message: String, _ problems: inout [DirectoryProblem]) {
        stopped = true
        problems.append(DirectoryProblem(path: path, line: nil, message: message))
    }
}
