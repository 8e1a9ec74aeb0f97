import Foundation
import Testing
import TestHarness

/// The paint meter of `make bench` (Benchmarks/meter/paint-meter.c) works: in a private
/// Xvfb session it sees a frame (an X Damage on the window) for every key typed into the
/// plain C GtkTextView reference, with positive latencies, and the keys reach the text.
/// No timing thresholds: only that the meter measures something real.
@Suite(.serialized)
struct PaintMeterTests {
    /// The C programs, compiled next to the build in a session of their own (its logs are
    /// kept when the compile fails).
    static func tools() throws -> BenchTools {
        let build = try TestSession(name: "meter-build")
        defer { build.stop() }
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".build/paint-meter-test", isDirectory: true)
        do {
            return try BenchTools.build(into: directory, in: build)
        } catch {
            build.markFailed()
            throw error
        }
    }

    /// The meter's CPU is the whole process's: a thread that ran and ended is in it. The
    /// per-thread sum from /proc it used before missed such a thread, and with it every
    /// draft save of the composer's, whose saver ended its thread after each write.
    @Test(.timeLimit(.minutes(3)))
    func countsTheCPUOfThreadsThatEnded() throws {
        let tools = try Self.tools()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        child.arguments = ["-c", """
            import sys, threading, time
            def burn():
                end = time.thread_time() + 0.3
                while time.thread_time() < end:
                    pass
            worker = threading.Thread(target=burn)
            worker.start()
            worker.join()
            print("ended", flush=True)
            sys.stdin.read()
            """]
        let output = Pipe(), input = Pipe()
        child.standardOutput = output
        child.standardInput = input
        try child.run()
        defer {
            try? input.fileHandleForWriting.close()
            child.waitUntilExit()
        }
        // Blocks until the child says its thread ended (or it exits: then the read is empty).
        let said = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(said.contains("ended"), "the child said \(said.debugDescription)")

        let meter = Process()
        meter.executableURL = URL(fileURLWithPath: tools.meter)
        meter.arguments = ["cpu", "--pid", String(child.processIdentifier)]
        let report = Pipe()
        meter.standardOutput = report
        try meter.run()
        let line = report.fileHandleForReading.readDataToEndOfFile()
        meter.waitUntilExit()
        #expect(meter.terminationStatus == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any], "\(line)")
        let cpu = try #require(json["cpu_ns"] as? Int), live = try #require(json["live_threads_ns"] as? Int)
        #expect(cpu >= 300_000_000, "the process's CPU with its ended thread's 0.3 s: \(cpu) ns")
        #expect(cpu - live >= 250_000_000, "the ended thread is not among the live ones: \(cpu) - \(live) ns")
    }

    @Test(.timeLimit(.minutes(3)))
    func seesAFrameForEveryKeyInTheReference() throws {
        let tools = try Self.tools()
        let bench = try BenchSession(name: "paint-meter", inputMethod: .gtkSimple, tools: tools)
        defer { bench.stop() }

        let app = try bench.start([tools.textview, "--print-text"])
        #expect(app.firstFrameMicroseconds > 0)
        #expect(app.firstFrameMicroseconds >= app.mapMicroseconds, "the first frame follows the map")
        #expect(app.rssKiB > 0)

        let keys = ["h", "e", "l", "l", "o", "space", "m", "e", "t", "e", "r"]
        let run = try bench.type(keys, warmup: ["x", "BackSpace"], window: app.window, pid: app.pid)
        #expect(run.measured.map(\.key) == keys)
        for key in run.measured {
            #expect(key.latencyMicroseconds != nil, "no frame seen for key \(key.key)")
            #expect((key.latencyMicroseconds ?? 0) > 0, "latency of \(key.key)")
            #expect((key.lastMicroseconds ?? 0) >= (key.latencyMicroseconds ?? 0))
            #expect(key.frames >= 1)
            // A typed letter repaints at least the glyph's cell.
            #expect(key.damagedPixels >= 20, "damaged pixels of \(key.key): \(key.damagedPixels)")
        }
        #expect(run.missed == 0)
        // The whole process's CPU over the measured keys (the warm-up's not counted): every
        // key made the process work, so the run time is not 0, and the tick count (utime +
        // stime) is never below 0.
        let cpu = try #require(run.cpu, "no cpu line with --pid")
        #expect(cpu.measuredKeys == keys.count)
        #expect(cpu.nanoseconds > 0)
        #expect(cpu.ticks >= 0)
        #expect(cpu.wakeups > 0, "the process woke up for the keys")

        // The keys really reached the text view: it prints its text when it exits.
        #expect(try app.stop() == 0)
        #expect(app.output.contains("hello meter"), "the reference's text: \(app.output.suffix(300))")
        #expect(BenchSession.glibProblems(in: app.output) == [])
    }

    @Test(.timeLimit(.minutes(3)))
    func idleReferenceIsQuiet() throws {
        let tools = try Self.tools()
        let bench = try BenchSession(name: "paint-meter-idle", inputMethod: .gtkSimple, tools: tools)
        defer { bench.stop() }
        let app = try bench.start([tools.textview])
        let idle = try bench.idle(window: app.window, pid: app.pid, seconds: 1)
        // The caret blink is off in the session's settings: nothing paints while idle.
        #expect(idle.frames == 0, "frames while idle: \(idle.frames)")
        #expect(idle.rssKiB > 0)
        #expect(idle.threads > 0)
        #expect(try app.stop() == 0)
    }

    /// One keystroke, one frame, in the composer too — also for the key that wraps the text
    /// onto a second line, where the input grows: the text, its new height, the counter and
    /// Send land in one frame, and nothing paints after it. (GTK used to start a scroll
    /// animation there, toward a caret below the input's old height: ~10 frames that all
    /// look the same.) A frame is a burst of damage the meter sees until the window is
    /// quiet; counting frames needs no timing threshold.
    @Test(.timeLimit(.minutes(3)))
    func composerPaintsOneFramePerKeyAlsoWhenTheInputGrows() throws {
        let tools = try Self.tools()
        let bench = try BenchSession(name: "paint-meter-composer", inputMethod: .gtkSimple, tools: tools)
        defer { bench.stop() }
        let profile = bench.session.directory.appendingPathComponent("profile", isDirectory: true)
        let app = try bench.start([try ComposerBinary.path, "--profile", profile.path])

        // Longer than the input is wide (about 40 characters at 480 px): it wraps once.
        let sentence = "the quick brown fox jumps over the lazy dog while we type"
        let keys = sentence.map { $0 == " " ? "space" : String($0) }
        let run = try bench.type(keys, warmup: ["x", "BackSpace"], window: app.window, pid: app.pid)
        #expect(run.missed == 0)
        let repainted = run.measured.enumerated().filter { $0.element.frames != 1 }
            .map { "key \($0.offset) (\($0.element.key)): \($0.element.frames) frames" }
        #expect(repainted == [], "keys that did not paint exactly once: \(repainted)")
        #expect(try app.stop() == 0)
        #expect(BenchSession.glibProblems(in: app.output) == [])
    }

    /// `make bench` gives the plain GtkTextView the composer's input size: a paragraph then
    /// wraps at the same characters in both and shows as tall a view (read through
    /// AT-SPI), where the window-wide reference wraps it later. Each wrap in a text view
    /// that scrolls costs ~45 frames of GTK's scroll indicator, so unequal geometry made
    /// unequal rows.
    @Test(.timeLimit(.minutes(3)))
    func referenceGivenTheComposerInputSizeWrapsTheSameLines() throws {
        let tools = try Self.tools()
        let bench = try BenchSession(name: "paint-meter-wrap", inputMethod: .gtkSimple, tools: tools)
        defer { bench.stop() }
        let paragraph = bench.session.directory.appendingPathComponent("paragraph.txt")
        try (0..<120).map { "word\($0)" }.joined(separator: " ").write(to: paragraph, atomically: true, encoding: .utf8)
        let profile = bench.session.directory.appendingPathComponent("profile", isDirectory: true)

        let composer = try bench.start([try ComposerBinary.path, "--profile", profile.path, "--text-file", paragraph.path])
        let mine = try bench.textGeometry(pid: composer.pid, lines: true)
        #expect(try composer.stop() == 0)
        #expect(mine.width > 100 && mine.width < 480, "the composer's input width: \(mine.width) (its buttons are beside it)")
        #expect(mine.height > 60 && mine.height < 300, "the composer's full input height: \(mine.height) (six lines)")
        #expect(mine.lineStarts.count > 6, "the paragraph wraps past the input's six lines: \(mine.lineStarts)")

        let sized = try bench.start([tools.textview, "--text-file", paragraph.path,
                                     "--text-width", String(mine.width), "--text-height", String(mine.height)])
        let theirs = try bench.textGeometry(pid: sized.pid, lines: true)
        #expect(try sized.stop() == 0)
        #expect(theirs.width == 480, "the text view keeps the window's width; its right margin takes the rest")
        #expect(theirs.height == mine.height)
        #expect(theirs.lineStarts == mine.lineStarts)

        let wide = try bench.start([tools.textview, "--text-file", paragraph.path])
        let unchanged = try bench.textGeometry(pid: wide.pid, lines: true)
        #expect(try wide.stop() == 0)
        #expect(unchanged.lineStarts.count < mine.lineStarts.count, "the window-wide view wraps less: \(unchanged.lineStarts)")
        #expect(unchanged.height > mine.height)
    }

    /// `paint-meter paste` (the bench's paste rows): Control+V into the plain GtkTextView
    /// with another application owning the clipboard (xclip), then until the process
    /// settled: the paste painted, the settle comes after its last paint, the process
    /// worked for it, and the whole text arrived (its length read through AT-SPI).
    @Test(.timeLimit(.minutes(3)))
    func pasteMeterWaitsUntilTheWholeClipboardArrived() throws {
        let tools = try Self.tools()
        let bench = try BenchSession(name: "paint-meter-paste", inputMethod: .gtkSimple, tools: tools)
        defer { bench.stop() }
        let text = (0..<4000).map { "line \($0) of the clipboard, 貼り付け\n" }.joined()
        let file = bench.session.directory.appendingPathComponent("clipboard.txt")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let owner = try bench.ownClipboard(file)
        defer { owner.stop() }

        let app = try bench.start([tools.textview])
        let paste = try bench.paste(window: app.window, pid: app.pid)
        #expect(paste.firstMicroseconds > 0)
        #expect(paste.lastMicroseconds >= paste.firstMicroseconds)
        #expect(paste.settledMicroseconds >= paste.lastMicroseconds)
        #expect(paste.cpuNanoseconds > 0, "the process worked for the paste")
        #expect(paste.rssKiB > 0)
        #expect(try bench.textGeometry(pid: app.pid).characters == text.unicodeScalars.count, "the whole clipboard arrived")
        #expect(try app.stop() == 0)
        #expect(BenchSession.glibProblems(in: app.output) == [])
    }
}
