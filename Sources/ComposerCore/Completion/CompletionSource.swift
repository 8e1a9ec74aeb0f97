/// What kind of thing a completion row is (the app picks an avatar initial or a glyph).
public enum CompletionKind: String, Sendable {
    case person, channel, emoji, custom
}

/// Where a matched key shows in a completion row, so its match can be highlighted there.
public enum KeyPlacement: Equatable, Sendable {
    /// The key is the title's text from this scalar offset on.
    case title(offset: Int)
    /// The key is the detail's text from this scalar offset on.
    case detail(offset: Int)
    /// Word by word, the key reads the title's words from this offset on (a reading or a
    /// romanization of a display name: `tanaka taro` for `田中 太郎`); a matched word
    /// highlights the whole title word. Nothing is highlighted when the word counts differ.
    case titleWords(offset: Int)
    /// When this key matched best, the title becomes prefix + key + suffix (an emoji row
    /// shows the shortcode that matched: `:smiley_cat:`).
    case asTitle(prefix: String, suffix: String)
    /// When this key matched best, the detail becomes the key (the emoji name or keyword
    /// that matched: `ネコ`).
    case asDetail
    /// Matched, but not shown.
    case hidden
}

/// One searchable text of an entry and where it shows.
public struct CompletionKey: Equatable, Sendable {
    public var text: String
    public var placement: KeyPlacement

    public init(_ text: String, _ placement: KeyPlacement) {
        self.text = text
        self.placement = placement
    }
}

/// Something that can be completed: how it is shown, what it inserts, what matches it.
public struct CompletionEntry: Equatable, Sendable {
    /// Stable id (the trace's `items` and `accept` use it): "u0001", "c01", "1f431".
    public var id: String
    public var kind: CompletionKind
    /// The row's main text (田中 太郎, #general, :cat_face:).
    public var title: String
    /// The row's secondary text (@tanaka, General, cat face); may be empty.
    public var detail: String
    /// An emoji glyph, or an avatar initial.
    public var glyph: String
    /// What accepting puts in place of prefix + query ("@tanaka ", "#general ", "🐱").
    public var insertion: String
    /// Searchable texts, in tie-break order (on equal scores the first matching key is
    /// the one highlighted).
    public var keys: [CompletionKey]

    public init(id: String, kind: CompletionKind, title: String, detail: String = "", glyph: String = "",
                insertion: String, keys: [CompletionKey]) {
        self.id = id
        self.kind = kind
        self.title = title
        self.detail = detail
        self.glyph = glyph
        self.insertion = insertion
        self.keys = keys
    }
}

/// One row of the completion list, ready to show: texts, and the scalar ranges to
/// highlight in them (apply as Pango attributes over the text, never as markup).
public struct CompletionItem: Equatable, Sendable {
    public var id: String
    public var kind: CompletionKind
    public var title: String
    public var titleHighlights: [Range<Int>]
    public var detail: String
    public var detailHighlights: [Range<Int>]
    public var glyph: String
    public var insertion: String
    /// The match's score (see `FuzzyMatcher`); 0 for an empty query.
    public var score: Int

    public init(id: String, kind: CompletionKind, title: String, titleHighlights: [Range<Int>] = [],
                detail: String = "", detailHighlights: [Range<Int>] = [], glyph: String = "",
                insertion: String, score: Int = 0) {
        self.id = id
        self.kind = kind
        self.title = title
        self.titleHighlights = titleHighlights
        self.detail = detail
        self.detailHighlights = detailHighlights
        self.glyph = glyph
        self.insertion = insertion
        self.score = score
    }
}

/// A named set of entries with its matcher: people, channels, emoji, or one from configuration.
///
/// Kept compact, as the emoji index is kept for the app's life (issue #35: it was most of
/// the composer's memory beyond a plain text view's): the entries' texts are packed in one
/// UTF-8 buffer, their keys' texts are only the matcher's, and a key's placement takes 4
/// bytes. `entry(at:)` rebuilds an entry.
public final class CompletionSource {
    public static let peopleName = "people"
    public static let channelsName = "channels"
    public static let emojiName = "emoji"

    public let name: String
    public let matcher: FuzzyMatcher
    /// Per entry: id, title, detail, glyph, insertion (`Field`), at `entry * Field.count + field`.
    private let texts: PackedStrings
    private let kinds: [CompletionKind]
    /// Per key (the matcher's numbering), where it shows.
    private let placements: [PackedPlacement]
    /// The prefix and suffix of each distinct `.asTitle` placement.
    private let affixes: [(prefix: String, suffix: String)]
    /// Entry indices sorted by id (the first of equal ids first): `index(ofID:)`.
    private let byID: [Int32]

    private enum Field: Int, CaseIterable {
        case id, title, detail, glyph, insertion
        static let count = allCases.count
    }

    /// Keys are folded once, here; `entries` is read once, in order (a lazy sequence is
    /// never held as a whole).
    public init<Entries: Sequence>(name: String, entries: Entries) where Entries.Element == CompletionEntry {
        self.name = name
        var texts = PackedStrings()
        var kinds: [CompletionKind] = []
        var keys = PackedStrings()
        var firstKey: [Int32] = []
        var placements: [PackedPlacement] = []
        var affixes: [(prefix: String, suffix: String)] = []
        for entry in entries {
            for text in [entry.id, entry.title, entry.detail, entry.glyph, entry.insertion] { texts.append(text) }
            kinds.append(entry.kind)
            firstKey.append(Int32(keys.count))
            for key in entry.keys {
                keys.append(key.text)
                placements.append(PackedPlacement(key.placement, affixes: &affixes))
            }
        }
        firstKey.append(Int32(keys.count))
        self.matcher = FuzzyMatcher(originals: keys, firstKey: firstKey)
        self.texts = texts.compacted()
        self.kinds = kinds.compacted()
        self.placements = placements.compacted()
        self.affixes = affixes
        let packed = self.texts
        self.byID = (0..<Int32(kinds.count)).sorted { left, right in
            let a = packed.utf8(Int(left) * Field.count), b = packed.utf8(Int(right) * Field.count)
            return a.lexicographicallyPrecedes(b) || (a.elementsEqual(b) && left < right)
        }
    }

    /// How many entries there are.
    public var count: Int { kinds.count }

    /// How many searchable texts the entries have in all.
    public var keyCount: Int { matcher.keyCount }

    private func text(_ entry: Int, _ field: Field) -> String {
        texts[entry * Field.count + field.rawValue]
    }

    /// Entry `index` (0 ..< `count`), as it was given.
    public func entry(at index: Int) -> CompletionEntry {
        let keys = (0..<matcher.keyCount(of: index)).map { key in
            CompletionKey(matcher.key(key, of: index), placements[matcher.keyIndex(key, of: index)].placement(affixes))
        }
        return CompletionEntry(id: text(index, .id), kind: kinds[index], title: text(index, .title),
                               detail: text(index, .detail), glyph: text(index, .glyph),
                               insertion: text(index, .insertion), keys: keys)
    }

    public func entry(id: String) -> CompletionEntry? {
        index(ofID: id).map(entry(at:))
    }

    /// The first entry with this id (binary search in `byID`; ids compare as their UTF-8 bytes).
    private func index(ofID id: String) -> Int? {
        let wanted = Array(id.utf8)
        var low = 0, high = byID.count
        while low < high {
            let middle = (low + high) / 2
            if texts.utf8(Int(byID[middle]) * Field.count).lexicographicallyPrecedes(wanted) { low = middle + 1 } else { high = middle }
        }
        guard low < byID.count, texts.utf8(Int(byID[low]) * Field.count).elementsEqual(wanted) else { return nil }
        return Int(byID[low])
    }

    /// Recently accepted ids, most recent first (unknown ids are ignored).
    public func setRecent(ids: [String]) {
        matcher.setRecent(ids.compactMap(index(ofID:)))
    }

    /// The best `limit` rows for `query`; pass the previous state when the query was extended.
    public func search(_ query: String, limit: Int, previous: FuzzySearchState? = nil) -> (items: [CompletionItem], state: FuzzySearchState) {
        let (matches, state) = matcher.search(query, limit: limit, previous: previous)
        return (matches.map(item), state)
    }

    /// The row for one match: the matched key's ranges placed where that key shows.
    public func item(for match: FuzzyMatch) -> CompletionItem {
        let index = match.candidate
        let title = text(index, .title), detail = text(index, .detail)
        var item = CompletionItem(id: text(index, .id), kind: kinds[index], title: title, detail: detail,
                                  glyph: text(index, .glyph), insertion: text(index, .insertion), score: match.score)
        guard match.key < matcher.keyCount(of: index), !match.ranges.isEmpty else { return item }
        let key = matcher.key(match.key, of: index)
        switch placements[matcher.keyIndex(match.key, of: index)].placement(affixes) {
        case .title(let offset):
            item.titleHighlights = Self.shifted(match.ranges, by: offset, within: title)
        case .detail(let offset):
            item.detailHighlights = Self.shifted(match.ranges, by: offset, within: detail)
        case .titleWords(let offset):
            item.titleHighlights = Self.wordHighlights(match.ranges, in: key, title: title, from: offset)
        case .asTitle(let prefix, let suffix):
            item.title = prefix + key + suffix
            item.titleHighlights = Self.shifted(match.ranges, by: prefix.unicodeScalars.count, within: item.title)
        case .asDetail:
            item.detail = key
            item.detailHighlights = match.ranges
        case .hidden:
            break
        }
        return item
    }

    private static func shifted(_ ranges: [Range<Int>], by offset: Int, within text: String) -> [Range<Int>] {
        let count = text.unicodeScalars.count
        return ranges.compactMap { range in
            let lower = min(count, range.lowerBound + offset), upper = min(count, range.upperBound + offset)
            return lower < upper ? lower..<upper : nil
        }
    }

    /// Scalar ranges of the whitespace-separated words of `text` from `offset` on.
    static func wordRanges(_ text: String, from offset: Int = 0) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start: Int?
        for (index, scalar) in text.unicodeScalars.enumerated() where index >= offset {
            if scalar.properties.isWhitespace {
                if let wordStart = start { result.append(wordStart..<index) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let wordStart = start { result.append(wordStart..<text.unicodeScalars.count) }
        return result
    }

    private static func wordHighlights(_ ranges: [Range<Int>], in key: String, title: String, from offset: Int) -> [Range<Int>] {
        let keyWords = wordRanges(key)
        let titleWords = wordRanges(title, from: offset)
        guard keyWords.count == titleWords.count else { return [] }
        return zip(keyWords, titleWords).compactMap { keyWord, titleWord in
            ranges.contains { $0.overlaps(keyWord) } ? titleWord : nil
        }
    }
}

extension CompletionSource {
    /// People: title 田中 太郎, detail @tanaka, inserts "@tanaka ". Keys: display, name,
    /// Latin form, reading.
    public static func people(_ people: [DirectoryEntry], name: String = peopleName) -> CompletionSource {
        CompletionSource(name: name, entries: people.lazy.map { person in
            CompletionEntry(
                id: person.id, kind: .person, title: person.display, detail: "@" + person.name,
                glyph: person.display.first.map { String($0) } ?? "",
                insertion: "@" + person.name + " ",
                keys: [
                    CompletionKey(person.display, .title(offset: 0)),
                    CompletionKey(person.name, .detail(offset: 1)),
                    CompletionKey(person.latin, .titleWords(offset: 0)),
                    CompletionKey(person.reading, .titleWords(offset: 0)),
                ].filter { !$0.text.isEmpty })
        })
    }

    /// Channels: title #general, detail its display name when that says more, inserts
    /// "#general ". Keys: name, display, Latin form, reading.
    public static func channels(_ channels: [DirectoryEntry], name: String = channelsName) -> CompletionSource {
        CompletionSource(name: name, entries: channels.lazy.map { channel in
            let sameAsName = TextFolding.foldedScalars(channel.display) == TextFolding.foldedScalars(channel.name)
            var keys = [CompletionKey(channel.name, .title(offset: 1))]
            if !sameAsName { keys.append(CompletionKey(channel.display, .detail(offset: 0))) }
            keys.append(CompletionKey(channel.latin, .titleWords(offset: 1)))
            keys.append(CompletionKey(channel.reading, .titleWords(offset: 1)))
            return CompletionEntry(
                id: channel.id, kind: .channel, title: "#" + channel.name, detail: sameAsName ? "" : channel.display,
                glyph: "#", insertion: "#" + channel.name + " ",
                keys: keys.filter { !$0.text.isEmpty })
        })
    }

    /// Emoji: title :cat_face: (or the shortcode that matched), detail the English name
    /// (or the name or keyword that matched), inserts the emoji. Keys: shortcodes, names,
    /// keywords (English, then Japanese).
    public static func emoji(_ emoji: [EmojiEntry], name: String = emojiName) -> CompletionSource {
        CompletionSource(name: name, entries: emoji.lazy.map { emoji in
            let languages = emoji.languages
            var keys = emoji.shortcodes.map { CompletionKey($0, .asTitle(prefix: ":", suffix: ":")) }
            keys += languages.compactMap { emoji.names[$0] }.filter { !$0.isEmpty }.map { CompletionKey($0, .asDetail) }
            keys += languages.flatMap { emoji.keywords[$0] ?? [] }.map { CompletionKey($0, .asDetail) }
            return CompletionEntry(
                id: emoji.id, kind: .emoji, title: emoji.shortcodes.first.map { ":\($0):" } ?? emoji.char,
                detail: emoji.names["en"] ?? "", glyph: emoji.char, insertion: emoji.char, keys: keys)
        })
    }
}

/// A `KeyPlacement` in 4 bytes: the kind in the top 3 bits, its offset below (or, for
/// `.asTitle`, the index of its prefix and suffix in the source's list of them).
struct PackedPlacement: Equatable, Sendable {
    private let raw: UInt32
    private static let argumentBits: UInt32 = 29
    private static let largestArgument: UInt32 = (1 << argumentBits) - 1

    private init(kind: UInt32, argument: Int) {
        raw = kind << Self.argumentBits | UInt32(clamping: min(max(0, argument), Int(Self.largestArgument)))
    }

    /// `placement`, adding its prefix and suffix to `affixes` when they are new there.
    init(_ placement: KeyPlacement, affixes: inout [(prefix: String, suffix: String)]) {
        switch placement {
        case .title(let offset): self.init(kind: 0, argument: offset)
        case .detail(let offset): self.init(kind: 1, argument: offset)
        case .titleWords(let offset): self.init(kind: 2, argument: offset)
        case .asTitle(let prefix, let suffix):
            let index = affixes.firstIndex { $0 == (prefix, suffix) } ?? {
                affixes.append((prefix, suffix))
                return affixes.count - 1
            }()
            self.init(kind: 3, argument: index)
        case .asDetail: self.init(kind: 4, argument: 0)
        case .hidden: self.init(kind: 5, argument: 0)
        }
    }

    func placement(_ affixes: [(prefix: String, suffix: String)]) -> KeyPlacement {
        let argument = Int(raw & Self.largestArgument)
        switch raw >> Self.argumentBits {
        case 0: return .title(offset: argument)
        case 1: return .detail(offset: argument)
        case 2: return .titleWords(offset: argument)
        case 3: return .asTitle(prefix: affixes[argument].prefix, suffix: affixes[argument].suffix)
        case 4: return .asDetail
        default: return .hidden
        }
    }
}
