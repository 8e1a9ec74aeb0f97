#if canImport(Glibc)
import Glibc
#endif

/// `posix_spawn` as the composer and the lab start every child: an empty signal mask,
/// default signal dispositions, a process group of its own, and only the descriptors
/// `files` sets up (the rest closed: with one `close_range` where glibc has
/// `posix_spawn_file_actions_addclosefrom_np`, else each one open when it is called).
///
/// Not Foundation's `Process`: `Process.run()` passes on the calling thread's signal mask
/// (Swift concurrency and libdispatch threads block nearly every signal, so such a child
/// would ignore SIGTERM and SIGINT), and it closes the parent's descriptors one number at a
/// time up to the descriptor limit, checking each against a dictionary: with a limit of
/// 20,000, 8 M instructions a command in `ime-composer doctor` and 75 M in the IME
/// inspector's (callgrind), fifty times as many with a container's 1,048,576. The inspector
/// asks two every two seconds while it is shown.
public enum Spawn {
    /// Spawns `path` with `arguments` (argv, the program's name first) and `environment`
    /// ("NAME=value"). Returns posix_spawn's result and the child's pid.
    public static func start(path: String, arguments: [String], environment: [String],
                             files: (inout posix_spawn_file_actions_t) -> Void) -> (status: Int32, pid: pid_t) {
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        files(&actions)
        closeFrom(3, &actions)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attr, argv, envp)
        return (rc, child)
    }

    /// Closes every descriptor from `lowest` up in the child: glibc ≥ 2.34's
    /// `posix_spawn_file_actions_addclosefrom_np` (not in Swift's Glibc module), or, before
    /// it, a close for each descriptor open now (/proc/self/fd: tens, not the limit's count).
    private static func closeFrom(_ lowest: Int32, _ actions: inout posix_spawn_file_actions_t) {
        if let addCloseFrom {
            _ = addCloseFrom(&actions, lowest)
            return
        }
        guard let directory = opendir("/proc/self/fd") else { return }
        defer { closedir(directory) }
        let own = dirfd(directory)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let fd = Int32(name), fd >= lowest, fd != own { posix_spawn_file_actions_addclose(&actions, fd) }
        }
    }

    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        // RTLD_DEFAULT is a null handle in glibc.
        guard let sym = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(sym, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Waits until `pid` (a child of this process) has exited, at most `seconds`, and reaps
    /// it: its wait status, or nil if it is still running. Sleeps on a pidfd (glibc 2.36,
    /// Linux 5.3); where there is none, looks every 10 ms.
    public static func wait(for pid: pid_t, seconds: Double) -> Int32? {
        var status: Int32 = 0
        let deadline = monotonicSeconds() + seconds
        let pidfd = pidfdOpen.map { $0(pid, 0) } ?? -1
        defer { if pidfd >= 0 { close(pidfd) } }
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return status }
            if reaped == -1, errno != EINTR { return 0xff00 }  // reaped elsewhere: an unknown end (255)
            let left = deadline - monotonicSeconds()
            if left <= 0 { return nil }
            if pidfd >= 0 {
                var ready = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, Int32(min(left * 1000, Double(Int32.max)).rounded(.up)))
            } else {
                _ = poll(nil, 0, Int32(min(10, (left * 1000).rounded(.up))))
            }
        }
    }

    /// glibc ≥ 2.36's `pidfd_open` (Linux 5.3; not in Swift's Glibc module).
    private static let pidfdOpen: (@convention(c) (pid_t, UInt32) -> Int32)? = {
        guard let sym = dlsym(nil, "pidfd_open") else { return nil }
        return unsafeBitCast(sym, to: (@convention(c) (pid_t, UInt32) -> Int32).self)
    }()

    /// A wait status as a shell shows it: the exit code, or 128 + the signal.
    public static func exitCode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
