import ComposerCore
import GtkBinding

/// Plays a `TypingPeer` schedule on the GLib loop: one timeout for the next instant, the
/// indicator while the peer types, its replies in the message list.
final class TypingPeerDriver {
    private let peer: TypingPeer
    private let startedAt = MainLoop.now
    private var source: UInt32?
    private let typing: (String?) -> Void
    private let message: (String, String) -> Void

    /// - Parameters:
    ///   - typing: the indicator text while the peer types, nil when it stops.
    ///   - message: a reply and who sent it.
    init(peer: TypingPeer, typing: @escaping (String?) -> Void, message: @escaping (String, String) -> Void) {
        self.peer = peer
        self.typing = typing
        self.message = message
        scheduleNext(after: .zero)
    }

    deinit { if let source { MainLoop.removeSource(source) } }

    private func scheduleNext(after time: Duration) {
        let events = peer.nextEvents(after: time)
        guard let at = events.first?.at else { return }
        let delay = max(0, (at - (MainLoop.now - startedAt)).milliseconds)
        source = MainLoop.timeout(milliseconds: UInt32(delay)) { [weak self] in
            guard let self else { return false }
            source = nil
            for event in events { play(event) }
            scheduleNext(after: at)
            return false
        }
    }

    private func play(_ event: PeerEvent) {
        switch event.kind {
        case .typingStarted: typing(peer.indicatorText)
        case .typingStopped: typing(nil)
        case .message(let text): message(text, peer.person.display)
        }
    }
}

extension Duration {
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
