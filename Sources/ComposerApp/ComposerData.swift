import ComposerCore
import Foundation
import GtkBinding

/// The people, channels and emoji the composer completes and highlights, with their
/// completion indexes already built.
///
/// Why a type of its own: reading, folding and indexing them takes long enough (a
/// directory of 100,000 people takes the better part of a second) that the app does it on
/// a background thread while the window draws its first frame, then hands the result to
/// the main loop in one piece (`ComposerApplication`, `ComposerController.useData`).
public struct ComposerData: @unchecked Sendable {
    // @unchecked: `CompletionSource` is a class. Its indexes are built on the loading thread
    // and then handed over once; from then on only the main thread touches them.
    public let directory: Directory
    public let emoji: [EmojiEntry]
    let completionSources: [CompletionSource]

    public static let empty = ComposerData(directory: .empty, emoji: [])

    /// Folds and indexes `directory` and `emoji` for completion.
    public init(directory: Directory, emoji: [EmojiEntry]) {
        self.directory = directory
        self.emoji = emoji
        completionSources = [.people(directory.people), .channels(directory.channels), .emoji(emoji)]
    }

    /// Reads people, channels and emoji from `path` ("" = none) and indexes them. Problems
    /// go to stderr, one `ime-composer: <file>:<line>: <message>` line each; whatever could
    /// be read is used.
    public static func load(from path: String) -> ComposerData {
        ComposerData(directory: ComposerApplication.loadDirectory(path), emoji: ComposerApplication.loadEmoji(path))
    }

    /// `load(from:)` on a background thread; `deliver` runs on the main loop.
    public static func loadInBackground(from path: String, then deliver: @escaping (ComposerData) -> Void) {
        MainLoop.offMainThread({ load(from: path) }, then: deliver)
    }
}
