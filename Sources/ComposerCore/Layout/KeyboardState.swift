/// Where the composer learned about the on-screen keyboard.
public enum KeyboardSource: String, Sendable, CaseIterable {
    /// squeekboard's `sm.puri.OSK0` `Visible` property (no height known).
    case squeekboard
    /// The window lost height while the keyboard was up (the compositor shrank it).
    case resize
    /// `--osk-inset PX` and the toggle in the UI: a reserved area at the bottom.
    case simulated
}

/// The on-screen keyboard as the layout sees it (trace event `keyboard`).
public struct KeyboardEvent: Equatable, Sendable {
    public var visible: Bool
    /// The keyboard's height in pixels, 0 when hidden or unknown.
    public var height: Int
    /// Pixels of the panel it covers: 0 when the compositor shrank the window instead.
    public var overlap: Int
    public var source: KeyboardSource

    public init(visible: Bool, height: Int, overlap: Int, source: KeyboardSource) {
        self.visible = visible
        self.height = height
        self.overlap = overlap
        self.source = source
    }

    public static let hidden = KeyboardEvent(visible: false, height: 0, overlap: 0, source: .squeekboard)

    /// Same geometry (the source only says where it came from).
    func sameGeometry(as other: KeyboardEvent) -> Bool {
        visible == other.visible && height == other.height && overlap == other.overlap
    }
}

/// What the app observes about the keyboard, reported as it happens.
public enum KeyboardObservation: Equatable, Sendable {
    /// squeekboard's `Visible` property changed (or was read at start).
    case oskVisible(Bool)
    /// The window's height in pixels. Report every change, and report the same height
    /// again once it has stayed put for a moment (e.g. a 150 ms GLib timeout restarted by
    /// each change): a repeat is what settles a new size (see `KeyboardState`).
    case windowHeight(Int)
    /// The simulated keyboard: `inset` pixels reserved at the bottom, or nil when off.
    case simulated(inset: Int?)
}

/// A pure reducer from keyboard observations to keyboard events (the toolkit does not say
/// where an on-screen keyboard is: learn its frame yourself and ignore bogus frames; the
/// next good one makes it right).
///
/// **Window heights.** A compositor that makes room for the keyboard (sway with
/// squeekboard) shrinks the window, possibly through intermediate sizes. So a reported
/// height is only *pending* until it is settled, and pending sizes never produce events:
/// - the first height ever reported settles at once (the window's own initial size);
/// - a height settles at once when it is the known size for the current keyboard state:
///   the full height while the keyboard is hidden, the last settled shrunken height while
///   it is visible;
/// - any other height settles when it is reported again (the app re-reports after a
///   quiet moment), or when `Visible` changes (the size then belongs to the new state).
///
/// While the keyboard is hidden a settled height becomes the full height (the user may
/// resize the window). While it is visible, a settled height below the full height means
/// the keyboard is `full − height` tall and overlaps nothing (source `resize`); a settled
/// height at or above the full height means the compositor overlays the keyboard, whose
/// height is then unknown (0, source `squeekboard`).
///
/// **Bogus values are ignored** (the state stays as it was): window heights ≤ 0 (a 0×0
/// frame) or above `maximumHeight`; simulated insets ≤ 0 or taller than the window.
///
/// **Simulated keyboard** wins while it is on: visible, `height == overlap == inset`. When
/// it is turned off, the real keyboard's state (from squeekboard and resizes) returns.
///
/// `apply` returns an event only when visibility, height or overlap change.
public struct KeyboardState: Equatable, Sendable {
    /// No real window is taller than this (GDK's own surface size limit is far below).
    public static let maximumHeight = 32_767

    /// The last event reported (initially hidden).
    public private(set) var current: KeyboardEvent = .hidden
    /// squeekboard's `Visible`.
    public private(set) var oskVisible = false
    /// The window's height when the keyboard took nothing from it (nil until known).
    public private(set) var fullHeight: Int?
    /// The last settled window height.
    public private(set) var settledHeight: Int?
    /// A reported height waiting to be settled.
    public private(set) var pendingHeight: Int?
    /// The last settled height while the keyboard was visible and the window shrunken.
    public private(set) var shrunkenHeight: Int?
    /// The simulated keyboard's inset while it is on.
    public private(set) var simulatedInset: Int?
    /// The full height before the window last shrank while the keyboard was hidden.
    ///
    /// The compositor may shrink the window for the keyboard *before* squeekboard's
    /// `Visible` reaches us (two processes, two sockets): the shrink then settles as a new
    /// full height. When `Visible` turns true right after such a shrink, the shrink was the
    /// keyboard's. (A user who shrinks the window and then meets a keyboard that overlays
    /// instead of shrinking would be misread; no such compositor is in sight.)
    public private(set) var fullHeightBeforeShrink: Int?
    /// The tallest size the window passed through since the last settled one. A window
    /// that was given the whole output and then shrunk for the keyboard before either size
    /// settled (sway does both within one frame or two) still shows its full height here.
    public private(set) var tallestPending: Int?

    public init() {}

    public mutating func apply(_ observation: KeyboardObservation) -> KeyboardEvent? {
        let cause: KeyboardSource
        switch observation {
        case .oskVisible(let visible):
            guard visible != oskVisible else { return nil }
            oskVisible = visible
            cause = .squeekboard
            if let pending = pendingHeight { settle(pending) }
            if visible, let before = fullHeightBeforeShrink, let settled = settledHeight, settled < before {
                fullHeight = before
                shrunkenHeight = settled
            }
            fullHeightBeforeShrink = nil
        case .windowHeight(let height):
            guard height > 0, height <= Self.maximumHeight else { return nil }
            cause = .resize
            if settledHeight == nil || height == knownHeight || height == pendingHeight {
                settle(height)
            } else if height == settledHeight {
                pendingHeight = nil  // back to where it was: the transition was abandoned
            } else {
                pendingHeight = height
                tallestPending = max(tallestPending ?? height, height)
                return nil
            }
        case .simulated(let inset):
            if let inset {
                guard inset > 0, inset <= Self.maximumHeight,
                      inset <= (settledHeight ?? Self.maximumHeight) else { return nil }
            }
            simulatedInset = inset
            cause = .simulated
        }
        return report(derived(cause: cause))
    }

    /// The height that settles at once in the current state.
    private var knownHeight: Int? {
        oskVisible ? shrunkenHeight : fullHeight
    }

    private mutating func settle(_ height: Int) {
        pendingHeight = nil
        settledHeight = height
        let tallest = tallestPending
        tallestPending = nil
        if oskVisible, let tallest, tallest > (fullHeight ?? 0), height < tallest {
            fullHeight = tallest  // the window was this tall a moment ago: that is its full height
        }
        if !oskVisible {
            if let full = fullHeight, height < full { fullHeightBeforeShrink = full } else { fullHeightBeforeShrink = nil }
            fullHeight = height
        } else if let full = fullHeight, height < full {
            shrunkenHeight = height
        } else if let full = fullHeight, height > full {
            fullHeight = height  // taller than "full": the full height was out of date
        }
    }

    /// The keyboard as the current observations describe it; a hidden keyboard is
    /// attributed to what hid it.
    private func derived(cause: KeyboardSource) -> KeyboardEvent {
        if let inset = simulatedInset {
            return KeyboardEvent(visible: true, height: inset, overlap: inset, source: .simulated)
        }
        guard oskVisible else { return KeyboardEvent(visible: false, height: 0, overlap: 0, source: cause) }
        if let full = fullHeight, let settled = settledHeight, settled < full {
            return KeyboardEvent(visible: true, height: full - settled, overlap: 0, source: .resize)
        }
        return KeyboardEvent(visible: true, height: 0, overlap: 0, source: .squeekboard)
    }

    private mutating func report(_ event: KeyboardEvent) -> KeyboardEvent? {
        guard !event.sameGeometry(as: current) else { return nil }
        current = event
        return event
    }
}
