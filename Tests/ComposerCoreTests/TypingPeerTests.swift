import ComposerCore
import Foundation
import PropertyBased
import Testing

@Suite("TypingPeer: a simulated colleague, deterministic from a seed")
struct TypingPeerTests {
    static let directory = WorkspaceDirectory(people: [
        DirectoryEntry(id: "u0005", name: "stastny.jan", display: "Jan Šťastný", latin: "jan stastny"),
        DirectoryEntry(id: "u0103", name: "yamashita.hanako", display: "山下 花子", reading: "やました はなこ",
                       latin: "yamashita hanako"),
        DirectoryEntry(id: "u0001", name: "tanaka", display: "田中 太郎", reading: "たなか たろう", latin: "tanaka taro"),
    ])

    @Test func splitMix64MatchesTheReferenceOutput() {
        // The common SplitMix64 test vector (seed 1234567), checked against an independent
        // Python implementation, and the first output for seed 0.
        var generator = SplitMix64(seed: 1_234_567)
        #expect((0..<5).map { _ in generator.next() } == [
            6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
            4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
        ])
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    }

    @Test func uniformStaysInRange() async {
        await propertyCheck(count: 200, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: -50...50), Gen.int(in: 0...100)) { seed, lower, width in
            var generator = SplitMix64(seed: seed)
            for _ in 0..<20 {
                #expect((lower...(lower + width)).contains(generator.uniform(lower...(lower + width))))
            }
        }
    }

    @Test func parsesTheCommandLineSetting() throws {
        #expect(try PeerSetting(argument: "off") == .off)
        #expect(try PeerSetting(argument: "on") == .on)
        #expect(try PeerSetting(argument: "seed:0") == .seed(0))
        #expect(try PeerSetting(argument: "seed:42") == .seed(42))
        #expect(try PeerSetting(argument: "seed:18446744073709551615") == .seed(.max))
    }

    @Test func refusesBadSettingsWithClearText() {
        func error(_ argument: String) -> String? {
            do {
                _ = try PeerSetting(argument: argument)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(error("") == #""" is not a peer setting: use off, on or seed:N (e.g. seed:42)"#)
        #expect(error("yes") == #""yes" is not a peer setting: use off, on or seed:N (e.g. seed:42)"#)
        #expect(error("OFF") == #""OFF" is not a peer setting: use off, on or seed:N (e.g. seed:42)"#)
        #expect(error("seed:") == #""seed:" has no seed: write seed:N with N a whole number (e.g. seed:42)"#)
        for bad in ["seed:-1", "seed:+1", "seed:4.2", "seed:x", "seed: 1", "seed:١٢", "seed:18446744073709551616"] {
            #expect(error(bad) == "\"\(bad)\": the seed must be a whole number from 0 to 18446744073709551615")
        }
    }

    @Test func theSeedForOnIsDrawnAndTheOthersAreFixed() {
        var generator = SplitMix64(seed: 9)
        var copy = generator
        #expect(PeerSetting.off.seed(drawingFrom: &generator) == nil)
        #expect(PeerSetting.seed(7).seed(drawingFrom: &generator) == 7)
        #expect(PeerSetting.on.seed(drawingFrom: &generator) == copy.next())
    }

    @Test func picksTheFirstJapanesePersonAndBuildsTheIndicatorText() {
        let peer = TypingPeer(seed: 1, directory: Self.directory)
        #expect(peer.person.id == "u0103")
        #expect(peer.indicator == .one("山下 花子"))
        #expect(TypingPeer.person(in: WorkspaceDirectory(people: [Self.directory.people[0]])).display == "Jan Šťastný")
        #expect(TypingPeer(seed: 1, directory: .empty).indicator == .one("Hanako"))
        #expect(TypingIndicator(names: []) == nil)
        #expect(TypingIndicator(names: ["A", "B"]) == .two("A", "B"))
        #expect(TypingIndicator(names: ["A", "B", "C"]) == .several)
    }

    @Test func picksFromTheRealDataDirectory() {
        let result = DirectoryLoader.load(from: repositoryRoot().appendingPathComponent("data"))
        let person = TypingPeer.person(in: result.directory)
        #expect(!person.reading.isEmpty)
        #expect(person == result.directory.people.first { !$0.reading.isEmpty })
    }

    @Test func theSameSeedGivesTheSameScheduleAndOthersDiffer() {
        let a = TypingPeer(seed: 42, directory: Self.directory).events(between: .zero, and: .seconds(600))
        let b = TypingPeer(seed: 42, directory: Self.directory).events(between: .zero, and: .seconds(600))
        let c = TypingPeer(seed: 43, directory: Self.directory).events(between: .zero, and: .seconds(600))
        #expect(a == b)
        #expect(a != c)
        #expect(a.count > 20)
    }

    @Test func aFixedSeedHasAFixedSchedule() {
        // Pins the schedule across platforms and Swift versions (SplitMix64 + our own draws).
        let events = TypingPeer(seed: 42, directory: Self.directory).events(between: .zero, and: .seconds(30))
        let described = events.map { event -> String in
            let ms = Int(event.at / .milliseconds(1))
            if case .message(let text) = event.kind { return "\(ms) \(event.kind.name) \(text)" }
            return "\(ms) \(event.kind.name)"
        }
        #expect(described == Self.seed42FirstThirtySeconds, "\(described)")
    }

    /// Computed by an independent Python model of the schedule described on `TypingPeer`.
    static let seed42FirstThirtySeconds = [
        "4290 peer-typing-started",
        "7839 peer-typing-stopped",
        "7839 peer-message ありがとうございます🙏",
        "18599 peer-typing-started",
        "21027 peer-typing-stopped",
        "21027 peer-message ありがとうございます🙏",
        "29972 peer-typing-started",
    ]

    @Test func theScheduleIsWellFormed() async {
        await propertyCheck(count: 100, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            let events = TypingPeer(seed: seed, directory: Self.directory).events(between: .zero, and: .seconds(300))
            #expect(!events.isEmpty)
            var typing = false
            var previous = Duration.zero
            var lastStop: Duration?
            for event in events {
                #expect(event.at >= previous)
                #expect(event.at > .zero)
                switch event.kind {
                case .typingStarted:
                    #expect(!typing)
                    #expect(event.at > previous, "a pause comes before typing")
                    typing = true
                case .typingStopped:
                    #expect(typing)
                    typing = false
                    lastStop = event.at
                case .message(let text):
                    #expect(!typing)
                    #expect(event.at == lastStop, "a message comes with the stop")
                    #expect(TypingPeer.replies.contains(text))
                }
                previous = event.at
            }
        }
    }

    @Test func steppingWithNextEventsWalksTheWholeSchedule() {
        let peer = TypingPeer(seed: 7, directory: Self.directory)
        let expected = peer.events(between: .zero, and: .seconds(120))
        var stepped: [PeerEvent] = []
        var now = Duration.zero
        while true {
            let batch = peer.nextEvents(after: now)
            guard let first = batch.first, first.at < .seconds(120) else { break }
            #expect(batch.allSatisfy { $0.at == first.at })
            stepped += batch
            now = first.at
        }
        #expect(stepped == expected)
    }

    @Test func windowsSplitTheScheduleWithoutLossOrDuplicates() async {
        await propertyCheck(count: 100, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 0...60_000).array(of: 0...8)) { seed, cuts in
            let peer = TypingPeer(seed: seed, directory: Self.directory)
            let bounds = [0] + cuts.sorted() + [60_000]
            var joined: [PeerEvent] = []
            for index in 0..<(bounds.count - 1) {
                joined += peer.events(between: .milliseconds(bounds[index]), and: .milliseconds(bounds[index + 1]))
            }
            #expect(joined == peer.events(between: .zero, and: .seconds(60)))
        }
    }
}
