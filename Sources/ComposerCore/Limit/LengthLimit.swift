/// The message length limit and how it is enforced.
public struct LengthLimit: Equatable, Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Accept everything, colour the overflow, refuse to send while over.
        case soft
        /// The IME-safe hard limit: once input settles with no composition, cut what was
        /// just inserted back to the limit. Never while composing, never undo/redo.
        case hard
    }

    public var limit: Int
    public var mode: Mode
    public var unit: CountUnit

    public init(limit: Int = 200, mode: Mode = .soft, unit: CountUnit = .graphemes) {
        self.limit = max(0, limit)
        self.mode = mode
        self.unit = unit
    }
}

extension LengthLimit {
    /// Why Enter did not send, for the hint under the messages: how far over.
    public func overLimitHint(by over: Int) -> LimitHint {
        LimitHint(over: over, limit: limit, unit: unit)
    }
}

/// The message is over the limit and was not sent: by how much, of what limit, counted
/// in what. The core says what happened; the window phrases it in the person's language.
public struct LimitHint: Equatable, Sendable {
    public var over: Int
    public var limit: Int
    public var unit: CountUnit

    public init(over: Int, limit: Int, unit: CountUnit) {
        self.over = over
        self.limit = limit
        self.unit = unit
    }
}

/// Where the text stands against the limit, for the counter, Send and the hint.
public struct LimitStatus: Equatable, Sendable {
    /// Units of committed text.
    public var count: Int
    /// Units including the preedit, while composing (nil otherwise).
    public var provisionalCount: Int?
    public var limit: Int

    public init(count: Int, provisionalCount: Int?, limit: Int) {
        self.count = count
        self.provisionalCount = provisionalCount
        self.limit = limit
    }

    /// Units left (negative when over), from the committed text.
    public var remaining: Int { limit - count }
    public var isOver: Bool { count > limit }

    /// The counter label: what is left ("42"), "−7" when over (U+2212, a real minus), and
    /// while composing the provisional value including the preedit.
    public var counterText: String {
        let value = limit - (provisionalCount ?? count)
        return value < 0 ? "\u{2212}\(-value)" : "\(value)"
    }

    /// The counter is in error when the committed text, or the text as it would be with
    /// the composition committed, is over.
    public var counterIsOver: Bool { (provisionalCount ?? count) > limit }
    public var isProvisional: Bool { provisionalCount != nil }

    /// How close to the limit the counter appears: within the last fifth of the limit, and
    /// never later than 20 units before it (a limit of 200 shows it from 40 left).
    public var counterThreshold: Int { max(20, limit / 5) }

    /// Whether the counter is shown: once what is left — provisionally, while composing —
    /// is within `counterThreshold`, and while over. Far from the limit a number that
    /// ticks with every keystroke is only noise (chat apps show it near the limit), and
    /// drawing it costs a text layout in every frame.
    public var counterIsShown: Bool { limit - (provisionalCount ?? count) <= counterThreshold }
}
