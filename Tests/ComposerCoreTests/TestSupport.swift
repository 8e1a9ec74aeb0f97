import Foundation
import PropertyBased
import Testing

/// Pieces that random test texts are built from: each is one scalar or a short
/// sequence, chosen to hit every grapheme rule the composer cares about.
let textPieces: [String] = [
    "a", "C", "e", " ", "\r", "\n", "\r\n",
    "か", "ね", "こ", "子", "猫",
    "\u{1100}", "\u{1161}", "\u{11A8}", "간", "가",
    "\u{301}", "\u{30C}", "\u{FE0F}",
    "\u{200D}", "👨", "👩", "👧", "😀",
    "\u{1F1EF}", "\u{1F1F5}",
]

/// Random strings from `textPieces` (joined, so pieces can combine into graphemes).
func mixedText(pieces: ClosedRange<Int> = 0...30) -> Generator<String, some Sequence & SendableMetatype> {
    Gen.element(of: textPieces).map { $0! }.array(of: pieces).map { $0.joined() }
}

/// The repository root, found from this file's path (for docs/).
func repositoryRoot(from filePath: String = #filePath) -> URL {
    var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    while directory.path != "/" {
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("docs/trace-schema.json").path) {
            return directory
        }
        directory = directory.deletingLastPathComponent()
    }
    Issue.record("could not find docs/trace-schema.json above \(filePath)")
    return URL(fileURLWithPath: "/")
}

/// Builds a String from scalars without any normalisation.
func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
    var result = ""
    result.unicodeScalars.append(contentsOf: scalars)
    return result
}

/// Maximal runs of `true` as ranges: how tests describe tagged text.
func runs(of tags: [Bool]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var index = 0
    while index < tags.count {
        guard tags[index] else { index += 1; continue }
        let start = index
        while index < tags.count, tags[index] { index += 1 }
        result.append(start..<index)
    }
    return result
}

/// Runs `scripts/<name>` with Debian's Python into a fresh temporary directory and returns
/// it (the caller removes it): the committed data must equal what the generator makes.
func runGenerator(_ name: String) throws -> URL {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [repositoryRoot().appendingPathComponent("scripts/\(name)").path, "--out", output.path]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "\(name) failed: \(errorText)")
    return output
}
