import Foundation

/// One emoji the composer can complete (a line of data/emoji.jsonl, written by
/// scripts/generate-emoji.py from CLDR and python3-emoji).
public struct EmojiEntry: Equatable, Sendable {
    /// Code points, lowercase hex joined by "-" ("1f431").
    public var id: String
    /// The emoji itself, fully qualified: what accepting inserts.
    public var char: String
    /// Without colons: the CLDR short name in snake_case first ("cat_face"), then aliases ("cat").
    public var shortcodes: [String]
    /// Language ("en", "ja") → CLDR name ("cat face", "ネコの顔").
    public var names: [String: String]
    /// Language → CLDR keywords.
    public var keywords: [String: [String]]

    public init(id: String, char: String, shortcodes: [String], names: [String: String] = [:],
                keywords: [String: [String]] = [:]) {
        self.id = id
        self.char = char
        self.shortcodes = shortcodes
        self.names = names
        self.keywords = keywords
    }

    /// Languages in a fixed order: en, ja, then the others sorted.
    var languages: [String] {
        let all = Set(names.keys).union(keywords.keys)
        return ["en", "ja"].filter(all.contains) + all.subtracting(["en", "ja"]).sorted()
    }
}

/// Reads data/emoji.jsonl. Like `DirectoryLoader`: never throws, skips and reports bad lines.
public enum EmojiLoader {
    public static let fileName = "emoji.jsonl"

    /// `directory/emoji.jsonl` (within `DataFile`'s bounds); problems name the file (and line).
    public static func load(from directory: URL) -> (emoji: [EmojiEntry], problems: [DirectoryProblem]) {
        let url = directory.appendingPathComponent(fileName)
        switch DataFile.read(url) {
        case .failure(let problem):
            return ([], [problem])
        case .success(let bytes):
            var problems: [DirectoryProblem] = []
            let emoji = parse(bytes, path: url.path, problems: &problems)
            return (emoji, problems)
        }
    }

    /// Parses emoji.jsonl's bytes, as `DirectoryLoader.parse` does people: text cleaned
    /// (`DataText`), the rest of a file not read past `DataFile`'s bounds.
    public static func parse(_ bytes: [UInt8], path: String, problems: inout [DirectoryProblem]) -> [EmojiEntry] {
        parse(bytes, limits: DataFileLimits(path: path), problems: &problems)
    }

    /// `parse(_:path:problems:)` within `limits` (tests use small ones).
    static func parse(_ bytes: [UInt8], limits: DataFileLimits, problems: inout [DirectoryProblem]) -> [EmojiEntry] {
        var limits = limits
        var result: [EmojiEntry] = []
        var seen = Set<String>()
        for (number, rawLine) in DataFile.lines(of: bytes) {
            if DataFile.isBlank(rawLine) { continue }
            guard limits.mayRead(problems: &problems) else { break }
            guard let line = String(validating: rawLine, as: UTF8.self) else {
                limits.skip(line: number, "not valid UTF-8", problems: &problems)
                continue
            }
            do {
                var changes: [DataText.Change] = []
                let entry = try self.entry(from: try JSONValue.parse(line), changes: &changes)
                guard seen.insert(entry.id).inserted else {
                    limits.skip(line: number, "duplicate id \"\(entry.id)\"; skipped", problems: &problems)
                    continue
                }
                result.append(entry)
                if !changes.isEmpty { limits.note(line: number, DataText.report(changes), problems: &problems) }
            } catch let problem as LineProblem {
                limits.skip(line: number, problem.message, problems: &problems)
            } catch {
                limits.skip(line: number, "\(error)", problems: &problems)
            }
        }
        limits.finish(problems: &problems)
        return result
    }

    struct LineProblem: Error { let message: String }

    /// One line's emoji, its text cleaned (`DataText`); what cleaning changed goes to `changes`.
    static func entry(from value: JSONValue, changes: inout [DataText.Change]) throws -> EmojiEntry {
        guard value.objectMembers != nil else { throw LineProblem(message: "expected a JSON object") }
        func cleaned(_ text: String, _ field: String) throws -> String {
            do {
                return try DataText.clean(text, field: field, changes: &changes)
            } catch {
                throw LineProblem(message: error.message + "; skipped")
            }
        }
        func string(_ field: String) throws -> String {
            guard let string = try value[field]?.stringValue.map({ try cleaned($0, field) }), !string.isEmpty else {
                throw LineProblem(message: "expected a non-empty string for \"\(field)\"")
            }
            return string
        }
        func strings(_ value: JSONValue?, _ field: String) throws -> [String] {
            guard let array = value?.arrayValue else { throw LineProblem(message: "expected an array for \"\(field)\"") }
            return try array.map {
                guard let string = $0.stringValue else { throw LineProblem(message: "expected strings in \"\(field)\"") }
                return try cleaned(string, field)
            }
        }
        let id = try string("id"), char = try string("char")  // first: the report follows the file's order
        let shortcodes = try strings(value["shortcodes"], "shortcodes")
        var names: [String: String] = [:]
        for (language, name) in value["names"]?.objectMembers ?? [] {
            guard let name = name.stringValue else { throw LineProblem(message: "expected strings in \"names\"") }
            names[language] = try cleaned(name, "names")
        }
        var keywords: [String: [String]] = [:]
        for (language, words) in value["keywords"]?.objectMembers ?? [] {
            keywords[language] = try strings(words, "keywords")
        }
        return EmojiEntry(id: id, char: char, shortcodes: shortcodes, names: names, keywords: keywords)
    }
}
