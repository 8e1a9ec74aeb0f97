import Foundation

/// The people, channels and emoji a replay completes and highlights with: read from a
/// data directory as the app reads it, all at once (a replay has no first frame to wait for).
public struct ReplayData: Sendable {
    public let directory: WorkspaceDirectory
    public let emoji: [EmojiEntry]
    /// What could not be read, one `FILE:LINE: message` each.
    public let problems: [String]

    public static let empty = ReplayData(directory: .empty, emoji: [])

    public init(directory: WorkspaceDirectory, emoji: [EmojiEntry], problems: [String] = []) {
        self.directory = directory
        self.emoji = emoji
        self.problems = problems
    }

    /// Reads `path` ("" = no data). A missing emoji file is no problem (the app's is optional).
    public static func load(from path: String) -> ReplayData {
        guard !path.isEmpty else { return .empty }
        let url = URL(fileURLWithPath: path)
        let directory = DirectoryLoader.load(from: url)
        let hasEmoji = FileManager.default.fileExists(atPath: url.appendingPathComponent(EmojiLoader.fileName).path)
        let emoji = hasEmoji ? EmojiLoader.load(from: url) : (emoji: [], problems: [])
        return ReplayData(directory: directory.directory, emoji: emoji.emoji,
                          problems: (directory.problems + emoji.problems).map(\.description))
    }

    /// The names the highlighter knows.
    var tokens: TokenNames {
        TokenNames(people: directory.people.map(\.name), channels: directory.channels.map(\.name),
                   shortcodes: emoji.flatMap(\.shortcodes))
    }

    /// The completion source called `name`, as the app builds it.
    func source(named name: String) -> CompletionSource? {
        switch name {
        case CompletionSource.peopleName: return .people(directory.people)
        case CompletionSource.channelsName: return .channels(directory.channels)
        case CompletionSource.emojiName: return .emoji(emoji)
        default: return nil
        }
    }
}
