/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator whose output is the same
/// on every platform and Swift version, so a peer seed means the same schedule everywhere.
/// (Draw numbers with `uniform`, not the standard library's `random(in:using:)`, whose
/// algorithm is not promised to stay the same.)
public struct SplitMix64: RandomNumberGenerator, Equatable, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`, by modulo (the bias is negligible for the small ranges used).
    public mutating func uniform(_ range: ClosedRange<Int>) -> Int {
        let count = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % count)
    }
}

/// `--peer off|on|seed:N`: whether a simulated colleague types, and with which seed.
public enum PeerSetting: Equatable, Sendable {
    case off
    /// A peer with a seed chosen at start (a different schedule every run).
    case on
    /// A peer with this seed: the same schedule every run (for tests).
    case seed(UInt64)

    /// Parses `off`, `on` or `seed:N` (N decimal, 0…18446744073709551615).
    public init(argument: String) throws(PeerSettingError) {
        switch argument {
        case "off": self = .off
        case "on": self = .on
        default:
            guard argument.hasPrefix("seed:") else { throw PeerSettingError(argument: argument, reason: .unknownWord) }
            let number = argument.dropFirst("seed:".count)
            guard !number.isEmpty else { throw PeerSettingError(argument: argument, reason: .missingSeed) }
            guard number.allSatisfy({ $0.isASCII && $0.isNumber }), let seed = UInt64(number) else {
                throw PeerSettingError(argument: argument, reason: .badSeed)
            }
            self = .seed(seed)
        }
    }

    /// The seed to run a peer with: nil when off; for `on`, one drawn from `generator`.
    public func seed(drawingFrom generator: inout some RandomNumberGenerator) -> UInt64? {
        switch self {
        case .off: return nil
        case .on: return generator.next()
        case .seed(let seed): return seed
        }
    }
}

/// Why a `--peer` value was refused; `description` is the message for the user.
public struct PeerSettingError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        case unknownWord, missingSeed, badSeed
    }

    public let argument: String
    public let reason: Reason

    public var description: String {
        switch reason {
        case .unknownWord:
            return "\"\(argument)\" is not a peer setting: use off, on or seed:N (e.g. seed:42)"
        case .missingSeed:
            return "\"\(argument)\" has no seed: write seed:N with N a whole number (e.g. seed:42)"
        case .badSeed:
            return "\"\(argument)\": the seed must be a whole number from 0 to \(UInt64.max)"
        }
    }
}

/// Something the simulated colleague does.
public struct PeerEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case typingStarted
        case typingStopped
        /// The peer posted a message (always right after `typingStopped`, same instant).
        case message(String)

        /// `peer-typing-started`, `peer-typing-stopped`, `peer-message`.
        public var name: String {
            switch self {
            case .typingStarted: return "peer-typing-started"
            case .typingStopped: return "peer-typing-stopped"
            case .message: return "peer-message"
            }
        }
    }

    /// Time since the peer started.
    public var at: Duration
    public var kind: Kind

    public init(at: Duration, kind: Kind) {
        self.at = at
        self.kind = kind
    }
}

/// Who is typing, for the typing indicator: the core says who, the window phrases it
/// ("田中 太郎 is typing…", in the person's language).
public enum TypingIndicator: Equatable, Sendable {
    case one(String)
    case two(String, String)
    /// Three or more: names would not fit.
    case several

    /// nil when nobody types.
    public init?(names: [String]) {
        switch names.count {
        case 0: return nil
        case 1: self = .one(names[0])
        case 2: self = .two(names[0], names[1])
        default: self = .several
        }
    }
}

/// A simulated colleague for the typing indicator: from time to time it types, and then
/// either posts a reply or stops without posting. Deterministic: the whole schedule
/// follows from the seed (SplitMix64), so the app can drive it with GLib timeouts and tests
/// can step through it without sleeping.
///
/// The schedule, repeated forever (all times whole milliseconds):
/// idle 2–6 s at first and 4–15 s afterwards → `typingStarted` → 1.5–6 s of typing →
/// `typingStopped`, and in 3 cycles out of 4 a `message` at that same instant.
public struct TypingPeer: Sequence, Sendable {
    public let seed: UInt64
    /// Who types (its `display` name is shown).
    public let person: DirectoryEntry

    /// Replies the peer posts (Japanese, English, an emoji, Korean).
    public static let replies = [
        "了解です！", "いいですね 👍", "あとで確認します", "Sounds good!", "ありがとうございます🙏",
        "Let me check and get back to you.", "今向かってます🏃", "좋아요!",
    ]

    /// Stand-in when the directory has nobody.
    public static let fallbackPerson = DirectoryEntry(id: "peer", name: "hanako", display: "Hanako",
                                                      reading: "はなこ", latin: "hanako")

    public init(seed: UInt64, person: DirectoryEntry) {
        self.seed = seed
        self.person = person
    }

    public init(seed: UInt64, directory: WorkspaceDirectory) {
        self.init(seed: seed, person: Self.person(in: directory))
    }

    /// The first Japanese person (one with a kana reading), else the first person, else
    /// `fallbackPerson`.
    public static func person(in directory: WorkspaceDirectory) -> DirectoryEntry {
        directory.people.first { !$0.reading.isEmpty } ?? directory.people.first ?? fallbackPerson
    }

    /// The indicator while this peer types (its display name: "田中 太郎").
    public var indicator: TypingIndicator { .one(person.display) }

    /// The events with `start <= at < end`, in order.
    public func events(between start: Duration, and end: Duration) -> [PeerEvent] {
        var result: [PeerEvent] = []
        for event in self {
            if event.at >= end { break }
            if event.at >= start { result.append(event) }
        }
        return result
    }

    /// The events of the first instant after `time` (one event, or `typingStopped` and its
    /// `message`), in order: schedule a timeout for their `at`, handle them all, repeat.
    public func nextEvents(after time: Duration) -> [PeerEvent] {
        var result: [PeerEvent] = []
        for event in self {
            if event.at <= time { continue }
            if let first = result.first, event.at != first.at { break }
            result.append(event)
        }
        return result
    }

    public func makeIterator() -> Iterator {
        Iterator(generator: SplitMix64(seed: seed))
    }

    /// The endless schedule.
    public struct Iterator: IteratorProtocol, Sendable {
        var generator: SplitMix64
        var time = 0  // milliseconds
        var cycle = 0
        var queued: [PeerEvent] = []

        public mutating func next() -> PeerEvent? {
            if queued.isEmpty { queued = nextCycle() }
            return queued.removeFirst()
        }

        private mutating func nextCycle() -> [PeerEvent] {
            time += cycle == 0 ? generator.uniform(2_000...6_000) : generator.uniform(4_000...15_000)
            cycle += 1
            let started = PeerEvent(at: .milliseconds(time), kind: .typingStarted)
            time += generator.uniform(1_500...6_000)
            let stopped = PeerEvent(at: .milliseconds(time), kind: .typingStopped)
            guard generator.uniform(0...3) != 0 else { return [started, stopped] }
            let reply = TypingPeer.replies[generator.uniform(0...(TypingPeer.replies.count - 1))]
            return [started, stopped, PeerEvent(at: .milliseconds(time), kind: .message(reply))]
        }
    }
}
