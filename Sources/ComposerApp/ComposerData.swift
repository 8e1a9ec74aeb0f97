import ComposerCore
import Foundation
import GtkBinding

/// The people, channels and emoji the composer completes and highlights, with their
/// completion indexes already built.
///
/// Why a type of its own: reading, folding and indexing them takes long enough (a
/// directory of 100,000 people takes the better part of a second) that the app does it on
/// a background thread once the window's first frame is painted, then hands the result to
/// the main loop in one piece
/// (`ComposerController.loadDataAfterFirstFrame`, `useData`).
public nonisolated struct ComposerData: @unchecked Sendable {
    // @unchecked: `CompletionSource` is a class. Its indexes are built on the loading thread
    // and then handed over once; from then on only the main thread touches them.
    public let directory: WorkspaceDirectory
    /// Emoji shortcodes, for highlighting `:cat_face:` as it is typed.
    let emojiShortcodes: [String]
    /// People, channels, and emoji when there are any.
    let completionSources: [CompletionSource]

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
    }

    /// Reads people, channels and emoji from `path` ("" = none) and indexes them all.
    /// Problems go to stderr, one `ime-composer: <file>:<line>: <message>` line each;
    /// whatever could be read is used.
    ///
    /// The emoji index is built here too, not on the first emoji word: built then, it came
    /// seconds after the word on a busy machine, and an Enter pressed meanwhile sent the
    /// word as typed (issue #31).
    public static func load(from path: String) -> ComposerData {
        ComposerData(directory: ComposerApplication.loadDirectory(path), emoji: ComposerApplication.loadEmoji(path))
    }
}
