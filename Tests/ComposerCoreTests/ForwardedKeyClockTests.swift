import ComposerCore
import Testing

struct ForwardedKeyClockTests {
    @Test func aKeyPressedBeforeTheInputMethodsLastActionWasForwarded() {
        var clock = ForwardedKeyClock(enabled: true)
        #expect(!clock.isForwarded(keyTime: 1_000, now: 1_002), "nothing acted yet")
        clock.inputMethodActed(at: 1_001)
        #expect(clock.isForwarded(keyTime: 1_000, now: 1_002), "pressed at 1000, the commit arrived at 1001")
        #expect(clock.isForwarded(keyTime: 1_001, now: 1_002), "the same millisecond counts as before")
        #expect(!clock.isForwarded(keyTime: 1_250, now: 1_251), "pressed after the commit")
    }

    @Test func keyTimesOnAnotherClockProveNothing() {
        var clock = ForwardedKeyClock(enabled: true)
        clock.inputMethodActed(at: 75_533_100)
        #expect(!clock.isForwarded(keyTime: 12_000, now: 75_533_101), "X server time: far older than a minute")
        #expect(!clock.isForwarded(keyTime: 75_600_000, now: 75_533_101), "a key from the future")
        #expect(!clock.isForwarded(keyTime: 0, now: 75_533_101), "no time at all")
    }

    @Test func millisecondsWrapAfter49Days() {
        var clock = ForwardedKeyClock(enabled: true)
        clock.inputMethodActed(at: 3)  // just after the wrap
        #expect(clock.isForwarded(keyTime: UInt32.max - 2, now: 5))
        #expect(!clock.isForwarded(keyTime: 4, now: 5))
    }

    @Test func disabledItConcludesNothing() {
        var clock = ForwardedKeyClock(enabled: false)
        clock.inputMethodActed(at: 1_001)
        #expect(!clock.isForwarded(keyTime: 1_000, now: 1_002))
    }
}
