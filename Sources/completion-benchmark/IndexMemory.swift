import CGtkSourceView
import ComposerCore
import Foundation

/// How much memory a completion index keeps once built: the heap in use (glibc's
/// `mallinfo2`, every arena, mmapped blocks included) after building it, less before; what
/// building it read and dropped (the parsed file, the entries) is not counted.
enum IndexMemory {
    static func heapInUse() -> Int {
        let info = mallinfo2()
        return Int(info.uordblks + info.hblkhd)
    }

    /// The index `build` returns, and the bytes it holds.
    static func held<Index>(_ build: () -> Index) -> (index: Index, bytes: Int) {
        let before = heapInUse()
        let index = build()
        return (index, heapInUse() - before)
    }

    struct Emoji {
        var emoji: Int
        var keys: Int
        var bytes: Int
    }

    /// The emoji index the composer builds from `directory`/emoji.jsonl; nil when there is none.
    static func emoji(in directory: URL) -> Emoji? {
        var emojiCount = 0, keyCount = 0
        let (source, bytes) = held { () -> CompletionSource? in
            let loaded = EmojiLoader.load(from: directory)
            guard !loaded.emoji.isEmpty else { return nil }
            emojiCount = loaded.emoji.count
            let source = CompletionSource.emoji(loaded.emoji)
            keyCount = source.keyCount
            return source
        }
        guard source != nil else { return nil }
        return withExtendedLifetime(source) { Emoji(emoji: emojiCount, keys: keyCount, bytes: bytes) }
    }
}
