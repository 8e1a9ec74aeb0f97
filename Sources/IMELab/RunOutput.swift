import Foundation

/// Where a test run writes what it keeps for afterwards: under the package's `.build/`,
/// which git ignores, never among the tracked files — a run leaves the source tree as it
/// found it (`make test` checks that `git status` is the same after the run as before).
public enum RunOutput {
    /// `<package>/.build`.
    public static var buildDirectory: URL {
        ComposerBinary.packageRoot.appendingPathComponent(".build", isDirectory: true)
    }

    public static let knownBugsVariable = "IME_KNOWN_BUGS"

    /// The known-bug checks' results, one JSON file per bug and engine (turned into
    /// docs/known-bugs.md by `scripts/known-bugs.py`): `$IME_KNOWN_BUGS` (`make test` sets
    /// it; a relative path is taken from the working directory), else `.build/known-bugs`.
    /// The matrix itself is `ime-composer matrix`'s (`make test` runs it into
    /// `.build/ime-matrix/`).
    public static var knownBugs: URL {
        if let path = ProcessInfo.processInfo.environment[knownBugsVariable], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true,
                       relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
                .standardizedFileURL
        }
        return buildDirectory.appendingPathComponent("known-bugs", isDirectory: true)
    }

    /// Screenshots some tests keep for a person to look at (the inspector, a completion
    /// list, the soft limit's colour, the on-screen keyboard): `.build/test-artifacts`.
    public static var artifacts: URL {
        buildDirectory.appendingPathComponent("test-artifacts", isDirectory: true)
    }
}
