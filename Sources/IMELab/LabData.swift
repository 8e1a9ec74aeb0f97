import Foundation

/// The lab's data files (`data/lab/`: engine expectations, the GNOME Shell extension).
enum LabData {
    /// `relative` under an installed copy (`<executable dir>/../share/ime-composer/lab/`) when
    /// that directory exists, else under the source tree's `data/lab/` (from this file's path
    /// at build time: tests, `swift run`).
    static func directory(_ relative: String) -> URL {
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("share/ime-composer/lab/\(relative)", isDirectory: true).standardizedFileURL
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: installed.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return installed
            }
        }
        // <root>/Sources/IMELab/LabData.swift
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data/lab/\(relative)", isDirectory: true)
    }
}
