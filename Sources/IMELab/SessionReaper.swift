import EnvironmentProbe
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ends the sessions of a process that ended without stopping them: a crash (SIGSEGV, an
/// abort), SIGKILL, or `exit` from anywhere. `TestSession.stop()` and the SIGINT/SIGTERM
/// handlers cover every orderly end; nothing in a dying process can cover a crash.
///
/// A watchdog process is started with the first session: its standard input is a pipe
/// whose only writer is this process (close-on-exec, so no child holds it). When this
/// process ends, however it ends, the kernel closes the writer and the watchdog reads end
/// of file. It then kills every process carrying the marker of a session still listed
/// (`TestSession.markerVariable`: every child of a session has it, D-Bus activated services
/// included) and removes those sessions' directories. Sessions list themselves when they
/// start and are struck off when they stop, so a kept session (`IME_HARNESS_KEEP=1`) stays
/// kept and a normal exit finds nothing to do (the list is removed with the last session).
///
/// Why not `PR_SET_PDEATHSIG`: it fires when the *thread* that started the child ends, and
/// tests start children from Swift concurrency's worker threads, which come and go.
public enum SessionReaper {
    /// The list of live sessions the watchdog reads at the end: one `ID<TAB>DIRECTORY` a line.
    private static let state = Mutex<(started: Bool, listFile: String?, sessions: [String: String])>(
        (false, nil, [:]))

    /// Lists a session (starting the watchdog with the first one).
    static func register(id: String, directory: String) {
        state.withLock { state in
            if !state.started {
                state.started = true
                state.listFile = startWatchdog()
            }
            state.sessions[id] = directory
            write(state.sessions, to: state.listFile)
        }
    }

    /// Strikes a stopped session off the list.
    static func unregister(id: String) {
        state.withLock { state in
            guard state.sessions.removeValue(forKey: id) != nil else { return }
            write(state.sessions, to: state.listFile)
        }
    }

    /// Writes the list, or removes it once no session is left: an orderly end (every
    /// session stopped, then `exit`) leaves nothing in `$TMPDIR` for the watchdog to remove
    /// after the process is gone. A check right after the process ended (the demo's Ctrl+C
    /// test, on a loaded machine) once found the list still there.
    private static func write(_ sessions: [String: String], to file: String?) {
        guard let file else { return }
        if sessions.isEmpty {
            unlink(file)
            return
        }
        let text = sessions.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.joined()
        // Written whole and renamed into place: the watchdog never reads half a list.
        let temporary = file + ".new"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else { return }
        rename(temporary, file)
    }

    /// Starts the watchdog for this process; returns its list file, nil if it could not be
    /// started (the sessions still stop as usual; only a crash would leave them behind).
    private static func startWatchdog() -> String? {
        let listFile = "\(TestSession.temporaryRoot)/ime-harness-reaper-\(getpid()).list"
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { close(readEnd) }  // the watchdog has its own copy; the writer stays open for good
        guard spawnWatchdog(stdin: readEnd, listFile: listFile) != nil else {
            close(writeEnd)
            return nil
        }
        return listFile
    }

    /// Spawns the watchdog with `stdin` as its standard input (end of file = the owner is
    /// gone) reading `listFile`. In a process group of its own: a Ctrl+C to the terminal's
    /// group must not take it down before it has done its work.
    @discardableResult
    public static func spawnWatchdog(stdin: Int32, listFile: String) -> pid_t? {
        // No session marker in its environment: it must not find itself.
        let (rc, child) = Spawn.start(path: "/usr/bin/python3",
                                      arguments: ["/usr/bin/python3", "-c", watchdogProgram, listFile],
                                      environment: ["PATH=/usr/bin:/bin", "LANG=C.UTF-8"]) { actions in
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Reaped by whoever waits for it: if this process lives on (a test of the watchdog
        // itself), it waits; otherwise init inherits it.
        return rc == 0 ? child : nil
    }

    /// Blocks until standard input ends, then kills the listed sessions' processes (until
    /// a scan finds none: an activated service can be forked during one) and removes their
    /// directories (only `ime-harness-*` ones), then the list.
    static let watchdogProgram = #"""
import os, shutil, signal, sys, time
list_file = sys.argv[1]
while sys.stdin.buffer.read(65536):
    pass
try:
    with open(list_file) as f:
        sessions = [line.rstrip("\n").split("\t", 1) for line in f if "\t" in line]
except OSError:
    sessions = []
markers = {("IME_HARNESS_SESSION=" + sid).encode() for sid, _ in sessions}
me = os.getpid()
for _ in range(200):
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in (me, 1):
            continue
        try:
            with open("/proc/%s/environ" % entry, "rb") as f:
                env = set(f.read().split(b"\0"))
        except OSError:
            continue
        if env & markers:
            alive.append(int(entry))
    if not alive:
        break
    for pid in alive:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    time.sleep(0.01)
for _, directory in sessions:
    if os.path.basename(directory).startswith("ime-harness-"):
        shutil.rmtree(directory, ignore_errors=True)
for path in (list_file, list_file + ".new"):
    try:
        os.unlink(path)
    except OSError:
        pass
"""#
}
