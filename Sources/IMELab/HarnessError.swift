import Foundation

/// Every failure the harness reports. `description` is written for a human reading a
/// failed test: what was awaited, for how long, and the recent stderr of the process involved.
public struct HarnessError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// A required executable is not installed.
    public static func missingTool(_ tool: String) -> HarnessError {
        HarnessError("required program '\(tool)' not found on PATH (searched /usr/bin:/bin first). "
            + "Install the project's Debian packages: run scripts/install-deps.sh (or `make deps`).")
    }
}

/// Condition waits. Never a fixed sleep: poll `condition` every `interval` until it holds
/// or the deadline passes.
public enum Wait {
    public static let defaultInterval: Duration = .milliseconds(20)

    /// Polls `condition` until it returns a value. `failFast` is checked on every round and
    /// may throw to abort early (e.g. the process we are waiting on exited). On timeout throws
    /// a `HarnessError` naming `description` and appending `diagnostics()`.
    public static func until<T>(
        _ description: String,
        timeout: Duration,
        interval: Duration = defaultInterval,
        diagnostics: () -> String = { "" },
        failFast: () throws -> Void = {},
        _ condition: () throws -> T?
    ) throws -> T {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: timeout)
        while true {
            if let value = try condition() { return value }
            try failFast()
            if clock.now >= deadline {
                // One last look: the condition may have become true during the final interval.
                if let value = try condition() { return value }
                let extra = diagnostics()
                throw HarnessError("timed out after \(format(timeout)) waiting for \(description)"
                    + (extra.isEmpty ? "" : "\n" + extra))
            }
            Thread.sleep(forTimeInterval: seconds(interval))
        }
    }

    /// Boolean form of `until`.
    public static func until(
        _ description: String,
        timeout: Duration,
        interval: Duration = defaultInterval,
        diagnostics: () -> String = { "" },
        failFast: () throws -> Void = {},
        _ condition: () throws -> Bool
    ) throws {
        let _: Bool = try until(description, timeout: timeout, interval: interval,
                                diagnostics: diagnostics, failFast: failFast) {
            try condition() ? true : nil
        }
    }

    static func seconds(_ d: Duration) -> TimeInterval {
        let c = d.components
        return TimeInterval(c.seconds) + TimeInterval(c.attoseconds) / 1e18
    }

    static func format(_ d: Duration) -> String {
        let s = seconds(d)
        return s == s.rounded() ? "\(Int(s)) s" : String(format: "%.2f s", s)
    }
}

/// Last lines of a (log) file, for error messages.
func tail(of url: URL, lines: Int = 20, maxBytes: Int = 8192) -> String {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return "" }
    defer { try? handle.close() }
    let size = (try? handle.seekToEnd()) ?? 0
    let start = size > UInt64(maxBytes) ? size - UInt64(maxBytes) : 0
    try? handle.seek(toOffset: start)
    let data = (try? handle.readToEnd()) ?? Data()
    let text = String(decoding: data, as: UTF8.self)
    var all = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while all.last == "" { all.removeLast() }
    return all.suffix(lines).joined(separator: "\n")
}

func indent(_ text: String, _ prefix: String = "    ") -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
}
