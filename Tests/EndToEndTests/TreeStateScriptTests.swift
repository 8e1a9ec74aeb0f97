import Foundation
import Testing
import TestHarness

/// `make test` saves what `git status` lists before the run and checks it after
/// (scripts/tree-state.py): a run leaves the source tree as it found it. Here in a
/// repository of its own: work left uncommitted before the run and ignored output are fine;
/// a file the run changes, adds or puts back as committed fails the check, named.
@Suite(.serialized)
struct TreeStateScriptTests {
    static let script = ComposerBinary.packageRoot.appendingPathComponent("scripts/tree-state.py").path

    /// A throwaway repository: a.txt and b.txt committed, `.build/` ignored; b.txt modified
    /// and notes.txt untracked (a developer's work in progress).
    struct Repository {
        let root: URL

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("tree-state-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try write(".gitignore", ".build/\n")
            try write("a.txt", "committed a\n")
            try write("b.txt", "committed b\n")
            try git(["init", "-q"])
            try git(["add", "."])
            try git(["-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-qm", "start"])
            try write("b.txt", "committed b\nwork in progress\n")
            try write("notes.txt", "notes\n")
        }

        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }

        func remove(_ path: String) throws { try FileManager.default.removeItem(at: root.appendingPathComponent(path)) }

        /// Runs `executable arguments` in the repository: its status and output.
        @discardableResult
        func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.currentDirectoryURL = root
            var environment = ProcessInfo.processInfo.environment
            for name in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"] { environment[name] = nil }
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }

        func git(_ arguments: [String]) throws {
            let result = try run("/usr/bin/git", arguments)
            guard result.status == 0 else { throw HarnessError("git \(arguments): \(result.output)") }
        }

        func save() throws {
            let result = try run("/usr/bin/python3", [TreeStateScriptTests.script, "save", ".build/state.json"])
            guard result.status == 0 else { throw HarnessError("tree-state.py save: \(result.output)") }
        }

        func check() throws -> (status: Int32, output: String) {
            try run("/usr/bin/python3", [TreeStateScriptTests.script, "check", ".build/state.json", "the run"])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aRunMayLeaveOnlyWhatItFoundAndIgnoredOutput() throws {
        try Prerequisites.require(["git", "python3"])
        let repository = try Repository()
        defer { try? FileManager.default.removeItem(at: repository.root) }
        try repository.save()

        #expect(try repository.check().status == 0, "nothing changed: the work in progress is not the run's")
        try repository.write(".build/ime-matrix.md", "run output\n")
        #expect(try repository.check().status == 0, "ignored output is fine")

        // Each change fails the check, naming the file; undone, the check passes again.
        let changes: [(what: String, path: String, change: () throws -> Void, undo: () throws -> Void)] = [
            ("a committed file rewritten", "a.txt",
             { try repository.write("a.txt", "rewritten\n") }, { try repository.write("a.txt", "committed a\n") }),
            ("a modified file modified further", "b.txt",
             { try repository.write("b.txt", "committed b\nother work\n") },
             { try repository.write("b.txt", "committed b\nwork in progress\n") }),
            ("a modified file put back as committed", "b.txt",
             { try repository.git(["checkout", "-q", "b.txt"]) },
             { try repository.write("b.txt", "committed b\nwork in progress\n") }),
            ("an untracked file changed", "notes.txt",
             { try repository.write("notes.txt", "other notes\n") }, { try repository.write("notes.txt", "notes\n") }),
            ("a new file", "docs/new.md",
             { try repository.write("docs/new.md", "new\n") }, { try repository.remove("docs") }),
            ("a committed file deleted", "a.txt",
             { try repository.remove("a.txt") }, { try repository.write("a.txt", "committed a\n") }),
        ]
        for change in changes {
            try change.change()
            let changed = try repository.check()
            #expect(changed.status == 1, "\(change.what): \(changed.output)")
            #expect(changed.output.contains(change.path) && changed.output.contains("the run changed the source tree"),
                    "\(change.what): \(changed.output)")
            try change.undo()
            let undone = try repository.check()
            #expect(undone.status == 0, "\(change.what), undone: \(undone.output)")
        }
    }

    /// Outside a git work tree (a release tarball) there is nothing to compare: the check
    /// passes.
    @Test(.timeLimit(.minutes(1)))
    func outsideAWorkTreeNothingIsChecked() throws {
        let repository = try Repository()
        defer { try? FileManager.default.removeItem(at: repository.root) }
        try repository.remove(".git")
        try repository.save()
        try repository.write("a.txt", "rewritten\n")
        #expect(try repository.check().status == 0)
    }
}
