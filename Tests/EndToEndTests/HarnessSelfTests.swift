import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import Testing
import ComposerCore
import TestHarness

/// The harness itself, against the real programs (Xvfb, dbus-daemon, ibus-daemon, xdotool).
/// A missing program fails the test with a pointer to scripts/install-deps.sh; nothing is skipped.
@Suite(.serialized)
struct HarnessSelfTests {

    @Test(.timeLimit(.minutes(2)))
    func ibusAnthyStartsUnderXvfbWithPrivateDBus() throws {
        try Prerequisites.require(Prerequisites.x11 + Prerequisites.ibus)
        try Prerequisites.requireIBusEngine("anthy")
        let session = try TestSession(name: "self-ibus")
        defer { session.stop() }

        let xvfb = try Xvfb.start(in: session)
        #expect(xvfb.display.hasPrefix(":"))
        #expect(session.environment["DISPLAY"] == xvfb.display)
        try session.runChecked("xdpyinfo")

        let dbus = try DBusSession.start(in: session)
        #expect(dbus.address.hasPrefix("unix:"))
        #expect(session.environment["DBUS_SESSION_BUS_ADDRESS"] == dbus.address)

        let env = session.environment
        #expect(env["PATH"]?.hasPrefix("/usr/bin:/bin:") == true)
        #expect(env["GSETTINGS_BACKEND"] == "keyfile")
        #expect(env["HOME"] == session.home.path)
        #expect(env["XDG_CONFIG_HOME"] == session.configHome.path)
        let runtimeMode = try FileManager.default.attributesOfItem(atPath: session.runtimeDir.path)[.posixPermissions] as? Int
        #expect(runtimeMode == 0o700)

        let ibus = try IBus.startAnthy(session)
        #expect(try ibus.currentEngine() == "anthy")
        #expect(try session.runChecked("ibus", ["engine"]).output == "anthy")
        // The option went to the private keyfile, not to a real dconf.
        #expect(try IBus.gsettingsGet(session, schema: "org.freedesktop.ibus.engine.anthy.common", key: "input-mode") == "0")
        let keyfile = session.configHome.appendingPathComponent("glib-2.0/settings/keyfile")
        #expect(FileManager.default.fileExists(atPath: keyfile.path))

        let helpers = [xvfb.process, dbus.process, ibus.process]
        session.stop()
        session.stop()  // idempotent
        for p in helpers {
            #expect(!p.isRunning, "\(p.name) still running after stop()")
        }
        #expect(processesCarrying(marker: session.id).isEmpty, "processes of the session survived stop()")
    }

    @Test(.timeLimit(.minutes(1)))
    func hangulSettingsAreWrittenBeforeTheDaemonStarts() throws {
        try Prerequisites.require(Prerequisites.x11 + Prerequisites.ibus)
        try Prerequisites.requireIBusEngine("hangul")
        let session = try TestSession(name: "self-hangul")
        defer { session.stop() }
        _ = try Xvfb.start(in: session)
        _ = try DBusSession.start(in: session)
        let ibus = try IBus.startHangul(session)
        #expect(try ibus.currentEngine() == "hangul")
        let schema = "org.freedesktop.ibus.engine.hangul"
        #expect(try IBus.gsettingsGet(session, schema: schema, key: "initial-input-mode") == "'hangul'")
        #expect(try IBus.gsettingsGet(session, schema: schema, key: "use-event-forwarding") == "false")
    }

    /// xdotool against a real X client: xev prints the key events it receives.
    @Test(.timeLimit(.minutes(1)))
    func xdotoolFindsFocusesAndTypesIntoAWindow() throws {
        try Prerequisites.require(Prerequisites.x11 + ["xev"] + Prerequisites.screenshots)
        let session = try TestSession(name: "self-xdotool")
        defer { session.stop() }
        _ = try Xvfb.start(in: session)
        let xev = try session.launch("xev", executable: "xev", arguments: ["-event", "keyboard", "-event", "focus"])
        let xdo = XDoTool(session: session)
        let window = try xdo.waitForWindow(pid: xev.pid, name: "Event Tester", process: xev)
        try xdo.focus(window)
        #expect(try xdo.focusedWindow() == window)
        try xdo.key(["a"])
        try xdo.type("z")
        _ = try Wait.until("xev to report keysym z", timeout: .seconds(10), diagnostics: { xev.diagnostics() }) {
            xev.stdout.contains("(keysym 0x7a, z)")
        }
        #expect(xev.stdout.contains("(keysym 0x61, a)"))
        let png = try Screenshot.capture(session: session, path: session.directory.appendingPathComponent("shot.png"))
        let size = (try FileManager.default.attributesOfItem(atPath: png.path)[.size] as? Int) ?? 0
        #expect(size > 100)
    }

    @Test(.timeLimit(.minutes(1)))
    func traceLogSeesLinesWrittenConcurrently() throws {
        let session = try TestSession(name: "self-trace")
        defer { session.stop() }
        let url = session.directory.appendingPathComponent("trace.jsonl")
        let trace = TraceLog(url: url)  // the file does not exist yet
        #expect(trace.events.isEmpty)

        let writer = Thread {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            guard let h = try? FileHandle(forWritingTo: url) else { return }
            defer { try? h.close() }
            func write(_ s: String) {
                h.write(Data(s.utf8))
                Thread.sleep(forTimeInterval: 0.05)
            }
            write(#"{"ev":"start","t":0}"# + "\n")
            write(#"{"ev":"preedit","t":5,"text":"こ","cursor":1,"segments":[[0,1,["underline"]]]}"# + "\n")
            // A line arriving in two pieces must not be parsed half-way.
            write(#"{"ev":"commit","t":9,"#)
            write(#""text":"子猫"}"# + "\n")
            for i in 0..<5 { write(#"{"ev":"key","t":\#(10 + i),"keyval":\#(65 + i)}"# + "\n") }
            write(#"{"ev":"exit","t":99,"text":"子猫","caret":2,"preedit":"","reason":"sigterm"}"# + "\n")
        }
        writer.start()

        let commit = try trace.waitFor("the commit of 子猫") { $0["ev"]?.stringValue == "commit" }
        #expect(commit["text"]?.stringValue == "子猫")
        let exit = try trace.waitFor(event: "exit", timeout: .seconds(10))
        #expect(exit["reason"]?.stringValue == "sigterm")

        #expect(trace.events.count == 9)
        #expect(trace.events(named: "key").compactMap { $0["keyval"]?.intValue } == [65, 66, 67, 68, 69])
        #expect(trace.lines[2] == #"{"ev":"commit","t":9,"text":"子猫"}"#)
        #expect(trace.events(named: "preedit").first?["segments"]?.arrayValue?.count == 1)
        #expect(trace.malformedLines.isEmpty)
        // waitForNext only looks after the previous match.
        let firstKey = try trace.waitFor(event: "key")
        #expect(firstKey["keyval"]?.intValue == 65)
        let secondKey = try trace.waitForNext("the next key") { $0["ev"]?.stringValue == "key" }
        #expect(secondKey["keyval"]?.intValue == 66)
    }

    @Test(.timeLimit(.minutes(1)))
    func timeoutErrorNamesWhatWasAwaited() throws {
        let session = try TestSession(name: "self-timeout")
        defer { session.stop() }
        let url = session.directory.appendingPathComponent("trace.jsonl")
        try Data((#"{"ev":"start","t":0}"# + "\n").utf8).write(to: url)
        let trace = TraceLog(url: url)

        let clock = ContinuousClock()
        let started = clock.now
        let error = #expect(throws: HarnessError.self) {
            try trace.waitFor("the unicorn event", timeout: .milliseconds(300)) { $0["ev"]?.stringValue == "unicorn" }
        }
        let elapsed = clock.now - started
        let message = error?.description ?? ""
        #expect(message.contains("timed out"))
        #expect(message.contains("the unicorn event"))
        #expect(message.contains(#"{"ev":"start","t":0}"#), "the error shows the last trace lines")
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(5))
    }

    @Test(.timeLimit(.minutes(1)))
    func waitFailsFastWhenTheWatchedProcessExits() throws {
        let session = try TestSession(name: "self-failfast")
        defer { session.stop() }
        let url = session.directory.appendingPathComponent("trace.jsonl")
        let p = try session.launch("dying-app", executable: "/bin/sh",
                                   arguments: ["-c", "echo '{\"ev\":\"start\",\"t\":0}' > '\(url.path)'; echo 'boom: no display' >&2; exit 3"])
        let trace = TraceLog(url: url, watching: p)
        let clock = ContinuousClock()
        let started = clock.now
        let error = #expect(throws: HarnessError.self) {
            try trace.waitFor("the ready event", timeout: .seconds(20)) { $0["ev"]?.stringValue == "ready" }
        }
        #expect(clock.now - started < .seconds(10), "did not wait for the full timeout")
        let message = error?.description ?? ""
        #expect(message.contains("exited before the trace showed the ready event"))
        #expect(message.contains("boom: no display"), "the error shows the process's stderr")
        #expect(message.contains("status 3"))
        #expect(try p.waitForExit() == 3)
        // An event written just before exit is still found.
        #expect(try trace.waitFor(event: "start")["t"]?.intValue == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func appProcessReportsSignalsAndExitCodes() throws {
        let session = try TestSession(name: "self-process")
        defer { session.stop() }
        let sleeper = try session.launch("sleeper", executable: "sleep", arguments: ["60"])
        #expect(sleeper.isRunning)
        sleeper.terminate(signal: SIGTERM)
        #expect(try sleeper.waitForExit(timeout: .seconds(5)) == 128 + SIGTERM)
        #expect(sleeper.wasSignaled)

        let r = try session.run("sh", ["-c", "echo out; echo err >&2; exit 7"])
        #expect(r.status == 7 && r.output == "out" && r.stderr == "err\n")

        let error = #expect(throws: HarnessError.self) {
            try session.run("sleep", ["30"], timeout: .milliseconds(200))
        }
        #expect(error?.description.contains("timed out") == true)

        let missing = #expect(throws: HarnessError.self) {
            try session.launch("nope", executable: "definitely-not-installed-tool")
        }
        #expect(missing?.description.contains("scripts/install-deps.sh") == true)
        #expect(session.failed, "a harness error marks the session failed (its logs are saved)")
        session.failed = false  // provoked on purpose: no logs to keep
        session.stop()
        #expect(!FileManager.default.fileExists(atPath: session.directory.path))
    }

    /// An app that aborts on a GLib warning prints the warning, then a long crash report:
    /// the failure message still quotes the warning (not only the report's last lines), and
    /// the session's logs are kept although no harness error was raised.
    @Test(.timeLimit(.minutes(1)))
    func anAbortIsExplainedByTheMessageItAbortedOn() throws {
        let session = try TestSession(name: "self-abort")
        defer { session.stop() }
        let script = """
            echo 'ime-composer: fatal GLib problem (IME_COMPOSER_FATAL_WARNINGS): a critical from IBUS: provoked' >&2
            echo '*** Program crashed: Aborted at 0x0000000000000000 ***' >&2
            i=0; while [ $i -lt 200 ]; do echo "rax 0x000000000000$i" >&2; i=$((i+1)); done
            kill -ABRT $$
            """
        let app = try session.launch("ime-composer", executable: "sh", arguments: ["-c", script])
        #expect(try app.waitForExit() == 128 + SIGABRT)
        #expect(app.crashed)
        let diagnostics = app.diagnostics()
        #expect(diagnostics.contains("a critical from IBUS: provoked"), "\(diagnostics)")
        #expect(diagnostics.contains("*** Program crashed"), "\(diagnostics)")
        #expect(diagnostics.contains("rax 0x000000000000199"), "the last lines follow")
        #expect(!diagnostics.contains("rax 0x00000000000010\n"), "not the whole report")
        session.stop()
        let logs = TestSession.failureArtifacts.appendingPathComponent(session.id)
        if FileManager.default.fileExists(atPath: TestSession.failureArtifacts.deletingLastPathComponent().path) {
            let kept = (try? FileManager.default.contentsOfDirectory(atPath: logs.path)) ?? []
            #expect(kept.contains("ime-composer.stderr"), "a crashed app's logs are kept: \(kept)")
            try? FileManager.default.removeItem(at: logs)
        }
    }

    /// A failing session leaves nothing behind either: not its processes (also one that left
    /// the process group, as D-Bus activated services do), not its directory; its logs are
    /// kept under .build/harness-failures for reading the failure.
    @Test(.timeLimit(.minutes(1)))
    func aFailedSessionStopsEverythingAndRemovesItsDirectory() throws {
        let session = try TestSession(name: "self-failed")
        defer { session.stop() }
        _ = try session.launch("sleeper", executable: "sleep", arguments: ["60"])
        // A grandchild in its own session and process group: only the marker finds it.
        let escaped = try session.launch("escaper", executable: "sh",
                                         arguments: ["-c", "setsid sleep 61 & echo started; wait"])
        _ = try Wait.until("the escaped sleeper", timeout: .seconds(10)) {
            processesCarrying(marker: session.id).count >= 3 ? true : nil
        }
        _ = escaped
        _ = session.failure("provoked")
        session.stop()
        #expect(processesCarrying(marker: session.id).isEmpty, "processes of a failed session survived it")
        #expect(!FileManager.default.fileExists(atPath: session.directory.path), "the failed session's directory is left")
        let logs = TestSession.failureArtifacts.appendingPathComponent(session.id)
        if FileManager.default.fileExists(atPath: TestSession.failureArtifacts.deletingLastPathComponent().path) {
            let kept = (try? FileManager.default.contentsOfDirectory(atPath: logs.path)) ?? []
            #expect(kept.contains { $0.hasPrefix("sleeper") }, "the logs are kept at \(logs.path): \(kept)")
            try? FileManager.default.removeItem(at: logs)
        }
    }

    /// A session stopped by someone else (the Ctrl+C handler stops every session while
    /// their owner goes on) is not brought back by its owner: running a command, launching
    /// a process or making a folder afterwards is refused and remakes nothing. Before, a
    /// command run after the stop (`composer-demo` probing its engine when Ctrl+C came)
    /// remade `logs/commands` inside the removed directory, which then outlived the demo.
    @Test(.timeLimit(.minutes(1)))
    func aStoppedSessionIsNotBroughtBackByItsOwner() throws {
        let session = try TestSession(name: "self-stopped")
        session.stop()
        #expect(throws: HarnessError.self) { try session.run("true") }
        #expect(throws: HarnessError.self) { try session.launch("sleeper", executable: "sleep", arguments: ["60"]) }
        #expect(throws: HarnessError.self) {
            try session.makeDirectory(session.configHome.appendingPathComponent("fcitx5"))
        }
        #expect(!FileManager.default.fileExists(atPath: session.directory.path), "the stopped session's directory came back")
        #expect(processesCarrying(marker: session.id).isEmpty, "a process of the stopped session started")
    }

    /// What `stop()` runs first may still run commands: IBus's hook asks the daemon to
    /// exit (`ibus exit`) so that it stops its engines. Refusing it cost every IBus session
    /// three seconds (the hook then waits for the daemon in vain) and the engines their
    /// orderly end.
    @Test(.timeLimit(.minutes(1)))
    func aStopHookMayStillRunCommands() throws {
        let session = try TestSession(name: "self-hook")
        let ran = Mutex<Int32?>(nil)
        session.onStop { ran.withLock { $0 = (try? session.run("sh", ["-c", "exit 7"]))?.status } }
        session.stop()
        #expect(ran.withLock { $0 } == 7, "the stop hook's command did not run")
        #expect(!FileManager.default.fileExists(atPath: session.directory.path), "the session's directory is left")
    }

    /// The same race as it happens: one thread runs commands and launches processes in a
    /// loop while another stops the session. Whatever the interleaving, nothing of the
    /// session is left afterwards: no directory, no process.
    @Test(.timeLimit(.minutes(1)))
    func stoppingASessionWhileItsOwnerRunsCommandsLeavesNothing() throws {
        for round in 0..<20 {
            let session = try TestSession(name: "self-race")
            let steps = Mutex(0)
            // The owner goes on until the session refuses both (as the demo goes on probing
            // its engine until a command fails), at most a few hundred steps.
            let owner = Thread {
                for _ in 0..<300 {
                    let ran = (try? session.run("true")) != nil
                    let launched = (try? session.launch("sleeper", executable: "sleep", arguments: ["60"])) != nil
                    if !ran && !launched { return }
                    steps.withLock { $0 += 1 }
                }
            }
            owner.start()
            // Stopped somewhere in the middle of the owner's loop, a different step each round.
            let target = Int.random(in: 1...4)
            _ = try Wait.until("the owner's step \(target)", timeout: .seconds(10)) {
                steps.withLock { $0 } >= target ? true : nil
            }
            session.stop()
            _ = try Wait.until("the owner to see the stop", timeout: .seconds(30)) { owner.isFinished ? true : nil }
            #expect(steps.withLock { $0 } < 300, "round \(round): the stopped session went on running commands")
            #expect(!FileManager.default.fileExists(atPath: session.directory.path),
                    "round \(round): the session's directory is left")
            #expect(processesCarrying(marker: session.id).isEmpty, "round \(round): a process of the session is left")
        }
    }

    /// A test process that dies without stopping its sessions (a crash, SIGKILL) leaves
    /// nothing behind: the watchdog reads end of file on its pipe (the kernel closes the
    /// dead process's end, which is what closing it here does) and kills every process of
    /// the sessions still listed, also one in a process group and session of its own, and
    /// removes their directories; a directory not listed (a kept session's) stays.
    @Test(.timeLimit(.minutes(1)))
    func theSessionsOfAProcessThatDiedAreEnded() throws {
        let root = URL(fileURLWithPath: NSTemporaryDirectory())
        let listed = root.appendingPathComponent("ime-harness-reaped-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let kept = root.appendingPathComponent("ime-harness-kept-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        for dir in [listed, kept] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(at: kept) }
        let id = listed.lastPathComponent
        let listFile = listed.path + ".list"
        try "\(id)\t\(listed.path)\n".write(toFile: listFile, atomically: true, encoding: .utf8)

        var environment = ProcessInfo.processInfo.environment
        environment[TestSession.markerVariable] = id
        let orphan = try AppProcess(name: "orphan", executable: "sh", arguments: ["-c", "setsid sleep 62 & wait"],
                                    environment: environment, logDirectory: kept)
        defer { orphan.stop() }
        // Until the escaped child is `sleep` itself: counted earlier, it may be the shell's
        // fork still on its way through `setsid` to `sleep`, and the count later dropped to
        // one in loaded run 59 of #31 (likely that process read in the middle of an exec;
        // not reproduced in 15 runs).
        _ = try Wait.until("the orphan and its escaped child", timeout: .seconds(10)) {
            let pids = processesCarrying(marker: id)
            let sleeping = pids.contains { pid in
                (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("sleep") == true
            }
            return pids.count >= 2 && sleeping ? true : nil
        }

        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let watchdog = try #require(SessionReaper.spawnWatchdog(stdin: fds[0], listFile: listFile))
        close(fds[0])
        #expect(kill(watchdog, 0) == 0, "the watchdog waits while its owner lives")
        #expect(processesCarrying(marker: id).count >= 2)
        close(fds[1])  // the owner is gone
        var status: Int32 = 0
        #expect(waitpid(watchdog, &status, 0) == watchdog)
        #expect(status == 0, "the watchdog exited with \(status)")
        #expect(processesCarrying(marker: id).isEmpty, "processes of the dead process's session survived it")
        #expect(!FileManager.default.fileExists(atPath: listed.path), "the session's directory is left")
        #expect(!FileManager.default.fileExists(atPath: listFile), "the list is left")
        #expect(FileManager.default.fileExists(atPath: kept.path), "a directory not listed was removed")
    }

    /// Switching IBus engines mid-test (`switchEngine`, as the headless demo does) leaves the
    /// text the test has alone: the engine probe undoes only what the probe typed, against
    /// the text just before it, not the text the app started with. Here it started with
    /// "x": the committed あ was deleted as a probe leftover, and after a send (text "")
    /// the next switch failed with "the engine probe changed the text from x to ".
    @Test(.timeLimit(.minutes(2)))
    func switchingEnginesKeepsWhatWasTypedAndSent() throws {
        let cs = try ComposerSession(.ibusAnthy, arguments: ["--text", "x"], name: "self-switch-engine")
        defer { cs.stop() }
        let trace = cs.trace
        func text() -> String? { trace.events(named: "text").last?["text"]?.stringValue }

        let typed = trace.entries.count
        try cs.xdotool.key(["a", "Return"])  // あ, confirmed
        try trace.waitFor("xあ in the input", from: typed) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "xあ"
        }
        try cs.switchEngine(to: .ibusHangul)
        #expect(text() == "xあ", "the probe of ibus-hangul left the text the test typed")

        let sent = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor("xあ sent", from: sent) { $0["ev"]?.stringValue == "send" && $0["text"]?.stringValue == "xあ" }
        try trace.waitFor("the input emptied", from: sent) { $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "" }
        try cs.switchEngine(to: .ibusAnthy)
        #expect(text() == "", "the probe of ibus-anthy left the emptied input empty")
        #expect(try cs.terminateApp() == 0)
    }
}

/// PIDs whose environment carries the session marker.
func processesCarrying(marker id: String) -> [Int32] {
    let marker = Array("\(TestSession.markerVariable)=\(id)".utf8)
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> Int32? in
        guard let pid = Int32(entry),
              let data = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { return nil }
        // Zombies have an empty environ; they are already dead.
        return data.split(separator: 0).contains { $0.elementsEqual(marker) } ? pid : nil
    }
}
