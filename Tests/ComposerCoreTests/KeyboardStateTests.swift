import ComposerCore
import PropertyBased
import Testing

@Suite("KeyboardState: observations to keyboard events")
struct KeyboardStateTests {
    static func event(_ visible: Bool, _ height: Int, _ overlap: Int, _ source: KeyboardSource) -> KeyboardEvent {
        KeyboardEvent(visible: visible, height: height, overlap: overlap, source: source)
    }

    /// Applies observations and returns the events, one per observation (nil: none).
    static func run(_ observations: [KeyboardObservation], on state: inout KeyboardState) -> [KeyboardEvent?] {
        observations.map { state.apply($0) }
    }

    @Test func swayShrinksTheWindowAfterVisibleAndTheRepeatSettlesIt() {
        var state = KeyboardState()
        let events = Self.run([
            .windowHeight(800),           // initial size: settles at once, nothing to report
            .oskVisible(true),            // squeekboard up, height not known yet
            .windowHeight(700),           // an intermediate size of the transition
            .windowHeight(590),           // the new size…
            .windowHeight(590),           // …reported again after a quiet moment: settled
        ], on: &state)
        #expect(events == [nil, Self.event(true, 0, 0, .squeekboard), nil, nil, Self.event(true, 210, 0, .resize)])
        #expect(state.fullHeight == 800)
        #expect(state.current == Self.event(true, 210, 0, .resize))
    }

    @Test func aResizeBeforeVisibleIsSettledByVisible() {
        var state = KeyboardState()
        let events = Self.run([.windowHeight(800), .windowHeight(590), .oskVisible(true)], on: &state)
        #expect(events == [nil, nil, Self.event(true, 210, 0, .resize)])
    }

    /// Seen with sway: the shrink arrives, is re-reported and settles (as a new full
    /// height) before squeekboard's Visible does. Visible right after a shrink claims it.
    @Test func aShrinkThatSettledBeforeVisibleIsStillTheKeyboards() {
        var state = KeyboardState()
        let events = Self.run([.windowHeight(1280), .windowHeight(1050), .windowHeight(1050), .oskVisible(true)],
                              on: &state)
        #expect(events == [nil, nil, nil, Self.event(true, 230, 0, .resize)])
        #expect(state.fullHeight == 1280)
        // Hiding gives the output back; showing again settles at the known shrunken size.
        #expect(Self.run([.windowHeight(1280), .oskVisible(false)], on: &state).last == Self.event(false, 0, 0, .squeekboard))
        #expect(Self.run([.oskVisible(true), .windowHeight(1050)], on: &state).last == Self.event(true, 230, 0, .resize))
    }

    /// Seen with sway: the window's first size is GTK's default (600), Visible comes, then
    /// sway gives it the output (1280) and at once shrinks it (1050); only 1050 repeats.
    @Test func aFullHeightSeenOnlyInPassingIsStillTheFullHeight() {
        var state = KeyboardState()
        let events = Self.run([.windowHeight(600), .oskVisible(true), .windowHeight(1280), .windowHeight(1050),
                               .windowHeight(1050)], on: &state)
        #expect(events.last == Self.event(true, 230, 0, .resize), "\(events)")
        #expect(state.fullHeight == 1280)
    }

    @Test func hidingAndShowingAgainUseTheKnownHeightsAtOnce() {
        var state = KeyboardState()
        _ = Self.run([.windowHeight(800), .windowHeight(590), .oskVisible(true)], on: &state)
        // Hide: the window grows back first (pending: not the known size while visible),
        // then Visible false settles it. One event.
        #expect(Self.run([.windowHeight(800), .oskVisible(false)], on: &state)
                == [nil, Self.event(false, 0, 0, .squeekboard)])
        #expect(state.fullHeight == 800)
        // Show again: the shrunken height is known now, it settles at once.
        #expect(Self.run([.oskVisible(true), .windowHeight(590)], on: &state)
                == [Self.event(true, 0, 0, .squeekboard), Self.event(true, 210, 0, .resize)])
        // Hide with Visible first: the window's return to full height reports nothing more.
        #expect(Self.run([.oskVisible(false), .windowHeight(800)], on: &state)
                == [Self.event(false, 0, 0, .squeekboard), nil])
    }

    @Test func bogusFramesAreIgnored() {
        var state = KeyboardState()
        _ = Self.run([.windowHeight(800), .windowHeight(590), .oskVisible(true)], on: &state)
        let before = state
        #expect(Self.run([.windowHeight(0), .windowHeight(-5), .windowHeight(1_000_000)], on: &state) == [nil, nil, nil])
        #expect(state == before, "a bogus frame leaves no trace, not even a pending size")
        #expect(Self.run([.simulated(inset: 0), .simulated(inset: -40), .simulated(inset: 591)], on: &state) == [nil, nil, nil])
        #expect(state == before, "an inset taller than the window is ignored")
    }

    @Test func anAbandonedTransitionLeavesNoEvent() {
        var state = KeyboardState()
        _ = Self.run([.windowHeight(800)], on: &state)
        #expect(Self.run([.windowHeight(640), .windowHeight(800), .windowHeight(640)], on: &state) == [nil, nil, nil])
        #expect(state.pendingHeight == 640)
    }

    @Test func aUserResizeWhileHiddenBecomesTheFullHeight() {
        var state = KeyboardState()
        #expect(Self.run([.windowHeight(800), .windowHeight(900), .windowHeight(900)], on: &state) == [nil, nil, nil])
        #expect(state.fullHeight == 900)
        #expect(Self.run([.windowHeight(650), .oskVisible(true)], on: &state) == [nil, Self.event(true, 250, 0, .resize)])
    }

    @Test func anOverlayingCompositorKeepsTheWindowAndTheHeightIsUnknown() {
        var state = KeyboardState()
        #expect(Self.run([.windowHeight(800), .oskVisible(true), .windowHeight(800)], on: &state)
                == [nil, Self.event(true, 0, 0, .squeekboard), nil])
    }

    @Test func theSimulatedKeyboardWinsWhileOnAndTheRealStateReturns() {
        var state = KeyboardState()
        _ = Self.run([.windowHeight(600)], on: &state)
        #expect(state.apply(.simulated(inset: 260)) == Self.event(true, 260, 260, .simulated))
        #expect(state.apply(.simulated(inset: 260)) == nil, "no change, no event")
        #expect(state.apply(.oskVisible(true)) == nil, "the simulation hides the real keyboard's state")
        #expect(state.apply(.simulated(inset: nil)) == Self.event(true, 0, 0, .squeekboard))
        #expect(state.apply(.oskVisible(false)) == Self.event(false, 0, 0, .squeekboard))
        _ = state.apply(.simulated(inset: 200))
        #expect(state.apply(.simulated(inset: nil)) == Self.event(false, 0, 0, .simulated))
    }

    @Test func squeekboardAlreadyUpAtStart() {
        var state = KeyboardState()
        // Visible before any size: the first size is the window's own, full or not is unknown.
        #expect(Self.run([.oskVisible(true), .windowHeight(590)], on: &state)
                == [Self.event(true, 0, 0, .squeekboard), nil])
        // Hidden, the window grows: that is the full height; shown again, the loss is known.
        #expect(Self.run([.oskVisible(false), .windowHeight(800), .windowHeight(800),
                          .windowHeight(590), .oskVisible(true)], on: &state)
                == [Self.event(false, 0, 0, .squeekboard), nil, nil, nil, Self.event(true, 210, 0, .resize)])
    }

    @Test func eventsComeOnlyOnChangesAndNeverCarryNonsense() async {
        let observations = zip(Gen.int(in: 0...9), Gen.int(in: -100...1200)).map { kind, value -> KeyboardObservation in
            switch kind {
            case 0...2: return .oskVisible(value % 2 == 0)
            case 3...7: return .windowHeight([800, 590, 700, value][abs(value) % 4])
            case 8: return .simulated(inset: value)
            default: return .simulated(inset: nil)
            }
        }.array(of: 0...40)
        await propertyCheck(count: 500, input: observations) { observations in
            var state = KeyboardState()
            var last = KeyboardEvent.hidden
            for observation in observations {
                let before = state.current
                if let event = state.apply(observation) {
                    #expect(event.visible != before.visible || event.height != before.height || event.overlap != before.overlap,
                            "an event is a change")
                    #expect(event.height >= 0 && event.overlap >= 0 && event.overlap <= event.height)
                    #expect(event.visible || (event.height == 0 && event.overlap == 0))
                    if let full = state.fullHeight, event.source == .resize { #expect(event.height < full) }
                    last = event
                }
                #expect(state.current == last)
            }
        }
    }
}
