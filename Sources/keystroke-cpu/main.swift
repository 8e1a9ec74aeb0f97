import ArgumentParser
import Foundation
import IMELab

// keystroke-cpu: the composer's CPU per committed keystroke, 1 KB vs 1 MB draft (issue #11).
//
//     keystroke-cpu [--markdown FILE] [--sizes 1024,1048576] [--profiles DIR] [--data DIR]
//
// Re-runs itself under `valgrind --tool=callgrind` (instruction counts are repeatable on a
// noisy machine) in a private Xvfb + D-Bus session, once per draft size; the child opens a
// real composer window and commits keystrokes through its input method context (see
// Child.swift). The parent reads the callgrind files and prints a table; `--markdown`
// writes it as a section for `make bench`, where controllers that are not flat (1 MB ÷ 1 KB
// > 1.5×) are a FAIL row. Exit status 1 when the run went wrong. `--help` says more
// (KeystrokeCPU.swift).

/// This executable (valgrind runs it again as the child).
let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]

/// The data directory: --data, $IME_COMPOSER_DATA, else `data/` above the executable or here.
@MainActor func findData(_ dataOption: String?) -> String {
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

@MainActor func measure(_ options: KeystrokeCPU) throws -> Bool {
    guard let valgrind = findValgrind() else {
        throw BenchmarkError("valgrind not found (Debian: apt-get install valgrind)")
    }
    let data = findData(options.data)
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
    let profilesDirectory = options.profilesDirectory
    if let profilesDirectory {
        try FileManager.default.createDirectory(atPath: profilesDirectory, withIntermediateDirectories: true)
    }
    var results: [(bytes: Int, measurement: Measurement)] = []
    for bytes in options.draftSizes {
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
    if let markdownPath = options.markdown {
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

// Any command-line error exits 2 with ArgumentParser's message (its default is 64); --help
// exits 0. The run ends through TestSession.exitProcess, which waits for an interrupt
// handler already stopping the session.
do {
    var command = try KeystrokeCPU.parseAsRoot()
    try command.run()
    TestSession.exitProcess(0)
} catch {
    if KeystrokeCPU.exitCode(for: error) == .success { KeystrokeCPU.exit(withError: error) }
    if let code = error as? ExitCode { TestSession.exitProcess(code.rawValue) }
    FileHandle.standardError.write(Data((KeystrokeCPU.fullMessage(for: error) + "\n").utf8))
    TestSession.exitProcess(2)
}
