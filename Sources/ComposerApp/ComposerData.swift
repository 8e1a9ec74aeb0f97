import ComposerCore
import Foundation
import GtkBinding

/// The people, channels and emoji the composer completes and highlights, with their
/// completion indexes already built.
///
/// Why a type of its own: reading, folding and indexing them takes long enough (a
/// directory of 100,000 people takes the better part of a second) that the app does it on
/// a background thread once the window's first frame is painted, then hands the result to
/// the main loop in one piece (`ComposerApplication`, `ComposerController.useData`).
public nonisolated struct ComposerData: @unchecked Sendable {
    // @unchecked: `CompletionSource` is a class. Its indexes are built on the loading thread
    // and then handed over once; from then on only the main thread touches them.
    public let directory: WorkspaceDirectory
    /// Emoji shortcodes, for highlighting `:cat_face:` as it is typed.
    let emojiShortcodes: [String]
    /// People, channels, and emoji when given.
    let completionSources: [CompletionSource]
    /// Where the emoji index is built from on first use, when it was not built here.
    let emojiDirectory: String?

    public static let empty = ComposerData(directory: .empty, emoji: [])

    /// The names the highlighter knows.
    var tokens: TokenNames {
        TokenNames(people: directory.people.map(\.name), channels: directory.channels.map(\.name),
                   shortcodes: emojiShortcodes)
    }

    /// Folds and indexes `directory` and `emoji` for completion.
    public init(directory: WorkspaceDirectory, emoji: [EmojiEntry]) {
        self.directory = directory
        emojiShortcodes = emoji.flatMap(\.shortcodes)
        completionSources = [.people(directory.people), .channels(directory.channels)] + (emoji.isEmpty ? [] : [.emoji(emoji)])
        emojiDirectory = nil
    }

    /// Reads people, channels and emoji from `path` ("" = none) and indexes people and
    /// channels. Problems go to stderr, one `ime-composer: <file>:<line>: <message>` line
    /// each; whatever could be read is used.
    ///
    /// The emoji index is not built here: it is several megabytes that only someone who
    /// types `:` needs (`loadEmojiSource`, when the first emoji word is typed).
    public static func load(from path: String) -> ComposerData {
        ComposerData(directory: ComposerApplication.loadDirectory(path),
                     emojiShortcodes: ComposerApplication.loadEmoji(path).flatMap(\.shortcodes), emojiDirectory: path)
    }

    private init(directory: WorkspaceDirectory, emojiShortcodes: [String], emojiDirectory: String) {
        self.directory = directory
        self.emojiShortcodes = emojiShortcodes
        completionSources = [.people(directory.people), .channels(directory.channels)]
        self.emojiDirectory = emojiDirectory
    }

    /// `load(from:)` on a background thread; `deliver` runs on the main loop.
    @MainActor public static func loadInBackground(from path: String, then deliver: @escaping @MainActor (ComposerData) -> Void) {
        MainLoop.offMainThread({ load(from: path) }, then: deliver)
    }

    /// The emoji index from `emojiDirectory`, built on a background thread; nil when this
    /// data has no emoji to load. Problems in the file were reported when it was first read.
    @MainActor func loadEmojiSource(then deliver: @escaping @MainActor (CompletionSourceHandOff) -> Void) -> Bool {
        guard let emojiDirectory, !emojiDirectory.isEmpty else { return false }
        MainLoop.offMainThread({
            CompletionSourceHandOff(source: .emoji(EmojiLoader.load(from: URL(fileURLWithPath: emojiDirectory)).emoji))
        }, then: deliver)
        return true
    }
}

/// A completion source built on another thread, handed to the main thread once.
nonisolated struct CompletionSourceHandOff: @unchecked Sendable {
    let source: CompletionSource
}
