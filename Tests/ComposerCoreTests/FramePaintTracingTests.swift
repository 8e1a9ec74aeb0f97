@testable import ComposerCore
import Testing

/// `--trace-frames`: the composer asks the window for the next frame after a key or an input
/// method's answer, one request at a time, and traces `paint` when the window reports it; the
/// window only does as it is told. Without the switch it never asks.
struct FramePaintTracingTests {
    static func asks(_ effects: [Effect]) -> Int { effects.filter { $0 == .awaitFrame }.count }

    @Test func onlyTheFirstAnswerBeforeAFrameAsksForOne() {
        let composer = Composer(traces: true, tracesFrames: true)
        #expect(Self.asks(composer.handle(.keyPressed(name: "a", shift: false))) == 1)
        // Answers before the frame came: the frame asked for shows them too.
        #expect(Self.asks(composer.handle(.preeditStarted)) == 0)
        #expect(Self.asks(composer.handle(.preeditChanged(Preedit(text: "あ", cursor: 1, segments: [])))) == 0)
        let painted = composer.handle(.framePainted)
        #expect(painted.contains(.trace(.paint)))
        #expect(Self.asks(painted) == 0, "a paint line is no answer to time")
        #expect(Self.asks(composer.handle(.keyPressed(name: "i", shift: false))) == 1, "asks again once painted")
    }

    @Test func withoutTheSwitchOrATraceNoFrameIsAskedFor() {
        for composer in [Composer(traces: true), Composer(traces: false, tracesFrames: true)] {
            #expect(Self.asks(composer.handle(.keyPressed(name: "a", shift: false))) == 0)
            #expect(Self.asks(composer.handle(.preeditStarted)) == 0)
        }
    }
}
