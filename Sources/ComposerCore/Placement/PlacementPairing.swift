/// Which of the cursor rectangles an IM module sends belong to the text view's caret now.
///
/// The app's IM module is called by every widget with an IM context (the inspector's own
/// text views too), and a module's message can arrive after the text view already gave a
/// newer caret. The reader reports what happened, in order, and this value decides:
/// - `textViewCalled`: the observed text view gave GTK a rectangle; with IBus, the serial of
///   the D-Bus message that call sent (the IBus module sends from inside the call);
/// - `otherWidgetCalled`: another widget's IM context was given one;
/// - `received`: a message the module sent (this process's only), with what identifies its
///   call: IBus's message serial on its connection, Fcitx5's input context object path.
///
/// IBus messages are matched to the text view's calls by serial; a message answering an
/// older call than the latest is left out. Fcitx5 messages carry no serial: the text view's
/// input context path is learned from a key the module forwarded while the text view had
/// the focus (`keySent`: Fcitx5's module forwards keys for the focused context
/// only), or, before any, from a message that followed a call of the text view's with no
/// other widget's call in between, or that is where one of its carets is on the screen;
/// then only that path is read. Either way, a
/// rectangle that is where an older given rectangle is on the screen (not the newest's) is
/// an older call's answer, left out. `current` is the message that answers the latest
/// rectangle given, nil until one arrives.
public struct PlacementPairing: Sendable {
    /// What identifies a message's call.
    public enum Origin: Equatable, Sendable {
        /// IBus: the message's serial on its connection (`connection` tells one connection
        /// from the next after ibus-daemon restarted; serials start again on each).
        case ibus(connection: Int, serial: UInt32)
        /// Fcitx5: the input context's D-Bus object path.
        case fcitx5(path: String)
    }

    /// A rectangle the IM module sent.
    public struct Message: Equatable, Sendable {
        /// "ibus SetCursorLocation", "fcitx5 SetCursorRectV2", …
        public var via: String
        public var rect: PixelRect
        public var origin: Origin

        public init(via: String, rect: PixelRect, origin: Origin) {
            self.via = via
            self.rect = rect
            self.origin = origin
        }
    }

    /// How many of the text view's recent calls are remembered (given rectangles, serials).
    public static let remembered = 8

    /// The latest rectangle the text view gave, in its own coordinates.
    public private(set) var given: PixelRect?
    /// The last few distinct rectangles given, newest last.
    public private(set) var recentGiven: [PixelRect] = []
    /// IBus messages the text view's calls sent, not yet received, oldest first.
    private var pendingSerials: [(connection: Int, serial: UInt32)] = []
    private var othersSinceOurs = true
    private var calledByTextView = false
    /// The text view's Fcitx5 input context, once learned.
    public private(set) var fcitxPath: String?
    private var sent: Message?
    /// `sent` answers the latest rectangle given.
    private var sentIsCurrent = false

    /// `fcitxPath`: the text view's Fcitx5 input context, when an earlier pairing learned it
    /// (calls made while nobody watched are unknown: nothing else is carried over).
    public init(fcitxPath: String? = nil) {
        self.fcitxPath = fcitxPath
    }

    /// The message answering the text view's latest rectangle, nil while none has.
    public var current: Message? { sentIsCurrent ? sent : nil }

    /// The text view gave `rect`; `ibusSerial` is the message its call sent on IBus's
    /// connection `connection`, nil when it sent none (another module, or IBus not read).
    public mutating func textViewCalled(rect: PixelRect, ibusConnection connection: Int = 0, ibusSerial: UInt32? = nil) {
        if let ibusSerial {
            pendingSerials.append((connection, ibusSerial))
            if pendingSerials.count > Self.remembered * 8 { pendingSerials.removeFirst(pendingSerials.count - Self.remembered * 8) }
        }
        if rect != given {
            sentIsCurrent = false
            recentGiven.append(rect)
            if recentGiven.count > Self.remembered { recentGiven.removeFirst(recentGiven.count - Self.remembered) }
        }
        given = rect
        othersSinceOurs = false
        calledByTextView = true
    }

    /// The module forwarded a key for its input context at `fcitxPath`. Sent while the text
    /// view had the focus, that context is the text view's (it is taken over any path
    /// learned from rectangles, which is a guess); sent while another widget had it, it
    /// says nothing about the text view's.
    public mutating func keySent(fcitxPath path: String, textViewHasFocus: Bool) {
        guard textViewHasFocus else { return }
        fcitxPath = path
    }

    /// Another widget's IM context was given a rectangle.
    public mutating func otherWidgetCalled() {
        othersSinceOurs = true
    }

    /// A message the module sent. `onScreen` maps a given rectangle to where the module
    /// should have sent it (X11: the root window); nil where that cannot be computed.
    /// Returns whether the message was taken as the text view's (a reading is then due).
    public mutating func received(_ message: Message, onScreen: (PixelRect) -> PixelRect?) -> Bool {
        // Where each remembered caret is on the screen, read once (each is an X round trip).
        let expected = recentGiven.map(onScreen)
        switch message.origin {
        case let .ibus(connection, serial):
            guard let index = pendingSerials.firstIndex(where: { $0.connection == connection && $0.serial == serial }) else {
                return false
            }
            let latest = index == pendingSerials.count - 1
            pendingSerials.remove(at: index)
            // An older call's message, arriving after a newer call: not this caret's.
            guard latest else { return false }
        case let .fcitx5(path):
            if let fcitxPath {
                guard path == fcitxPath else { return false }
            } else {
                // Only a message that can be nobody else's teaches the path: one right after
                // the text view's call, or one that is where a caret it gave is on the screen
                // (the inspector's own views call their contexts after nearly every event, so
                // the first kind may never come).
                let atOurCaret = expected.contains { $0 == message.rect }
                guard (calledByTextView && !othersSinceOurs) || atOurCaret else { return false }
                fcitxPath = path
            }
        }
        // Where an older rectangle is on the screen, not the newest: an older call's answer.
        if let newest = expected.last ?? nil, message.rect != newest,
           expected.dropLast().contains(where: { $0 == message.rect }) {
            return false
        }
        sent = message
        sentIsCurrent = true
        return true
    }
}
