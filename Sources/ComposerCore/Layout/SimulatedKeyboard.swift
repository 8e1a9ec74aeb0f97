/// The simulated on-screen keyboard (`--osk-inset PX`) behaves like a device's: people who
/// ask for one expect what squeekboard does — it comes up when the input takes the focus and
/// goes down when the input loses it. Its toggle overrides that until the focus next
/// changes: pressed while the keyboard is up it hides it, pressed while it is down it
/// forces it up.
public struct SimulatedKeyboard: Equatable, Sendable {
    /// The keyboard's height: what it reserves at the bottom of the panel while up.
    public let inset: Int
    public private(set) var inputFocused: Bool
    /// The toggle's choice since the focus last changed (nil: it follows the focus).
    public private(set) var chosen: Bool?

    public init(inset: Int, inputFocused: Bool) {
        self.inset = inset
        self.inputFocused = inputFocused
    }

    public var isUp: Bool { chosen ?? inputFocused }

    /// What the keyboard state should be told now.
    public var observation: KeyboardObservation { .simulated(inset: isUp ? inset : nil) }

    /// The input gained or lost the focus: the keyboard follows, whatever the toggle chose.
    public mutating func focusChanged(_ focused: Bool) {
        guard focused != inputFocused else { return }
        inputFocused = focused
        chosen = nil
    }

    /// The toggle asks for the keyboard up or down. Asking for what already is changes
    /// nothing (the window setting its toggle to match reports that too).
    public mutating func requested(up: Bool) {
        guard up != isUp else { return }
        chosen = up
    }
}
