import EnvironmentProbe
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The one way the doctor and the inspector ask the session: bounded commands, and one
/// parser per answer.
@Suite struct SessionQuestionsTests {
    @Test func eachAnswerHasOneParser() {
        #expect(SessionQuestions.engine(fromIBusEngine: "anthy\n") == "anthy")
        #expect(SessionQuestions.engine(fromIBusEngine: "  xkb:us::eng  \n") == "xkb:us::eng")
        #expect(SessionQuestions.engine(fromIBusEngine: "\n") == nil)
        #expect(SessionQuestions.version(fromIBusVersion: "IBus 1.5.27\n") == "1.5.27")
        #expect(SessionQuestions.version(fromIBusVersion: "ibus: not found") == nil)
        let query = "rules:      evdev\nmodel:      pc105\nlayout:     us\nvariant:    intl\n"
        #expect(SessionQuestions.layout(fromQuery: query) == "us (intl)")
        #expect(SessionQuestions.layout(fromQuery: "layout: de\n") == "de")
        #expect(SessionQuestions.layout(fromQuery: "no layout here") == nil)
    }

    @Test func theBusAddressIsMadeExplicitAndSystemToolsComeFirstOnlyWhenAsked() throws {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("questions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: runtime) }
        #expect(FileManager.default.createFile(atPath: runtime.path + "/bus", contents: nil))
        let given = ["XDG_RUNTIME_DIR": runtime.path, "PATH": "/opt/venv/bin:/usr/bin"]
        let doctor = SessionQuestions(environment: given)
        #expect(doctor.environment["DBUS_SESSION_BUS_ADDRESS"] == "unix:path=\(runtime.path)/bus")
        #expect(doctor.environment["PATH"] == "/opt/venv/bin:/usr/bin", "the doctor runs what its user would")
        let inspector = SessionQuestions(environment: given, systemToolsFirst: true)
        #expect(inspector.environment["PATH"] == "/usr/bin:/bin:/opt/venv/bin:/usr/bin")
        let explicit = SessionQuestions(environment: given.merging(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"]) { $1 })
        #expect(explicit.environment["DBUS_SESSION_BUS_ADDRESS"] == "unix:path=/x")
    }

    @Test func aCommandThatHangsIsCutShortAndAMissingOneIsNamed() {
        let env = ["PATH": "/usr/bin:/bin"]
        let started = Date()
        let hung = BoundedCommand.run("sleep", ["30"], environment: env, timeout: 0.5)
        #expect(Date().timeIntervalSince(started) < 20, "bounded by its limit, not the command")
        guard case .failure(.timedOut) = hung else {
            Issue.record("expected a time-out, got \(hung)")
            return
        }
        guard case .failure(.notInstalled("no-such-tool-here")) = BoundedCommand.run("no-such-tool-here", [], environment: env) else {
            Issue.record("a missing tool is named")
            return
        }
        let printed = BoundedCommand.run("sh", ["-c", "echo out; echo err >&2; exit 3"], environment: env)
        let output = try? printed.get()
        #expect(output?.status == 3 && output?.succeeded == false)
        #expect(output?.stdout == "out\n" && output?.stderr == "err\n")
    }

    /// A command gets its standard descriptors and nothing else of the caller's (a pipe
    /// passed on would keep the caller's reader from seeing its end).
    @Test func aCommandInheritsOnlyItsStandardDescriptors() throws {
        let held = open("/dev/null", O_RDONLY)  // not close-on-exec
        try #require(held > 2)
        defer { close(held) }
        let listed = try BoundedCommand.run("sh", ["-c", "exec ls /proc/self/fd"], environment: ["PATH": "/usr/bin:/bin"]).get()
        let descriptors = Set(listed.stdout.split(separator: "\n").map(String.init))
        // ls's own: 0–2 and the directory it lists.
        #expect(descriptors == ["0", "1", "2", "3"], "\(descriptors.sorted()) (held: \(held))")
    }

    /// A command that overruns its time is killed with what it started (its process group),
    /// and a command ended by a signal reads as a shell says it (128 + the signal).
    @Test func anOverrunKillsWhatTheCommandStartedAndASignalReadsAsAShellSaysIt() throws {
        let env = ["PATH": "/usr/bin:/bin"]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bounded-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let hung = BoundedCommand.run("sh", ["-c", "sleep 300 & echo $! > \(file.path); wait"], environment: env, timeout: 5)
        guard case .failure(.timedOut) = hung else {
            Issue.record("expected a time-out, got \(hung)")
            return
        }
        let pid = try #require(Int32((try String(contentsOf: file, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Gone, or a zombie waiting for whoever inherited it: not sleeping on.
        func ended() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let state = stat.split(separator: ")").last?.split(separator: " ").first else { return true }
            return state == "Z" || state == "X"
        }
        let deadline = Date().addingTimeInterval(10)
        while !ended(), Date() < deadline { _ = poll(nil, 0, 20) }
        #expect(ended(), "the command's child (pid \(pid)) outlived the command's time-out")

        let signalled = try BoundedCommand.run("sh", ["-c", "kill -TERM $$"], environment: env).get()
        #expect(signalled.status == 128 + SIGTERM)
    }

    @Test func noBusAddressIsToldWithoutRunningAnything() {
        let bus = SessionBus(environment: ["PATH": "/usr/bin:/bin"])
        guard case .failure(.noAddress) = bus.call(destination: "org.freedesktop.DBus", path: "/", method: "x.y") else {
            Issue.record("expected noAddress")
            return
        }
    }
}
