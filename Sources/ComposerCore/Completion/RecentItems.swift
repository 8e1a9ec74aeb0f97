import Foundation

/// The completion items accepted most recently, per source, most recent first; they
/// rank first among equally good matches.
///
/// Persisted as one small JSON file in the app's profile directory (`--profile DIR`),
/// readable by its owner only (`PrivateFiles`):
///
///     {"version":1,"sources":{"emoji":["1f431"],"people":["u0001","u0215"]}}
///
/// Bounded: at most `capacity` ids per source. A missing file is an empty history; an
/// unreadable or malformed one is reported in `problem` and replaced on the next save —
/// history is a convenience, never a reason to fail. Without a directory it lives in
/// memory only.
public final class RecentItems {
    public static let fileName = "recent-completions.json"
    public let directory: URL?
    public let capacity: Int
    /// Source name → ids, most recent first.
    public private(set) var lists: [String: [String]] = [:]
    /// The last problem reading or writing the file, if any.
    public private(set) var problem: String?

    public init(directory: URL? = nil, capacity: Int = 50) {
        self.directory = directory
        self.capacity = max(1, capacity)
        load()
    }

    public var fileURL: URL? { directory?.appendingPathComponent(Self.fileName) }

    /// The ids of `source`, most recent first.
    public func items(for source: String) -> [String] {
        lists[source] ?? []
    }

    /// Moves `id` to the front of `source`'s list (dropping the oldest past `capacity`)
    /// and saves.
    public func record(_ id: String, source: String) {
        var list = lists[source] ?? []
        list.removeAll { $0 == id }
        list.insert(id, at: 0)
        lists[source] = Array(list.prefix(capacity))
        save()
    }

    /// The file's contents: sources and ids in a stable order.
    public var json: JSONValue {
        let sources = lists.keys.sorted().map { ($0, JSONValue.array(lists[$0]!.map(JSONValue.string))) }
        return .object([("version", .int(1)), ("sources", .object(sources))])
    }

    private func load() {
        guard let url = fileURL else { return }
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            let text = try String(contentsOf: url, encoding: .utf8)
            let value = try JSONValue.parse(text.trimmingCharacters(in: .whitespacesAndNewlines))
            guard value["version"]?.intValue == 1, let sources = value["sources"]?.objectMembers else {
                problem = "\(url.path): not a version 1 recent-completions file; ignored"
                return
            }
            for (source, ids) in sources {
                guard let ids = ids.arrayValue else { continue }
                var seen = Set<String>()
                let strings = ids.compactMap(\.stringValue).filter { seen.insert($0).inserted }
                lists[source] = Array(strings.prefix(capacity))
            }
        } catch {
            problem = "\(url.path): \(error); ignored"
        }
    }

    private func save() {
        guard let directory, let url = fileURL else { return }
        do {
            try PrivateFiles.prepareDirectory(directory)
            try PrivateFiles.write(Data((json.serialized() + "\n").utf8), to: url)
            problem = nil
        } catch {
            problem = "\(url.path): cannot save (\(error))"
        }
    }
}
