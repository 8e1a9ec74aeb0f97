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
    }

    /// KWin 5.27 stamps fake-input keys, and the keys fcitx5 passes on through it, with 0.
    @Test func aKeyWithoutATimeRightAfterTheInputMethodActedWasForwarded() {
        var clock = ForwardedKeyClock(enabled: true)
        #expect(!clock.isForwarded(keyTime: 0, now: 5_000), "nothing acted yet")
        clock.inputMethodActed(at: 5_000)
        #expect(clock.isForwarded(keyTime: 0, now: 5_003), "fcitx5-hangul's Return, 3 ms after its commit")
        #expect(clock.isForwarded(keyTime: 0, now: 5_000 + ForwardedKeyClock.untimedWindow), "at the window's end")
        #expect(!clock.isForwarded(keyTime: 0, now: 5_001 + ForwardedKeyClock.untimedWindow), "a later key is the person's")
        #expect(!clock.isForwarded(keyTime: 0, now: 4_999), "before the action (clock read out of order)")
    }

    /// GNOME Shell resets IBus on a press before passing the press on: the composition's
    /// end comes after the press's own time; a press made after the end is the person's.
    @Test func aPressMadeBeforeTheInputMethodActedWasOneItWasResetFor() {
        var clock = ForwardedKeyClock(enabled: true)
        clock.inputMethodActed(at: 20_002)
        #expect(clock.inputMethodActedAfter(eventTime: 20_000, now: 20_004), "pressed at 20000, the end came at 20002")
        #expect(!clock.inputMethodActedAfter(eventTime: 23_000, now: 23_001), "a click three seconds after an Escape")
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
