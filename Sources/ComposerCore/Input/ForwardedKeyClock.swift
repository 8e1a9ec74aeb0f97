/// Tells a key an input method passed on after acting on it from a key pressed after.
///
/// A compositor's input method (Wayland's input-method-v2: fcitx5 under sway) sees every
/// key before the application. fcitx5-hangul commits its syllable on Return and then
/// forwards the Return: the application gets the commit first and the key after it, and
/// the key alone looks like a Return pressed with nothing composing — which sends. The
/// key's own time says otherwise: it was pressed before the commit arrived. Key times and
/// the window's clock are compared in milliseconds of CLOCK_MONOTONIC (what Wayland
/// compositors stamp keys with, and what `g_get_monotonic_time` reads), so the window
/// enables this only on Wayland; X11 stamps keys with the server's own clock.
public struct ForwardedKeyClock: Sendable {
    /// Whether key times share the window's clock (the Wayland backend).
    public let enabled: Bool
    /// When the input method last committed or changed its preedit (ms, wrapping).
    private var lastAction: UInt32?

    public init(enabled: Bool) { self.enabled = enabled }

    /// The input method committed, or showed, changed or ended a preedit, at `now`.
    public mutating func inputMethodActed(at now: UInt32) {
        if enabled { lastAction = now }
    }

    /// How soon after the input method's last action a key without a time (stamped 0)
    /// must arrive to count as passed on by it.
    public static let untimedWindow: UInt32 = 100

    /// Whether a key stamped `keyTime`, arriving at `now`, was pressed before the input
    /// method's last action: it was the input method's to act on, and it passed it on.
    /// A key time more than a minute from `now`, or ahead of it, is on another clock:
    /// nothing is concluded from it. Times are 32-bit milliseconds that wrap (49 days).
    ///
    /// A key stamped 0 has no time: KWin 5.27 stamps the keys of its fake input that way
    /// (KDE Connect's remote keyboard, the lab's virtual keyboard: "TODO: Fix time" in its
    /// fake-input backend), and hands a key fcitx5 passes on (input-method-v1 `keysym`) to
    /// the app with the seat's last time, so 0 again. Such a key counts as passed on when it
    /// arrives within `untimedWindow` of the input method's last action: the input method
    /// acted on that very key (fcitx5-hangul's Return commits 글, then KWin delivers the
    /// Return a few milliseconds later). A person's own next key comes later than that; if
    /// one does come sooner, it only confirms instead of sending, and nothing is lost.
    public func isForwarded(keyTime: UInt32, now: UInt32) -> Bool {
        inputMethodActedAfter(eventTime: keyTime, now: now)
    }

    /// Whether the input method last acted after an event stamped `eventTime` (a key or a
    /// pointer press), arriving at `now`, was made: the same reading as `isForwarded`. A
    /// press made before a composition ended with no commit is one the compositor reset
    /// the input method for before passing it on (GNOME Shell does, on every press).
    public func inputMethodActedAfter(eventTime keyTime: UInt32, now: UInt32) -> Bool {
        guard enabled, let lastAction else { return false }
        if keyTime == 0 {
            let since = Int32(bitPattern: now &- lastAction)
            return since >= 0 && UInt32(since) <= Self.untimedWindow
        }
        let age = Int32(bitPattern: now &- keyTime)
        guard age >= 0, age <= 60_000 else { return false }
        return Int32(bitPattern: lastAction &- keyTime) >= 0
    }
}
