import Foundation
import Testing
import ComposerCore
import TestHarness

/// `make run` with no display runs `composer-demo`: a real private session that types
/// Japanese and Korean through IBus, saves screenshots and the trace, prints a summary
/// and exits by itself. Run it for real and check what it leaves behind.
@Suite(.serialized)
struct HeadlessDemoTests {
    @Test(.timeLimit(.minutes(3)))
    func theDemoTypesJapaneseAndKoreanSavesScreenshotsAndSummarises() throws {
        let demo = URL(fileURLWithPath: try ComposerBinary.path).deletingLastPathComponent()
            .appendingPathComponent("composer-demo")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }

        let process = Process()
        process.executableURL = demo
        process.arguments = [out.path]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let summary = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "demo failed: \(summary)")

        for name in ["1-japanese-converting", "2-japanese-sent", "3-korean-composing",
                     "4-korean-sent", "5-messages-and-a-conversion"] {
            let png = try Data(contentsOf: out.appendingPathComponent(name + ".png"))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name).png is a PNG")
            #expect(png.count > 2_000, "\(name).png has content")
        }

        let trace = TraceLog(url: out.appendingPathComponent("trace.jsonl"))
        let sends = trace.events(named: "send").compactMap { $0["text"]?.stringValue }
        #expect(sends.count == 2, "\(sends)")
        #expect(sends.last == "안녕하세요")
        #expect(sends.first?.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } == true,
                "the Japanese message has kanji: \(sends)")
        let exit = try #require(trace.events.last)
        #expect(exit["ev"]?.stringValue == "exit")
        #expect(exit["preedit"]?.stringValue?.isEmpty == false, "exits while a conversion is pending")
        #expect(exit["text"]?.stringValue == "", "the pending conversion never reached the text")

        #expect(summary.contains("안녕하세요") && summary.contains(sends.first ?? "?"), "\(summary)")
        #expect(summary.contains(out.path), "the summary says where the files are: \(summary)")
    }
}
