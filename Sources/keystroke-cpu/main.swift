import Foundation
import TestHarness

// keystroke-cpu: the composer's CPU per committed keystroke, 1 KB vs 1 MB draft (issue #11).
//
//     keystroke-cpu [--markdown FILE] [--sizes 1024,1048576] [--profiles DIR] [--data DIR]
//
// Re-runs itself under `valgrind --tool=callgrind` (instruction counts are repeatable on a
// noisy machine) in a private Xvfb + D-Bus session, once per draft size; the child opens a
// real composer window and commits keystrokes through its input method context (see
// Child.swift). The parent reads the callgrind files and prints a table; `--markdown`
// writes it as a section for `make bench`. Exit status 1 when the controllers are not flat
// (1 MB ÷ 1 KB > 1.5×) or the run went wrong.

let usage = """
    usage: keystroke-cpu [--markdown FILE] [--sizes BYTES,BYTES] [--profiles DIR] [--data DIR]
      --markdown FILE  also write the results as a markdown section to FILE
      --sizes LIST     draft sizes in bytes (default 1024,1048576; the first and last are compared)
      --profiles DIR   keep the callgrind files there (default: next to the markdown file)
      --data DIR       people/channels/emoji (default: the source tree's data/)
    """

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("keystroke-cpu: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name) else { return nil }
    guard index + 1 < arguments.count else { fail("\(name) needs a value\n\(usage)") }
    let value = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
    return value
}

if arguments.contains("-h") || arguments.contains("--help") {
    print(usage)
    exit(0)
}

if let index = arguments.firstIndex(of: "--child") {
    arguments.remove(at: index)
    guard let bytes = option("--bytes").flatMap(Int.init), let data = option("--data"),
          let profile = option("--profile"), let facts = option("--facts") else {
        fail("--child needs --bytes, --data, --profile and --facts")
    }
    exit(Child.run(bytes: bytes, dataDirectory: data, profileDirectory: profile, factsPath: facts))
}

let markdownPath = option("--markdown")
let sizes = (option("--sizes") ?? "1024,1048576").split(separator: ",").map { Int($0) ?? 0 }
guard !sizes.isEmpty, sizes.allSatisfy({ $0 >= 64 }) else { fail("--sizes: byte counts of at least 64\n\(usage)") }
let profilesDirectory = option("--profiles")
    ?? markdownPath.map { (($0 as NSString).deletingLastPathComponent as NSString).appendingPathComponent("keystroke-cpu") }
let dataOption = option("--data")
guard arguments.isEmpty else { fail("unknown arguments: \(arguments.joined(separator: " "))\n\(usage)") }

/// This executable (valgrind runs it again as the child).
let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]

/// The data directory: --data, $IME_COMPOSER_DATA, else `data/` above the executable or here.
@MainActor func findData() -> String {
    if let dataOption { return dataOption }
    if let variable = ProcessInfo.processInfo.environment["IME_COMPOSER_DATA"], !variable.isEmpty { return variable }
    var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
    for _ in 0..<6 {
        let candidate = directory.appendingPathComponent("data")
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("people.jsonl").path) {
            return candidate.path
        }
        directory.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("data").path
}

func findValgrind() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/valgrind"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

@MainActor func measure() throws -> Bool {
    guard let valgrind = findValgrind() else {
        throw BenchmarkError("valgrind not found (Debian: apt-get install valgrind)")
    }
    let data = findData()
    guard FileManager.default.fileExists(atPath: (data as NSString).appendingPathComponent("people.jsonl")) else {
        throw BenchmarkError("no people.jsonl in \(data) (pass --data DIR)")
    }
    let session = try TestSession(name: "keystroke-cpu")
    defer { session.stop() }
    _ = try Xvfb.start(in: session)
    _ = try DBusSession.start(in: session)
    let childEnvironment = [
        "GDK_BACKEND": "x11", "GTK_IM_MODULE": "gtk-im-context-simple", "GSETTINGS_BACKEND": "memory",
        "NO_AT_BRIDGE": "1", "GTK_A11Y": "none",
        // GL through llvmpipe would run its JIT under valgrind; the software renderer is
        // what a frame costs anyway, and frames are not counted.
        "GSK_RENDERER": "cairo",
    ]
    if let profilesDirectory {
        try FileManager.default.createDirectory(atPath: profilesDirectory, withIntermediateDirectories: true)
    }
    var results: [(bytes: Int, measurement: Measurement)] = []
    for bytes in sizes {
        let label = sizeLabel(bytes).replacingOccurrences(of: " ", with: "")
        let out = session.directory.appendingPathComponent("callgrind.\(label).out")
        let factsURL = session.directory.appendingPathComponent("facts.\(label).json")
        let profile = session.directory.appendingPathComponent("profile-\(label)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        FileHandle.standardError.write(Data("keystroke-cpu: \(sizeLabel(bytes)) draft under callgrind…\n".utf8))
        let started = Date()
        let run = try session.run(valgrind, [
            "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no", "--dump-line=no",
            "--callgrind-out-file=\(out.path)", executable, "--child", "--bytes", "\(bytes)",
            "--data", data, "--profile", profile.path, "--facts", factsURL.path,
        ], environment: childEnvironment, timeout: .seconds(3600))
        guard run.succeeded else {
            throw BenchmarkError("the \(sizeLabel(bytes)) run exited with \(run.status)\n\(run.stderr.suffix(4000))")
        }
        let facts = try JSONDecoder().decode(ChildFacts.self, from: Data(contentsOf: factsURL))
        guard facts.problems.isEmpty else {
            throw BenchmarkError("GLib problems during the \(sizeLabel(bytes)) run:\n" + facts.problems.joined(separator: "\n"))
        }
        guard facts.underValgrind, facts.completionOpened, facts.modelMatchesBuffer, facts.mentionsHighlighted > 0 else {
            throw BenchmarkError("the \(sizeLabel(bytes)) run did not type what it should: \(facts)")
        }
        let dumps = try keystrokeDumps(next: out, count: facts.kinds.count)
        if let profilesDirectory {
            let kept = URL(fileURLWithPath: profilesDirectory).appendingPathComponent(label)
            try? FileManager.default.removeItem(at: kept)
            try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
            for dump in dumps { try FileManager.default.copyItem(at: dump, to: kept.appendingPathComponent(dump.lastPathComponent)) }
        }
        let keys = try dumps.map { try KeyCost(profile: CallgrindProfile(contentsOf: $0), executable: executable) }
        let measurement = try Measurement(facts: facts, keys: keys)
        let all = measurement.aggregate()
        FileHandle.standardError.write(Data(String(
            format: "keystroke-cpu: %@: %@ total, %@ controllers, %@ insert per keystroke (%.0f s, %d frames left out)\n",
            sizeLabel(bytes), grouped(all.total), grouped(all.controllers), grouped(all.insert), Date().timeIntervalSince(started), facts.frames).utf8))
        results.append((bytes, measurement))
    }
    let (report, passed) = markdownReport(results)
    print(report, terminator: "")
    if let markdownPath {
        let directory = (markdownPath as NSString).deletingLastPathComponent
        if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        try report.write(toFile: markdownPath, atomically: true, encoding: .utf8)
    }
    return passed
}

/// The per-keystroke callgrind dumps next to `out` (callgrind names them `out.1`, `out.2`,
/// …), in keystroke order, found by their triggers ("Client Request: keystroke 7").
func keystrokeDumps(next out: URL, count: Int) throws -> [URL] {
    let directory = out.deletingLastPathComponent()
    let prefix = out.lastPathComponent + "."
    var byIndex: [Int: URL] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasPrefix(prefix) {
        let url = directory.appendingPathComponent(name)
        guard let trigger = try CallgrindProfile.trigger(of: url),
              let index = Workload.keystrokeIndex(trigger: trigger) else { continue }
        guard byIndex[index] == nil else { throw BenchmarkError("two dumps for keystroke \(index) next to \(out.path)") }
        byIndex[index] = url
    }
    return try (0..<count).map { index in
        guard let url = byIndex[index] else { throw BenchmarkError("no callgrind dump for keystroke \(index) next to \(out.path)") }
        return url
    }
}

// A missed goal is a FAIL row in the report, not an error: `make bench` goes on and writes
// the whole report. Only a measurement that could not be made exits 1.
do {
    _ = try measure()
    TestSession.exitProcess(0)
} catch {
    FileHandle.standardError.write(Data("keystroke-cpu: \(error)\n".utf8))
    TestSession.exitProcess(1)
}
