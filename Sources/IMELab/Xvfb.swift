import Foundation

/// A headless X server: `Xvfb -displayfd 1 -screen 0 1024x768x24 -nolisten tcp -noreset`.
/// `-noreset`: without it the server resets when its last client disconnects (ibus-x11 or
/// xdotool can be that client) and refuses connections meanwhile ("cannot open display").
/// `-displayfd` lets the server pick a free display number (parallel runs never clash);
/// it writes the number to its stdout once it accepts connections.
public final class Xvfb: @unchecked Sendable {
    public let process: AppProcess
    /// ":N"
    public let display: String

    /// Starts the server and sets `session.display`.
    public static func start(in session: TestSession, screen: String = "1024x768x24",
                             timeout: Duration = .seconds(15)) throws -> Xvfb {
        let p = try session.launch("Xvfb", executable: "Xvfb",
                                   arguments: ["-displayfd", "1", "-screen", "0", screen, "-nolisten", "tcp", "-noreset"])
        let number: String
        do {
            number = try Wait.until("Xvfb to report its display number on stdout (-displayfd)", timeout: timeout,
                                    diagnostics: { p.diagnostics() },
                                    failFast: { if !p.isRunning { throw HarnessError("Xvfb exited during startup\n" + p.diagnostics()) } }) {
                let out = p.stdout
                guard out.hasSuffix("\n") else { return nil }
                let n = out.trimmingCharacters(in: .whitespacesAndNewlines)
                return Int(n) != nil ? n : nil
            }
        } catch {
            session.markFailed()
            throw error
        }
        session.display = ":" + number
        return Xvfb(process: p, display: ":" + number)
    }

    private init(process: AppProcess, display: String) {
        self.process = process
        self.display = display
    }

    public func stop() { process.stop() }
}

/// A private session bus: `dbus-daemon --session --nofork --print-address=1`, listening in
/// the session's XDG_RUNTIME_DIR. Start it after Xvfb so activated services see DISPLAY.
public final class DBusSession: @unchecked Sendable {
    public let process: AppProcess
    public let address: String

    /// Starts the daemon and sets `session.dbusAddress`.
    public static func start(in session: TestSession, timeout: Duration = .seconds(15)) throws -> DBusSession {
        let p = try session.launch("dbus-daemon", executable: "dbus-daemon",
                                   arguments: ["--session", "--nofork", "--print-address=1",
                                               "--address=unix:tmpdir=\(session.runtimeDir.path)"])
        let address: String
        do {
            address = try Wait.until("dbus-daemon to print its address on stdout", timeout: timeout,
                                     diagnostics: { p.diagnostics() },
                                     failFast: { if !p.isRunning { throw HarnessError("dbus-daemon exited during startup\n" + p.diagnostics()) } }) {
                let out = p.stdout
                guard let nl = out.firstIndex(of: "\n") else { return nil }
                let line = String(out[..<nl]).trimmingCharacters(in: .whitespaces)
                return line.isEmpty ? nil : line
            }
        } catch {
            session.markFailed()
            throw error
        }
        session.dbusAddress = address
        return DBusSession(process: p, address: address)
    }

    private init(process: AppProcess, address: String) {
        self.process = process
        self.address = address
    }

    public func stop() { process.stop() }
}
