import Foundation

/// One person or channel the composer knows: what a mention inserts (`name`), what is
/// shown (`display`) and what a query may match (`reading`, `latin`).
public struct DirectoryEntry: Equatable, Sendable {
    /// Stable id ("u0001", "c01").
    public var id: String
    /// The handle used in mentions (`tanaka.hanako`, `日本語`); unique within its kind.
    public var name: String
    /// The name in its own script (田中 花子, 김민준, Jiří Novák).
    public var display: String
    /// Kana reading (たなか はなこ), or "" when there is none.
    public var reading: String
    /// Romanization / ASCII folding ("tanaka hanako", "kim minjun", "jiri novak").
    public var latin: String

    public init(id: String, name: String, display: String, reading: String = "", latin: String) {
        self.id = id
        self.name = name
        self.display = display
        self.reading = reading
        self.latin = latin
    }
}

/// The people and channels of the chat workspace: who and where the composer can mention
/// (not a file-system directory: those are the data and profile directories).
public struct WorkspaceDirectory: Sendable, Equatable {
    public var people: [DirectoryEntry]
    public var channels: [DirectoryEntry]

    public init(people: [DirectoryEntry] = [], channels: [DirectoryEntry] = []) {
        self.people = people
        self.channels = channels
    }

    public static let empty = WorkspaceDirectory()
}

/// Something wrong in the data: a file that cannot be read or was not read to its end, one
/// line that was skipped, or one whose text had to be cleaned (`DataText`).
public struct DirectoryProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file (or directory) as the loader named it: the given directory + file name.
    public let path: String
    /// 1-based line number; nil when the problem is the whole file or directory.
    public let line: Int?
    public let message: String

    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// `data/people.jsonl:17: expected a string for "display"`, or `data/people.jsonl: …`.
    public var description: String {
        if let line { return "\(path):\(line): \(message)" }
        return "\(path): \(message)"
    }
}

/// What `DirectoryLoader.load` could read, and what it had to skip.
public struct DirectoryLoadResult: Sendable {
    public var directory: WorkspaceDirectory
    public var problems: [DirectoryProblem]

    public init(directory: WorkspaceDirectory, problems: [DirectoryProblem]) {
        self.directory = directory
        self.problems = problems
    }
}

/// Reads `people.jsonl` and `channels.jsonl` (JSON Lines, one entry per line) from a
/// directory. Never throws and never crashes on bad data: a malformed line is skipped and
/// reported with its file and line, the good lines still load; a missing file or
/// directory is a problem too (and loads nothing from it).
public enum DirectoryLoader {
    public static let peopleFile = "people.jsonl"
    public static let channelsFile = "channels.jsonl"
    /// The string fields every line must have, in the order the generator writes them.
    public static let fields = ["id", "name", "display", "reading", "latin"]
    /// Fields that must not be empty.
    static let nonEmptyFields: Set<String> = ["id", "name", "display"]

    public static func load(from directory: URL) -> DirectoryLoadResult {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            return DirectoryLoadResult(directory: .empty, problems: [
                DirectoryProblem(path: directory.path, line: nil, message: "no such data directory"),
            ])
        }
        guard isDirectory.boolValue else {
            return DirectoryLoadResult(directory: .empty, problems: [
                DirectoryProblem(path: directory.path, line: nil, message: "not a directory"),
            ])
        }
        var problems: [DirectoryProblem] = []
        let people = loadFile(directory.appendingPathComponent(peopleFile), problems: &problems)
        let channels = loadFile(directory.appendingPathComponent(channelsFile), problems: &problems)
        return DirectoryLoadResult(directory: WorkspaceDirectory(people: people, channels: channels), problems: problems)
    }

    /// Reads one JSON Lines file (within `DataFile`'s bounds); problems are appended in line order.
    public static func loadFile(_ url: URL, problems: inout [DirectoryProblem]) -> [DirectoryEntry] {
        switch DataFile.read(url) {
        case .failure(let problem):
            problems.append(problem)
            return []
        case .success(let bytes):
            return parse(bytes, path: url.path, problems: &problems)
        }
    }

    /// Parses the bytes of one JSON Lines file named `path` (for problems). Text fields are
    /// cleaned (`DataText`: a NUL skips the line, invisible controls are removed and
    /// reported); after `DataFile.maximumLines` lines or `DataFile.maximumProblems` bad ones
    /// the rest is not read.
    public static func parse(_ bytes: [UInt8], path: String, problems: inout [DirectoryProblem]) -> [DirectoryEntry] {
        parse(bytes, limits: DataFileLimits(path: path), problems: &problems)
    }

    /// `parse(_:path:problems:)` within `limits` (tests use small ones).
    static func parse(_ bytes: [UInt8], limits: DataFileLimits, problems: inout [DirectoryProblem]) -> [DirectoryEntry] {
        var limits = limits
        var entries: [DirectoryEntry] = []
        var firstLineOfID: [String: Int] = [:]
        var firstLineOfName: [String: Int] = [:]
        for (number, lineBytes) in DataFile.lines(of: bytes) {
            if DataFile.isBlank(lineBytes) { continue }  // blank lines are fine
            guard limits.mayRead(problems: &problems) else { break }
            guard let text = String(validating: lineBytes, as: UTF8.self) else {
                limits.skip(line: number, "not valid UTF-8", problems: &problems)
                continue
            }
            switch entry(from: text) {
            case .failure(let problem):
                limits.skip(line: number, problem.message, problems: &problems)
            case .success(let (entry, changes)):
                if let first = firstLineOfID[entry.id] {
                    limits.skip(line: number, "duplicate id \"\(entry.id)\" (first on line \(first)); skipped", problems: &problems)
                } else if let first = firstLineOfName[entry.name] {
                    limits.skip(line: number, "duplicate name \"\(entry.name)\" (first on line \(first)); skipped", problems: &problems)
                } else {
                    firstLineOfID[entry.id] = number
                    firstLineOfName[entry.name] = number
                    entries.append(entry)
                    if !changes.isEmpty { limits.note(line: number, DataText.report(changes), problems: &problems) }
                }
            }
        }
        limits.finish(problems: &problems)
        return entries
    }

    struct LineProblem: Error { let message: String }

    /// One line's entry with its text fields cleaned (`DataText`) and what cleaning changed,
    /// or why it is not one.
    static func entry(from line: String) -> Result<(DirectoryEntry, [DataText.Change]), LineProblem> {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            return .failure(LineProblem(message: "\(error)"))
        }
        guard value.objectMembers != nil else {
            return .failure(LineProblem(message: "expected a JSON object"))
        }
        var strings: [String: String] = [:]
        var changes: [DataText.Change] = []
        for field in fields {
            guard let member = value[field] else {
                return .failure(LineProblem(message: "missing \"\(field)\""))
            }
            guard var string = member.stringValue else {
                return .failure(LineProblem(message: "expected a string for \"\(field)\""))
            }
            do {
                string = try DataText.clean(string, field: field, changes: &changes)
            } catch {
                return .failure(LineProblem(message: error.message + "; skipped"))
            }
            if nonEmptyFields.contains(field) && string.isEmpty {
                return .failure(LineProblem(message: "empty \"\(field)\""))
            }
            strings[field] = string
        }
        let entry = DirectoryEntry(id: strings["id"]!, name: strings["name"]!, display: strings["display"]!,
                                   reading: strings["reading"]!, latin: strings["latin"]!)
        return .success((entry, changes))
    }
}
