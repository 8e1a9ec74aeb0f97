import Foundation
import GRDB

/// Opens the profile's database, recovering from one that cannot be read: a damaged or
/// unreadable file is moved aside (kept, renamed, for whoever wants to look at it) and a
/// fresh one started. A profile that cannot be written (a full disk, a read-only file
/// system, a newer version's database) is left as it is: nothing is moved or deleted, and
/// the notice says saving is off.
public enum StoreOpener {
    /// - Returns: the store (nil when it cannot be opened) and what the user must know.
    public static func open(directory: URL) -> (store: ProfileStore?, notice: StoreNotice?) {
        let url = directory.appendingPathComponent(ProfileStore.fileName)
        do {
            return (try ProfileStore(url: url), nil)
        } catch {
            let reason = describe(error)
            guard isDamage(error, at: url) else { return (nil, .cannotSave(path: url.path, reason: reason)) }
            let movedTo: String
            do {
                movedTo = try moveAside(url)
            } catch {
                return (nil, .cannotSave(path: url.path, reason: "\(reason); it could not be moved aside: \(describe(error))"))
            }
            do {
                return (try ProfileStore(url: url), .movedAside(path: url.path, movedTo: movedTo, reason: reason))
            } catch {
                return (nil, .cannotSave(path: url.path, reason: describe(error)))
            }
        }
    }

    /// What a profile that cannot be opened for writing (a read-only file system) still
    /// holds: read without writing anything, so its draft is restored while saving is off.
    /// Nil when there is nothing to read or it cannot be read either.
    public static func readOnlyState(directory: URL) -> SavedState? {
        let url = directory.appendingPathComponent(ProfileStore.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        // A WAL left by a process that did not close the database (killed, crashed) holds
        // the newest writes, and the immutable open below ignores it: read a private copy
        // instead, where SQLite replays it.
        let wal = URL(fileURLWithPath: url.path + "-wal")
        if let size = (try? FileManager.default.attributesOfItem(atPath: wal.path))?[.size] as? Int, size > 0,
           let state = stateFromPrivateCopy(of: url, wal: wal) {
            return state
        }
        var configuration = Configuration()
        configuration.readonly = true
        // SQLite cannot open a WAL database read-only where it cannot create the `-shm`
        // file, unless told the file cannot change: on a read-only file system it cannot.
        let escaped = url.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))) ?? url.path
        guard let queue = try? DatabaseQueue(path: "file:\(escaped)?immutable=1", configuration: configuration) else { return nil }
        return try? ProfileStore.load(from: queue)
    }

    /// The state of a copy of the database and its WAL in a private temporary directory,
    /// opened for writing there so that SQLite replays the WAL; the copy is removed.
    static func stateFromPrivateCopy(of url: URL, wal: URL) -> SavedState? {
        let fileManager = FileManager.default
        let directory = fileManager.temporaryDirectory
            .appendingPathComponent("ime-composer-read-only-\(getpid())-\(UUID().uuidString)")
        guard (try? fileManager.createDirectory(at: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])) != nil else { return nil }
        defer { try? fileManager.removeItem(at: directory) }
        let copy = directory.appendingPathComponent(ProfileStore.fileName)
        do {
            try fileManager.copyItem(at: url, to: copy)
            try fileManager.copyItem(at: wal, to: URL(fileURLWithPath: copy.path + "-wal"))
        } catch {
            return nil
        }
        guard let queue = try? DatabaseQueue(path: copy.path) else { return nil }
        return try? ProfileStore.load(from: queue)
    }

    /// Whether the file itself is bad (rather than the disk or the permissions): SQLite says
    /// it is not a database or is corrupt, the integrity check fails, or it cannot be read.
    static func isDamage(_ error: Error, at url: URL) -> Bool {
        if case StoreOpenError.failedCheck = error { return true }
        guard let error = error as? DatabaseError else { return false }
        switch error.resultCode.primaryResultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: return true
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            let path = url.path
            return FileManager.default.fileExists(atPath: path) && access(path, R_OK | W_OK) != 0
                && access(url.deletingLastPathComponent().path, W_OK) == 0
        default: return false
        }
    }

    /// Renames the database and its companions to `NAME.damaged-<UTC time>[-wal|-shm]`.
    static func moveAside(_ url: URL) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        var target = url.path + ".damaged-" + formatter.string(from: Date())
        var attempt = 1
        while FileManager.default.fileExists(atPath: target) {
            attempt += 1
            target = url.path + ".damaged-" + formatter.string(from: Date()) + "-\(attempt)"
        }
        guard rename(url.path, target) == 0 else { throw PrivateFileErrorBridge(errno: errno) }
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            rename(url.path + suffix, target + suffix)
        }
        return target
    }

    /// SQLite's own words for an error ("database or disk is full"), else the error.
    public static func describe(_ error: Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "SQLite error \(error.resultCode.rawValue)"
        }
        return "\(error)"
    }
}

private struct PrivateFileErrorBridge: Error, CustomStringConvertible {
    let errno: Int32
    var description: String { String(cString: strerror(errno)) }
}
