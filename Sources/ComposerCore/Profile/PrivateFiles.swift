import Foundation

/// The profile holds what the user typed: its directory is readable by its owner only
/// (0700), and so is every file in it (0600) — the database, its WAL and shared-memory
/// files (SQLite gives them the database file's mode), the recent completions.
public enum PrivateFiles {
    /// Creates `directory` (and its parents) if missing and makes it 0700. Throws only if
    /// it cannot be created: a read-only profile still starts (the store reports it in
    /// the window, and typing goes on).
    public static func prepareDirectory(_ directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(directory.path, 0o700)
    }

    /// Makes sure the database file at `url` exists and is 0600 before SQLite opens it:
    /// SQLite would create it with the umask's mode (often 0644), and creates its `-wal` and
    /// `-shm` files with the database file's mode. Existing companions are made 0600 too.
    public static func prepareDatabaseFile(_ url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw PrivateFileError(path: url.path, errno: errno) }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw PrivateFileError(path: url.path, errno: errno) }
        for suffix in ["-wal", "-shm"] {
            let companion = url.path + suffix
            if FileManager.default.fileExists(atPath: companion) { chmod(companion, 0o600) }
        }
    }

    /// Writes `data` to `url` atomically (a new 0600 file renamed over the old one): a
    /// crash leaves the old contents or the new, never half of them, and never a file
    /// others can read.
    public static func write(_ data: Data, to url: URL) throws {
        var template = Array((url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)  // 0600
        guard descriptor >= 0 else { throw PrivateFileError(path: url.path, errno: errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0, rename(temporary, url.path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw PrivateFileError(path: url.path, errno: failure)
        }
    }

    /// The permission bits of the file at `path` (tests, the doctor).
    public static func mode(of path: String) -> Int? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return Int(status.st_mode & 0o777)
    }
}

/// A file of the profile could not be created or written.
public struct PrivateFileError: Error, CustomStringConvertible, Equatable, Sendable {
    public let path: String
    public let code: Int32

    public init(path: String, errno code: Int32) {
        self.path = path
        self.code = code
    }

    public var description: String { "\(path): \(String(cString: strerror(code)))" }
}
