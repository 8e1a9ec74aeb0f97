@testable import ComposerCore
import Testing

/// Key → answer → painted frame, as the inspector counts it (and the lab's matrix report).
struct AnswerTimingTests {
    static let preedit = TraceEvent.preedit(Preedit(text: "あ", cursor: 1, segments: []))

    @Test func eachAnswerIsTimedFromItsKeyAndEachAnsweredKeyToItsFrame() {
        var timing = AnswerTiming()
        #expect(timing.record(.key(keyval: "a", consumed: nil), t: 100, row: 1) == .none)
        #expect(timing.record(.preeditStart, t: 104, row: 2) == .answer(sinceKey: 4))
        #expect(timing.record(Self.preedit, t: 105, row: 3) == .answer(sinceKey: 5))
        #expect(timing.record(.surroundingRetrieve, t: 106, row: 4) == .answer(sinceKey: 6))
        #expect(timing.record(.paint, t: 120, row: 5) == .painted([(row: 1, milliseconds: 20)]))
        #expect(timing.record(.key(keyval: "Return", consumed: true), t: 200, row: 6) == .none)
        #expect(timing.record(.commit("あ"), t: 270, row: 7) == .answer(sinceKey: 70))
        #expect(timing.record(.paint, t: 290, row: 8) == .painted([(row: 6, milliseconds: 90)]))
        #expect(timing.record(.paint, t: 300, row: 9) == .painted([]), "a key is painted once")
        #expect(timing.toPreedit == [4])
        #expect(timing.toCommit == [70])
        #expect(timing.toPaint == [20, 90])
    }

    /// An answer 50 ms or more after its key is flagged on its row; each answer row says
    /// how long after its key it came, and the key row when its frame was painted.
    @Test func theLogFlagsSlowAnswersAndShowsTheTimes() {
        let log = InspectorLog()
        log.append(.key(keyval: "a", consumed: nil), t: 0)
        let quick = log.append(Self.preedit, t: 12)
        let slow = log.append(.commit("あ"), t: 73)
        #expect(quick?.sinceKey == 12 && quick?.anomalies.isEmpty == true)
        #expect(quick?.summary.hasSuffix("+12 ms") == true, "\(quick?.summary ?? "")")
        #expect(slow?.anomalies.map(\.id) == ["slow-answer"])
        #expect(slow?.anomalies.first?.line.contains("73 ms") == true)
        log.append(.paint, t: 80)
        #expect(log.lastPainted == [1])
        #expect(log[0].paintedAfter == 80 && log[0].summary.hasSuffix("→ painted after 80 ms"), "\(log[0].summary)")
    }

    @Test func summaryHasTheMedianTheNinetiethPercentileTheMaximumAndAHistogram() throws {
        let summary = try #require(TimingSummary([3, 7, 12, 30, 60, 150, 8, 9, 4, 11]))
        #expect(summary.count == 10 && summary.median == 9 && summary.p90 == 60 && summary.max == 150)
        #expect(summary.histogram == [2, 3, 2, 1, 1, 1])
        #expect(TimingSummary([]) == nil)
    }

    /// The session, and each engine once there is more than one; slow keys slowest first.
    @Test func theReportHasASectionPerEngineAndListsSlowKeys() {
        var timing = AnswerTiming()
        for (index, (engine, since)) in [("IBus anthy", 5), ("IBus anthy", 80), ("IBus hangul", 60)].enumerated() {
            let t = index * 1000
            timing.record(.key(keyval: "a", consumed: nil), t: t, row: index * 10 + 1, engine: engine)
            timing.record(Self.preedit, t: t + since, row: index * 10 + 2, engine: engine)
        }
        let report = TimingReport(timing)
        #expect(report.sections.map(\.title) == ["All keys", "IBus anthy", "IBus hangul"])
        let preedit = report.sections[0].measures[0]
        #expect(preedit.slow.map(\.row) == [11, 21] && preedit.slowestRow == 11)
        #expect(report.lines.contains("    slow (≥50 ms): #11 80 ms, #21 60 ms"), "\(report.lines)")
        #expect(report.parts.contains { $0.contains(.row(21, "#21 60 ms")) }, "the Timing view links each slow key's row")
        #expect(report.lines.contains("  key → commit: no key yet"))
    }
}
