import Foundation

/// xdotool with the session environment (DISPLAY of the session's Xvfb).
/// Keys go to the focused window (no `--window`: XSendEvent'd keys are ignored by GTK).
public struct XDoTool: Sendable {
    public let session: TestSession
    /// Delay between keystrokes in milliseconds.
    public var delayMs: Int

    public init(session: TestSession, delayMs: Int = 15) {
        self.session = session
        self.delayMs = delayMs
    }

    /// Waits until a visible window of process `pid` exists (`xdotool search --onlyvisible
    /// --pid`), falling back to a window whose title is exactly `name`. Polls instead of
    /// `--sync` so it can give up at `timeout` and fail fast if `process` exits.
    /// Returns the window id (decimal string, as xdotool prints it).
    public func waitForWindow(pid: Int32, name: String? = nil, process: AppProcess? = nil,
                              timeout: Duration = .seconds(20)) throws -> String {
        do {
            return try Wait.until("a visible X window of pid \(pid)" + (name.map { " or titled '\($0)'" } ?? ""),
                                  timeout: timeout, interval: .milliseconds(50),
                                  diagnostics: { process?.diagnostics() ?? "" },
                                  failFast: {
                                      if let process, !process.isRunning {
                                          throw HarnessError("\(process.name) exited before showing a window\n" + process.diagnostics())
                                      }
                                  }) {
                if let w = try search(["--onlyvisible", "--pid", String(pid)]) { return w }
                if let name {
                    let escaped = NSRegularExpression.escapedPattern(for: name)
                    return try search(["--onlyvisible", "--name", "^\(escaped)$"])
                }
                return nil
            }
        } catch {
            session.markFailed()
            throw error
        }
    }

    /// A visible window whose title matches the regular expression `name`, if one shows
    /// within `timeout`: nil otherwise, and the session is not marked failed (a window the
    /// caller can do without).
    public func optionalWindow(name: String, timeout: Duration) throws -> String? {
        try? Wait.until("a visible X window titled /\(name)/", timeout: timeout, interval: .milliseconds(50)) {
            try search(["--onlyvisible", "--name", name])
        }
    }

    /// Waits for a visible window whose title matches the regular expression `name`.
    public func waitForWindow(name: String, timeout: Duration = .seconds(20)) throws -> String {
        do {
            return try Wait.until("a visible X window titled /\(name)/", timeout: timeout,
                                  interval: .milliseconds(50)) {
                try search(["--onlyvisible", "--name", name])
            }
        } catch {
            session.markFailed()
            throw error
        }
    }

    private func search(_ args: [String]) throws -> String? {
        let r = try session.run("xdotool", ["search"] + args, timeout: .seconds(5))
        guard r.succeeded else { return nil }
        return r.output.split(separator: "\n").first.map(String.init)
    }

    /// `xdotool windowfocus --sync WINDOW` (waits until the X server reports the focus).
    public func focus(_ window: String, timeout: Duration = .seconds(10)) throws {
        try session.runChecked("xdotool", ["windowfocus", "--sync", window], timeout: timeout)
    }

    /// The focused window id.
    public func focusedWindow() throws -> String {
        try session.runChecked("xdotool", ["getwindowfocus"]).output
    }

    /// The size of an X window (`xdotool getwindowgeometry --shell`).
    public func windowSize(_ window: String) throws -> (width: Int, height: Int) {
        let output = try session.runChecked("xdotool", ["getwindowgeometry", "--shell", window]).output
        var values: [String: Int] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        guard let width = values["WIDTH"], let height = values["HEIGHT"] else {
            throw session.failure("xdotool getwindowgeometry \(window) gave no size: \(output)")
        }
        return (width, height)
    }

    /// `_GTK_FRAME_EXTENTS` of an X window (left, right, top, bottom: the shadow GTK draws
    /// inside its window when a compositor shows it), or nil when the window has none.
    public func gtkFrameExtents(_ window: String) throws -> [Int]? {
        let output = try session.runChecked("xprop", ["-id", window, "_GTK_FRAME_EXTENTS"]).output
        guard let values = output.split(separator: "=", maxSplits: 1).dropFirst().first else { return nil }
        let extents = values.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return extents.count == 4 ? extents : nil
    }

    /// `xdotool key --delay D NAME…` — X keysym names: "k", "space", "Return", "ctrl+q", "BackSpace".
    public func key(_ names: [String]) throws {
        guard !names.isEmpty else { return }
        try session.runChecked("xdotool", ["key", "--delay", String(delayMs)] + names,
                               timeout: .seconds(10) + .milliseconds(delayMs * names.count))
    }

    public func key(_ names: String...) throws { try key(names) }

    /// `xdotool type --delay D -- TEXT`.
    public func type(_ text: String) throws {
        try session.runChecked("xdotool", ["type", "--delay", String(delayMs), "--", text],
                               timeout: .seconds(10) + .milliseconds(delayMs * 2 * text.count))
    }
}

/// Screenshots of the session's X display (ImageMagick `import -window root`).
public enum Screenshot {
    /// Captures `display` (default: the session's), or one `window` (an X window id) of
    /// it, to `path` (PNG by extension).
    @discardableResult
    public static func capture(session: TestSession, display: String? = nil, window: String = "root",
                               path: URL) throws -> URL {
        guard let display = display ?? session.display else {
            throw session.failure("Screenshot.capture: no X display (start Xvfb first)")
        }
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try session.runChecked("import", ["-display", display, "-window", window, path.path],
                               environment: ["DISPLAY": display], timeout: .seconds(20))
        return path
    }
}
