import ComposerCore
import GtkBinding

/// Plays a `TypingPeer` schedule on the GLib loop: one timeout for the next instant, the
/// indicator while the peer types, its replies in the message list.
@MainActor
final class TypingPeerDriver {
    private let peer: TypingPeer
    private let sources: SourceGroup
    private var startedAt = MainLoop.now
    private var source: UInt32?
    /// The next instant's events and when (on the peer's schedule) they are due.
    private var next: (at: Duration, events: [PeerEvent])?
    private let typing: (String?) -> Void
    private let message: (String, String) -> Void

    /// - Parameters:
    ///   - sources: the window's sources (the schedule stops with the window).
    ///   - typing: the indicator text while the peer types, nil when it stops.
    ///   - message: a reply and who sent it.
    init(peer: TypingPeer, sources: SourceGroup, typing: @escaping (String?) -> Void,
         message: @escaping (String, String) -> Void) {
        self.peer = peer
        self.sources = sources
        self.typing = typing
        self.message = message
        scheduleNext(after: .zero)
    }

    isolated deinit { sources.remove(source) }

    /// Plays the next instant now instead of at its time, and shifts the rest of the
    /// schedule by the time skipped: the same sequence, without waiting for the clock
    /// (tests; a demo that fast-forwards). Returns what was played.
    @discardableResult
    func playNextNow() -> [PeerEvent] {
        guard let next else { return [] }
        sources.remove(source)
        source = nil
        startedAt = MainLoop.now - next.at
        play(next)
        return next.events
    }

    private func scheduleNext(after time: Duration) {
        let events = peer.nextEvents(after: time)
        guard let at = events.first?.at else { next = nil; return }
        next = (at, events)
        let delay = max(0, (at - (MainLoop.now - startedAt)).milliseconds)
        source = sources.timeout(milliseconds: UInt32(delay)) { [weak self] in
            guard let self, let next else { return false }
            source = nil
            play(next)
            return false
        }
    }

    private func play(_ instant: (at: Duration, events: [PeerEvent])) {
        for event in instant.events {
            switch event.kind {
            case .typingStarted: typing(peer.indicator.text)
            case .typingStopped: typing(nil)
            case .message(let text): message(text, peer.person.display)
            }
        }
        scheduleNext(after: instant.at)
    }
}

extension Duration {
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
