import Foundation
import Testing

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("store-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A real, small tmpfs mounted on a scratch directory (root only): a disk that really
/// fills up and a file system that really turns read-only.
struct SmallDisk {
    let directory: ScratchDirectory
    var url: URL { directory.url }

    static var canMount: Bool { getuid() == 0 }

    init(kilobytes: Int) throws {
        directory = try ScratchDirectory()
        try Self.run(["mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", directory.url.path])
    }

    /// Fills the disk with a file (the rest of it: writes fail with ENOSPC).
    func fill() throws {
        _ = try? Self.run(["dd", "if=/dev/zero", "of=\(directory.path("filler"))", "bs=4k"])
    }

    func free() throws { try FileManager.default.removeItem(atPath: directory.path("filler")) }

    func remount(readOnly: Bool) throws {
        try Self.run(["mount", "-o", "remount,\(readOnly ? "ro" : "rw")", directory.url.path])
    }

    func unmount() {
        _ = try? Self.run(["umount", "-l", directory.url.path])
        directory.remove()
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 || arguments.first == "dd" else {
            throw CommandFailed(command: arguments.joined(separator: " "), status: process.terminationStatus,
                                stderr: said.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return process.terminationStatus
    }
}

struct CommandFailed: Error, CustomStringConvertible {
    let command: String
    let status: Int32
    let stderr: String
    var description: String { "\(command) exited with \(status)" + (stderr.isEmpty ? "" : ": \(stderr)") }
}
