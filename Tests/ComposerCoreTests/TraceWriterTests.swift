import ComposerCore
import Foundation
import Testing

@Suite("TraceWriter: one flushed line per event")
struct TraceWriterTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).jsonl").path
    }

    private func lines(at path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func nothingIsWrittenAfterExit() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceWriter(path: path)
        writer.emit(.text(TextSnapshot(text: "a", caret: 1, selection: TextSelection(caret: 1))))
        #expect(!writer.isFinished)
        writer.emit(.exit(text: "a", caret: 1, preedit: "", reason: .close))
        writer.emit(.focus(in: false))
        writer.emit(.commit("late"))
        #expect(writer.isFinished)
        let written = try lines(at: path).filter { !$0.isEmpty }
        #expect(written.count == 2)
        #expect(try JSONValue.parse(written.last!)["ev"]?.stringValue == "exit")
        #expect(writer.emitted.last == .exit(text: "a", caret: 1, preedit: "", reason: .close))
    }

    @Test func eachEmitIsReadableImmediatelyAsOneLine() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceWriter(path: path)
        writer.emit(.start(backend: "x11", imModule: "ibus", settings: TranscriptSettings()))
        #expect(try lines(at: path).count == 2)  // one line plus the empty tail after "\n"
        writer.emit(.commit("line\nbreak"))
        writer.emit(.ready)
        let written = try lines(at: path)
        #expect(written.count == 4 && written.last == "")
        let events = try written.dropLast().map { try JSONValue.parse($0) }
        #expect(events.map { $0["ev"]?.stringValue } == ["start", "commit", "ready"])
        #expect(events[1]["text"]?.stringValue == "line\nbreak")
        let times = events.compactMap { $0["t"]?.intValue }
        #expect(times.count == 3 && times.allSatisfy { $0 >= 0 })
        #expect(times == times.sorted())
        #expect(writer.emitted == [.start(backend: "x11", imModule: "ibus", settings: TranscriptSettings()), .commit("line\nbreak"), .ready])
    }

    @Test func openingTruncatesAnExistingFile() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "old content\nold content\n".write(toFile: path, atomically: false, encoding: .utf8)
        let writer = try TraceWriter(path: path)
        writer.emit(.ready)
        #expect(try lines(at: path).first?.hasPrefix(#"{"ev":"ready","t":"#) == true)
        #expect(try lines(at: path).count == 2)
    }

    @Test func badPathErrorNamesThePath() {
        let path = "/nonexistent-dir-\(UUID().uuidString)/trace.jsonl"
        do {
            _ = try TraceWriter(path: path)
            Issue.record("opening \(path) should fail")
        } catch {
            #expect("\(error)".contains(path))
            #expect("\(error)".contains("No such file"))
        }
    }

    @Test func disabledWriterWritesNothingButRemembers() {
        let writer = TraceWriter.disabled()
        writer.emit(.ready)
        #expect(writer.emitted == [.ready])
    }

    @Test func inMemoryHistoryKeepsTheLastTenThousand() {
        let writer = TraceWriter.disabled()
        for index in 0..<(TraceWriter.historyCapacity + 5) {
            writer.emit(.send(String(index)))
        }
        let emitted = writer.emitted
        #expect(emitted.count == TraceWriter.historyCapacity)
        #expect(emitted.first == .send("5"))
        #expect(emitted.last == .send(String(TraceWriter.historyCapacity + 4)))
    }

    // MARK: Privacy and a reader that goes away (issue #15)

    private func mode(of path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func theTraceIsItsOwnersOnlyNewOrTruncated() throws {
        let fresh = temporaryPath(), existing = temporaryPath()
        defer { for path in [fresh, existing] { try? FileManager.default.removeItem(atPath: path) } }
        _ = try TraceWriter(path: fresh)
        #expect(try mode(of: fresh) == 0o600, "a keystroke log")
        _ = FileManager.default.createFile(atPath: existing, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644])
        _ = try TraceWriter(path: existing)
        #expect(try mode(of: existing) == 0o600, "an older, wider file is made private when truncated")
    }

    @Test func aSymbolicLinkIsNeverFollowed() throws {
        let target = temporaryPath(), link = temporaryPath()
        defer { for path in [target, link] { try? FileManager.default.removeItem(atPath: path) } }
        _ = FileManager.default.createFile(atPath: target, contents: Data("someone else's".utf8))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect {
            _ = try TraceWriter(path: link)
        } throws: { error in
            (error as? TraceWriterError)?.description.contains("symbolic link") == true
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "someone else's", "the link's target is untouched")
    }

    /// The reader of a pipe goes away: writing stops with a reason, nothing crashes, later
    /// events are dropped quietly (the app ignores SIGPIPE; so does this test process).
    @Test func aReaderThatGoesAwayStopsTheTraceAndNothingElse() throws {
        signal(SIGPIPE, SIG_IGN)
        let fifo = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        let writer = try TraceWriter(path: fifo)
        writer.emit(.ready)
        var buffer = [UInt8](repeating: 0, count: 64)
        let read = Foundation.read(reader, &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(0, read)), as: UTF8.self).hasPrefix(#"{"ev":"ready""#))
        close(reader)
        writer.emit(.commit("lost"))
        #expect(writer.failure == "its reader went away")
        writer.emit(.commit("also lost"))
        #expect(writer.emitted.last == .commit("also lost"), "in-process history goes on")
    }

    /// A reader that does not read (yet): emitting never blocks; what the pipe cannot take
    /// waits in order and reaches the reader, whole, once it reads.
    @Test(.timeLimit(.minutes(1))) func aStalledReaderNeverBlocksAndLaterGetsEveryLine() throws {
        signal(SIGPIPE, SIG_IGN)
        let fifo = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let writer = try TraceWriter(path: fifo)
        let commits = (0..<2_000).map { "line \($0) " + String(repeating: "字", count: 40) }
        for text in commits { writer.emit(.commit(text)) }  // ~300 KB: far past the pipe's buffer
        #expect(writer.pendingBytes > 0, "the rest waits for the reader")
        #expect(writer.failure == nil)

        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(30)
        while received.filter({ $0 == UInt8(ascii: "\n") }).count < commits.count, Date() < deadline {
            let count = Foundation.read(reader, &buffer, buffer.count)
            if count > 0 {
                received += buffer.prefix(count)
            } else {
                var poller = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, 100)
            }
        }
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == commits.count)
        for (line, text) in zip(lines, commits) {
            #expect(line.hasPrefix(#"{"ev":"commit""#) && line.contains(text))
        }
        #expect(writer.pendingBytes == 0)
    }

    /// A reader that never reads: past the limit the trace stops with a message, at once.
    @Test(.timeLimit(.minutes(1))) func aReaderThatNeverReadsIsGivenUpOn() throws {
        signal(SIGPIPE, SIG_IGN)
        let fifo = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let writer = try TraceWriter(path: fifo)
        let big = String(repeating: "x", count: 1 << 20)
        for _ in 0..<20 { writer.emit(.commit(big)) }
        #expect(writer.failure?.contains("its reader is not reading") == true)
        #expect(writer.pendingBytes == 0, "nothing kept once given up")
        writer.emit(.exit(text: "", caret: 0, preedit: "", reason: .close))  // returns at once
    }
}
