@testable import ComposerCore
import Testing

/// The events an untraced session keeps for the inspector's history before F12.
struct RecentEventsTests {
    @Test func theLastEventsAreKeptOldestFirst() {
        var recent = RecentEvents(capacity: 3)
        for (t, key) in ["a", "b", "c", "d"].enumerated() { recent.append(.key(keyval: key, consumed: nil), t: t) }
        #expect(recent.events.map(\.t) == [1, 2, 3])
        #expect(recent.events.map(\.event) == ["b", "c", "d"].map { .key(keyval: $0, consumed: nil) })
    }

    /// Untraced, the composer still reports every event (keys, the composition, edits,
    /// decisions) but not the `text` snapshots, which copy the whole text; nor does it ask
    /// for painted frames. Without `keepsRecentEvents` it reports nothing.
    @Test func untracedTheComposerReportsEventsButNoTextSnapshots() {
        func traced(_ composer: Composer) -> [TraceEvent] {
            var events: [TraceEvent] = []
            for input: InputEvent in [.keyPressed(name: "a", shift: false), .preeditStarted,
                                      .preeditChanged(Preedit(text: "あ", cursor: 1, segments: [])),
                                      .commitStarted("あ"), .commitEnded, .preeditEnded, .settle] {
                for effect in composer.handle(input) {
                    if case .trace(let event) = effect { events.append(event) }
                    #expect(effect != .awaitFrame)
                }
            }
            return events
        }
        let recent = traced(Composer(traces: false, tracesFrames: true, keepsRecentEvents: true))
        #expect(recent.contains(.key(keyval: "a", consumed: nil)), "\(recent)")
        #expect(recent.contains(.preedit(Preedit(text: "あ", cursor: 1, segments: []))), "\(recent)")
        #expect(recent.contains(.commit("あ")), "\(recent)")
        #expect(!recent.contains { if case .text = $0 { true } else { false } }, "\(recent)")
        #expect(traced(Composer(traces: false)).isEmpty)
        #expect(traced(Composer(traces: true)).contains { if case .text = $0 { true } else { false } })
    }

    /// Rows from before the trace started are shown, not written to the transcript.
    @Test func historyRowsAreNotInTheTranscript() {
        let log = InspectorLog()
        log.append(.key(keyval: "a", consumed: nil), t: 1, inTranscript: false)
        log.append(.start(backend: "x11", imModule: "ibus", settings: TranscriptSettings()), t: 2)
        #expect(log.count == 2)
        #expect(log.transcript.map(\.t) == [2])
    }
}
