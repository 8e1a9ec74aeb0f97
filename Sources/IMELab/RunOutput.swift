import Foundation

/// Where a test run writes what it keeps for afterwards: under the package's `.build/`,
/// which git ignores, never among the tracked files — a run leaves the source tree as it
/// found it (`make test` checks that `git status` is the same after the run as before).
public enum RunOutput {
    /// `<package>/.build`.
    public static var buildDirectory: URL {
        ComposerBinary.packageRoot.appendingPathComponent(".build", isDirectory: true)
    }

    public static let matrixResultsVariable = "IME_MATRIX_RESULTS"

    /// The input-method matrix's results, one JSON file per engine and `bugs/` (turned into
    /// a document by `scripts/ime-matrix.py`): `$IME_MATRIX_RESULTS` (`make test` sets it;
    /// a relative path is taken from the working directory), else `.build/ime-matrix`.
    public static var matrixResults: URL {
        if let path = ProcessInfo.processInfo.environment[matrixResultsVariable], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true,
                       relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
                .standardizedFileURL
        }
        return buildDirectory.appendingPathComponent("ime-matrix", isDirectory: true)
    }

    /// Screenshots some tests keep for a person to look at (the inspector, a completion
    /// list, the soft limit's colour, the on-screen keyboard): `.build/test-artifacts`.
    public static var artifacts: URL {
        buildDirectory.appendingPathComponent("test-artifacts", isDirectory: true)
    }
}
