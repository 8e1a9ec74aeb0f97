import Foundation
import Testing
import ComposerCore
import TestHarness

/// `make run` with no display runs `composer-demo`: a real private session that types
/// Japanese and Korean through IBus, saves screenshots and the trace, prints a summary
/// and exits by itself. Run it for real and check what it leaves behind.
@Suite(.serialized)
struct HeadlessDemoTests {
    /// The demo as `make run` starts it, writing into `out`, with `temporary` as its TMPDIR
    /// (its session folder goes there) and no display.
    static func demo(out: URL, temporary: PrivateTemporaryDirectory, output: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ComposerBinary.path).deletingLastPathComponent()
            .appendingPathComponent("composer-demo")
        process.arguments = [out.path]
        process.environment = temporary.environment
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return process
    }

    /// The demo run twice into the same folder, as `make run` twice in a row: each run
    /// succeeds and starts afresh (an empty input, no messages), not from the draft the
    /// earlier one saved (the conversion on screen at its exit) or its messages, so both
    /// type and send the same (issue #31, item 6: the second run failed).
    @Test(.timeLimit(.minutes(5)))
    func theDemoTypesJapaneseAndKoreanSavesScreenshotsAndSummarises() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let temporary = try PrivateTemporaryDirectory()
        defer { temporary.remove() }

        let first = try Self.runAndCheck(out: out, temporary: temporary, run: 1)
        let second = try Self.runAndCheck(out: out, temporary: temporary, run: 2)
        #expect(second == first, "the second run sent what the first did")
    }

    /// The relative luminance (0…1) of the pixel at (240, 300) of a PNG, read by ImageMagick.
    static func luminance(of png: URL) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
        process.arguments = [png.path, "-format", "%[pixel:p{240,300}]", "info:"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "srgb(250,250,250)" (or "srgba(…)", "gray(…)"): the numbers in the parentheses.
        let numbers = text.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        guard process.terminationStatus == 0, numbers.count >= 3 else {
            throw HarnessError("convert could not read \(png.lastPathComponent): \(text)")
        }
        return (0.2126 * numbers[0] + 0.7152 * numbers[1] + 0.0722 * numbers[2]) / 255
    }

    /// Runs the demo into `out` and checks what it leaves there; returns what it sent.
    static func runAndCheck(out: URL, temporary: PrivateTemporaryDirectory, run: Int) throws -> [String] {
        let output = Pipe()
        let process = try Self.demo(out: out, temporary: temporary, output: output)
        try process.run()
        let summary = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "run \(run): demo failed: \(summary)")

        for name in ["1-japanese-converting", "2-japanese-sent", "3-korean-composing",
                     "4-korean-sent", "5-messages-and-a-conversion", "6-dark-style"] {
            let png = try Data(contentsOf: out.appendingPathComponent(name + ".png"))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "run \(run): \(name).png is a PNG")
            #expect(png.count > 2_000, "run \(run): \(name).png has content")
        }
        // libadwaita's styles are on screen, light and then dark: the empty message list's
        // colour in the middle of the window.
        #expect(try Self.luminance(of: out.appendingPathComponent("5-messages-and-a-conversion.png")) > 0.8,
                "run \(run): a light window")
        #expect(try Self.luminance(of: out.appendingPathComponent("6-dark-style.png")) < 0.3,
                "run \(run): a dark window")

        let trace = TraceLog(url: out.appendingPathComponent("trace.jsonl"))
        #expect(trace.events(named: "text").first?["text"]?.stringValue == "",
                "run \(run): the app started with an empty input")
        #expect(trace.events(named: "history").isEmpty, "run \(run): the app started with no messages")
        let sends = trace.events(named: "send").compactMap { $0["text"]?.stringValue }
        #expect(sends.count == 2, "run \(run): \(sends)")
        #expect(sends.last == "안녕하세요")
        #expect(sends.first?.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } == true,
                "run \(run): the Japanese message has kanji: \(sends)")
        let exit = try #require(trace.events.last)
        #expect(exit["ev"]?.stringValue == "exit")
        #expect(exit["preedit"]?.stringValue?.isEmpty == false, "run \(run): exits while a conversion is pending")
        #expect(exit["text"]?.stringValue == "", "run \(run): the pending conversion never reached the text")

        #expect(summary.contains("안녕하세요") && summary.contains(sends.first ?? "?"), "\(summary)")
        #expect(summary.contains(out.path), "the summary says where the files are: \(summary)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
                == ["1-japanese-converting.png", "2-japanese-sent.png", "3-korean-composing.png",
                    "4-korean-sent.png", "5-messages-and-a-conversion.png", "6-dark-style.png", "trace.jsonl"],
                "run \(run): only the screenshots and the trace in \(out.path)")

        // Nothing outlives the demo: not its X server, buses, accessibility bus or input
        // method, not its session folder (nor the app's profile in it).
        try temporary.expectNothingLeft()
        return sends
    }

    /// Ctrl+C in the middle of the demo stops its whole session too.
    @Test(.timeLimit(.minutes(2)))
    func ctrlCStopsTheDemosSessionAndRemovesItsFolder() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let temporary = try PrivateTemporaryDirectory()
        defer { temporary.remove() }
        let process = try Self.demo(out: out, temporary: temporary)
        try process.run()
        // Once the input method is up the session has its X server, bus and IBus running.
        _ = try Wait.until("the demo's ibus-daemon", timeout: .seconds(60)) {
            temporary.processes().contains { $0.name.hasPrefix("ibus-daemon") } ? true : nil
        }
        process.interrupt()  // SIGINT, as Ctrl+C in a terminal
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGINT, "status \(process.terminationStatus)")
        try temporary.expectNothingLeft()
    }

    /// `--help` prints the usage; an option or a second argument is refused with the usage
    /// and status 2, before any session starts and without creating a directory named
    /// after it.
    static let argumentCases: [([String], Int32)] = [(["--help"], 0), (["-h"], 0), (["--out"], 2), (["a", "b"], 2),
                                                     (["-"], 2)]

    @Test(arguments: argumentCases)
    func argumentsAreCheckedBeforeAnythingStarts(arguments: [String], status: Int32) throws {
        let temporary = try PrivateTemporaryDirectory()
        defer { temporary.remove() }
        let work = URL(fileURLWithPath: temporary.path).appendingPathComponent("cwd", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ComposerBinary.path).deletingLastPathComponent()
            .appendingPathComponent("composer-demo")
        process.arguments = arguments
        process.environment = temporary.environment
        process.currentDirectoryURL = work
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            + String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == status, "\(arguments): \(printed)")
        // ArgumentParser writes "USAGE:" in the help and "Usage:" after an error.
        #expect(printed.lowercased().contains("usage: composer-demo"), "\(arguments): \(printed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == [], "nothing created for \(arguments)")
    }
}

/// A `TMPDIR` of one's own for a child that starts test sessions: afterwards, every process
/// whose environment points into it and every folder left in it is something that child
/// failed to clean up.
struct PrivateTemporaryDirectory {
    let path: String

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/ime-tmpdir-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed: errno \(errno)") }
        path = String(cString: made)
    }

    /// The test's environment without a display, with TMPDIR here.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment["TMPDIR"] = path
        return environment
    }

    /// Live processes (not zombies) whose environment mentions this directory.
    func processes() -> [(pid: Int32, name: String)] {
        let needle = Array(path.utf8)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> (Int32, String)? in
            guard let pid = Int32(entry), pid != getpid(),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                  data.split(separator: 0).contains(where: { $0.firstRange(of: needle) != nil }) else { return nil }
            let name = (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8)) ?? "?"
            return (pid, name.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    func expectNothingLeft(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let left = processes()
        #expect(left.isEmpty, "processes left running: \(left)", sourceLocation: sourceLocation)
        for process in left { kill(process.pid, SIGKILL) }
        let folders = try FileManager.default.contentsOfDirectory(atPath: path)
        #expect(folders.isEmpty, "left in TMPDIR: \(folders)", sourceLocation: sourceLocation)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
