import Foundation
import ComposerCore

/// Tails the JSON Lines trace written by the app (`--trace PATH`): one JSON object per line,
/// flushed per line. Only complete lines (ending in "\n") are parsed; a partial last line
/// waits for the rest.
public final class TraceLog: @unchecked Sendable {
    /// One trace line: the raw text and its parsed value.
    public struct Entry: Sendable {
        public let index: Int
        public let line: String
        public let value: JSONValue
        /// The "ev" member.
        public var name: String? { value["ev"]?.stringValue }
    }

    public let url: URL
    /// Called when a wait fails (a timeout, the watched process gone, a malformed line):
    /// a session sets it to keep its logs (`TestSession.markFailed`).
    public var onFailure: (@Sendable () -> Void)? {
        get { lock.withLock { _onFailure } }
        set { lock.withLock { _onFailure = newValue } }
    }
    private var _onFailure: (@Sendable () -> Void)?
    /// If set, waits fail fast (with its stderr) once this process has exited.
    public var watchedProcess: AppProcess? {
        get { lock.withLock { _watched } }
        set { lock.withLock { _watched = newValue } }
    }

    private let lock = NSLock()
    private var _watched: AppProcess?
    private var offset: UInt64 = 0
    private var pending = Data()
    private var _entries: [Entry] = []
    private var _malformed: [(line: String, error: String)] = []
    private var _lastMatch: Int = -1

    public init(url: URL, watching process: AppProcess? = nil) {
        self.url = url
        self._watched = process
    }

    /// A trace of `session`'s app: a failed wait keeps the session's logs.
    public convenience init(url: URL, watching process: AppProcess?, session: TestSession) {
        self.init(url: url, watching: process)
        _onFailure = { [weak session] in session?.markFailed() }
    }

    public convenience init(path: String, watching process: AppProcess? = nil) {
        self.init(url: URL(fileURLWithPath: path), watching: process)
    }

    /// Reads whatever complete lines were appended since the last call.
    public func refresh() {
        lock.withLock { readNewLines() }
    }

    /// All entries read so far (after refreshing).
    public var entries: [Entry] { lock.withLock { readNewLines(); return _entries } }
    /// All parsed events so far (after refreshing).
    public var events: [JSONValue] { entries.map(\.value) }
    /// The raw lines so far (after refreshing).
    public var lines: [String] { entries.map(\.line) }
    /// Events whose "ev" is `name`, in order.
    public func events(named name: String) -> [JSONValue] {
        entries.filter { $0.name == name }.map(\.value)
    }
    /// The non-blank lines read so far, parsed or not.
    public var lineCount: Int { lock.withLock { readNewLines(); return _entries.count + _malformed.count } }
    /// Lines that were not valid JSON objects.
    public var malformedLines: [String] { lock.withLock { readNewLines(); return _malformed.map(\.line) } }
    /// Index (in `entries`) of the event the last successful `waitFor` returned; -1 if none.
    public var lastMatchIndex: Int { lock.withLock { _lastMatch } }

    /// Waits until an event at index ≥ `from` satisfies `predicate`, scanning new lines as
    /// they arrive, and returns the first such event. Fails fast if the watched process
    /// exited without writing it, or if a malformed line appears. The error names
    /// `description` and shows the last events and the process's stderr.
    @discardableResult
    public func waitFor(_ description: String, timeout: Duration = .seconds(20), from: Int = 0,
                        where predicate: (JSONValue) -> Bool) throws -> JSONValue {
        try waitFor(description, timeout: timeout, from: from, reportsFailure: true, where: predicate)
    }

    /// `waitFor` for a try that may well fail (a key that may be lost, a probe that is
    /// repeated): nil when it does, and the failure is not the session's (`onFailure`).
    public func poll(_ description: String, timeout: Duration, from: Int = 0,
                     where predicate: (JSONValue) -> Bool) -> JSONValue? {
        try? waitFor(description, timeout: timeout, from: from, reportsFailure: false, where: predicate)
    }

    private func waitFor(_ description: String, timeout: Duration, from: Int, reportsFailure: Bool,
                         where predicate: (JSONValue) -> Bool) throws -> JSONValue {
        var scanned = max(0, from)
        func scan() throws -> Entry? {
            let (all, bad) = lock.withLock { () -> ([Entry], [(line: String, error: String)]) in
                readNewLines(); return (_entries, _malformed)
            }
            if let first = bad.first {
                throw HarnessError("malformed trace line in \(url.path) while waiting for \(description): "
                    + "\(first.error)\n    \(first.line)")
            }
            while scanned < all.count {
                let e = all[scanned]
                scanned += 1
                if predicate(e.value) { return e }
            }
            return nil
        }
        let entry: Entry
        do {
            entry = try waitForEntry(description, timeout: timeout, scan: scan)
        } catch {
            if reportsFailure { onFailure?() }
            throw error
        }
        lock.withLock { _lastMatch = entry.index }
        return entry.value
    }

    private func waitForEntry(_ description: String, timeout: Duration, scan: () throws -> Entry?) throws -> Entry {
        try Wait.until("\(description) in trace \(url.path)", timeout: timeout,
                                   diagnostics: { diagnostics() },
                                   failFast: {
                                       guard let p = watchedProcess, !p.isRunning else { return }
                                       // The process is gone: take in its last lines, then decide.
                                       if try scan() != nil { return }
                                       throw HarnessError("\(p.name) exited before the trace showed \(description)\n"
                                           + diagnostics())
                                   },
                                   scan)
    }

    /// `waitFor` for an event named `name` (optionally also satisfying `predicate`).
    @discardableResult
    public func waitFor(event name: String, timeout: Duration = .seconds(20), from: Int = 0,
                        where predicate: (JSONValue) -> Bool = { _ in true }) throws -> JSONValue {
        try waitFor("event \"ev\":\"\(name)\"", timeout: timeout, from: from) {
            $0["ev"]?.stringValue == name && predicate($0)
        }
    }

    /// `waitFor` among events after the last match.
    @discardableResult
    public func waitForNext(_ description: String, timeout: Duration = .seconds(20),
                            where predicate: (JSONValue) -> Bool) throws -> JSONValue {
        try waitFor(description, timeout: timeout, from: lastMatchIndex + 1, where: predicate)
    }

    /// Recent lines and the watched process state, for error messages.
    public func diagnostics(lastLines: Int = 15) -> String {
        let all = lock.withLock { readNewLines(); return _entries }
        var s = "trace \(url.path): \(all.count) events"
        if all.isEmpty {
            s += FileManager.default.fileExists(atPath: url.path) ? " (file exists, no complete line)" : " (file not created)"
        } else {
            s += "; last \(min(lastLines, all.count)):\n" + all.suffix(lastLines).map { "    " + $0.line }.joined(separator: "\n")
        }
        if let p = watchedProcess { s += "\n" + p.diagnostics() }
        return s
    }

    // Call with `lock` held.
    private func readNewLines() {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: offset)
            guard let data = try handle.readToEnd(), !data.isEmpty else { return }
            offset += UInt64(data.count)
            pending.append(data)
        } catch {
            return
        }
        while let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let lineData = pending[pending.startIndex..<nl]
            pending = Data(pending[pending.index(after: nl)...])
            var line = String(decoding: lineData, as: UTF8.self)
            if line.hasSuffix("\r") { line.removeLast() }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            do {
                let value = try JSONValue.parse(line)
                guard value.objectMembers != nil else { throw HarnessError("not a JSON object") }
                _entries.append(Entry(index: _entries.count, line: line, value: value))
            } catch {
                _malformed.append((line: line, error: "\(error)"))
            }
        }
    }
}

extension TraceLog {
    /// The repository's trace schema (docs/trace-schema.json).
    public static func repositorySchema() throws -> TraceSchema {
        try TraceSchema(contentsOf: ComposerBinary.packageRoot.appendingPathComponent("docs/trace-schema.json"))
    }

    /// Every line that breaks docs/trace-schema.json, with its number and what is wrong
    /// (empty when the whole trace conforms).
    public func schemaViolations() throws -> [String] {
        let schema = try Self.repositorySchema()
        return entries.compactMap { entry in
            let problems = schema.validate(entry.line)
            return problems.isEmpty ? nil : "line \(entry.index + 1): \(problems.joined(separator: "; "))\n    \(entry.line)"
        }
    }
}
