import Foundation
import TestHarness
import Testing

/// Per-key timing read from a trace: key → first preedit change and key → first commit,
/// each before the next key, from the scenario's first line on.
struct KeyTimingTests {
    static let trace = """
        {"ev":"start","t":90,"v":1}
        {"ev":"key","t":100,"keyval":"r"}
        {"ev":"preedit-start","t":103}
        {"ev":"preedit","t":104,"text":"ㄱ"}
        {"ev":"key","t":200,"keyval":"g"}
        {"ev":"preedit","t":207,"text":"ㅎ"}
        {"ev":"key","t":300,"keyval":"k"}
        {"ev":"preedit","t":302,"text":"하"}

        {"ev":"key","t":400,"keyval":"space"}
        {"ev":"commit","t":411,"text":"하"}
        {"ev":"preedit","t":412,"text":""}
        {"ev":"commit","t":413,"text":" "}
        {"ev":"key","t":500,"keyval":"Return"}
        {"ev":"send","t":501,"text":"하 "}
        not json
        """

    @Test func eachKeyCountsItsFirstPreeditAndItsFirstCommitOnly() {
        let timing = KeyTiming(trace: Self.trace)
        #expect(timing.toPreedit == [3, 7, 2, 12])
        #expect(timing.toCommit == [11])
    }

    @Test func keysBeforeTheScenarioAreLeftOut() {
        // From the fourth non-blank line (the "g" key): the "r" key and its answer are the
        // session's probe, not the scenario's.
        let timing = KeyTiming(trace: Self.trace, fromLine: 4)
        #expect(timing.toPreedit == [7, 2, 12])
    }

    @Test func summaryIsTheMedianAndTheNinetiethPercentileByNearestRank() throws {
        #expect(KeyTiming.summary([]) == nil)
        let one = try #require(KeyTiming.summary([5]))
        #expect(one.median == 5 && one.p90 == 5)
        let ten = try #require(KeyTiming.summary([10, 1, 9, 2, 8, 3, 7, 4, 6, 5]))
        #expect(ten.median == 5 && ten.p90 == 9)
    }
}
