@testable import ComposerCore
import Testing

/// Which rectangles an IM module sent answer the text view's caret (`PlacementPairing`):
/// the orders of calls and messages the inspector met with IBus and Fcitx5.
struct PlacementPairingTests {
    /// The window's origin on the screen: what a module should send for a given rectangle.
    static func onScreen(_ rect: PixelRect) -> PixelRect? {
        PixelRect(x: rect.x + 100, y: rect.y + 500, width: rect.width, height: rect.height)
    }

    static let caretA = PixelRect(x: 8, y: 6, width: 0, height: 19)
    static let caretB = PixelRect(x: 20, y: 6, width: 0, height: 19)

    static func ibus(_ serial: UInt32, _ rect: PixelRect, connection: Int = 1) -> PlacementPairing.Message {
        .init(via: "ibus SetCursorLocation", rect: rect, origin: .ibus(connection: connection, serial: serial))
    }

    static func fcitx(_ path: String, _ rect: PixelRect) -> PlacementPairing.Message {
        .init(via: "fcitx5 SetCursorRect", rect: rect, origin: .fcitx5(path: path))
    }

    @Test func anIBusMessageIsTheTextViewsOnlyByTheSerialItsCallSent() {
        var pairing = PlacementPairing()
        #expect(pairing.current == nil)
        // Another widget's call sent serial 7; the text view's sent 8.
        pairing.otherWidgetCalled()
        pairing.textViewCalled(rect: Self.caretA, ibusConnection: 1, ibusSerial: 8)
        do { let taken = pairing.received(Self.ibus(7, PixelRect(x: 600, y: 40, width: 0, height: 17)), onScreen: Self.onScreen); #expect(!taken) }
        #expect(pairing.current == nil)
        // The same serial on another connection (after ibus-daemon restarted) is not it.
        do { let taken = pairing.received(Self.ibus(8, Self.onScreen(Self.caretA)!, connection: 2), onScreen: Self.onScreen); #expect(!taken) }
        do { let taken = pairing.received(Self.ibus(8, Self.onScreen(Self.caretA)!), onScreen: Self.onScreen); #expect(taken) }
        #expect(pairing.current?.rect == Self.onScreen(Self.caretA))
        #expect(pairing.given == Self.caretA)
    }

    @Test func anOlderCallsIBusMessageArrivingAfterANewerCallIsLeftOut() {
        var pairing = PlacementPairing()
        pairing.textViewCalled(rect: Self.caretA, ibusConnection: 1, ibusSerial: 3)
        pairing.textViewCalled(rect: Self.caretB, ibusConnection: 1, ibusSerial: 4)
        do { let taken = pairing.received(Self.ibus(3, Self.onScreen(Self.caretA)!), onScreen: Self.onScreen); #expect(!taken) }
        #expect(pairing.current == nil, "the latest caret has no answer yet")
        do { let taken = pairing.received(Self.ibus(4, Self.onScreen(Self.caretB)!), onScreen: Self.onScreen); #expect(taken) }
        #expect(pairing.current?.rect == Self.onScreen(Self.caretB))
        // The caret moves again: the answer before is not this one's.
        pairing.textViewCalled(rect: Self.caretA, ibusConnection: 1, ibusSerial: 5)
        #expect(pairing.current == nil)
        // The same rectangle again (a focus, a redraw): the answer stands.
        pairing.textViewCalled(rect: Self.caretA, ibusConnection: 1, ibusSerial: nil)
        do { let taken = pairing.received(Self.ibus(5, Self.onScreen(Self.caretA)!), onScreen: Self.onScreen); #expect(taken) }
        pairing.textViewCalled(rect: Self.caretA, ibusConnection: 1, ibusSerial: nil)
        #expect(pairing.current?.rect == Self.onScreen(Self.caretA))
    }

    @Test func aWrongRectangleIsStillTheAnswerWhenItIsNotAnOlderCaretsPlace() {
        // IBus 1.5.27 sends its own arithmetic (ibus/ibus#2522): it must be read, not dropped.
        var pairing = PlacementPairing()
        pairing.textViewCalled(rect: Self.caretA, ibusConnection: 1, ibusSerial: 2)
        let wrong = PixelRect(x: 8, y: 38, width: 50, height: 600)
        do { let taken = pairing.received(Self.ibus(2, wrong), onScreen: Self.onScreen); #expect(taken) }
        #expect(pairing.current?.rect == wrong)
    }

    @Test func theFcitx5PathIsLearnedOnlyFromAMessageNobodyElseCouldHaveSent() {
        var pairing = PlacementPairing()
        // Before any call of the text view's: whose is it? Not taken, not learned.
        do { let taken = pairing.received(Self.fcitx("/ic/9", PixelRect(x: 700, y: 30, width: 0, height: 17)), onScreen: Self.onScreen); #expect(!taken) }
        #expect(pairing.fcitxPath == nil)
        // The text view called, then the inspector's entry: the next message could be either's.
        pairing.textViewCalled(rect: Self.caretA)
        pairing.otherWidgetCalled()
        do { let taken = pairing.received(Self.fcitx("/ic/9", PixelRect(x: 700, y: 30, width: 0, height: 17)), onScreen: Self.onScreen); #expect(!taken) }
        #expect(pairing.fcitxPath == nil)
        // The text view's call with nobody else's after it: its message teaches the path.
        pairing.textViewCalled(rect: Self.caretB)
        do { let taken = pairing.received(Self.fcitx("/ic/3", Self.onScreen(Self.caretB)!), onScreen: Self.onScreen); #expect(taken) }
        #expect(pairing.fcitxPath == "/ic/3")
        // From then on, another path is another widget's, whatever the order.
        pairing.otherWidgetCalled()
        do { let taken = pairing.received(Self.fcitx("/ic/9", PixelRect(x: 700, y: 30, width: 0, height: 17)), onScreen: Self.onScreen); #expect(!taken) }
        #expect(pairing.current?.rect == Self.onScreen(Self.caretB))
    }

    /// The final CI of this session: the inspector's views called their contexts after each
    /// of the text view's calls, so no message ever followed one of ours alone.
    @Test func theFcitx5PathIsAlsoLearnedFromAMessageAtTheTextViewsCaret() {
        var pairing = PlacementPairing()
        pairing.textViewCalled(rect: Self.caretA)
        pairing.otherWidgetCalled()
        do { let taken = pairing.received(Self.fcitx("/ic/9", PixelRect(x: 700, y: 30, width: 0, height: 17)), onScreen: Self.onScreen); #expect(!taken) }
        do { let taken = pairing.received(Self.fcitx("/ic/3", Self.onScreen(Self.caretA)!), onScreen: Self.onScreen); #expect(taken) }
        #expect(pairing.fcitxPath == "/ic/3")
        #expect(pairing.current?.rect == Self.onScreen(Self.caretA))
    }

    /// Run under load: GTK told the module the caret only once typing stopped, at a
    /// rectangle no message followed alone and the module had sent before the watch began;
    /// the keys typed were forwarded on the text view's own context all along.
    @Test func aKeyForwardedWhileTheTextViewHasTheFocusTeachesItsFcitx5Path() {
        var pairing = PlacementPairing()
        // A key sent while the inspector's entry had the focus is that entry's.
        pairing.keySent(fcitxPath: "/ic/7", textViewHasFocus: false)
        #expect(pairing.fcitxPath == nil)
        pairing.keySent(fcitxPath: "/ic/1", textViewHasFocus: true)
        #expect(pairing.fcitxPath == "/ic/1")
        pairing.textViewCalled(rect: Self.caretA)
        pairing.otherWidgetCalled()
        // A few pixels off where caret A is now (the input moved after the module sent),
        // after another widget's call: still the text view's, by its path.
        var moved = Self.onScreen(Self.caretA)!
        moved.y -= 3
        do { let taken = pairing.received(Self.fcitx("/ic/1", moved), onScreen: Self.onScreen); #expect(taken) }
        do { let taken = pairing.received(Self.fcitx("/ic/4", Self.onScreen(Self.caretA)!), onScreen: Self.onScreen); #expect(!taken) }
        #expect(pairing.current?.rect == moved)
        // A key says more than a guess from rectangles: a path learned wrongly is replaced.
        var guessed = PlacementPairing()
        guessed.textViewCalled(rect: Self.caretB)
        do { let taken = guessed.received(Self.fcitx("/ic/9", Self.onScreen(Self.caretB)!), onScreen: Self.onScreen); #expect(taken) }
        guessed.keySent(fcitxPath: "/ic/1", textViewHasFocus: true)
        #expect(guessed.fcitxPath == "/ic/1")
    }

    @Test func aFcitx5MessageWhereAnOlderCaretIsOnTheScreenIsThatCaretsAnswer() {
        var pairing = PlacementPairing(fcitxPath: "/ic/3")
        pairing.textViewCalled(rect: Self.caretA)
        pairing.textViewCalled(rect: Self.caretB)
        do { let taken = pairing.received(Self.fcitx("/ic/3", Self.onScreen(Self.caretA)!), onScreen: Self.onScreen); #expect(!taken) }
        #expect(pairing.current == nil)
        do { let taken = pairing.received(Self.fcitx("/ic/3", Self.onScreen(Self.caretB)!), onScreen: Self.onScreen); #expect(taken) }
        // Off screen (Wayland, a hidden window): nothing to compare, the message is taken.
        pairing.textViewCalled(rect: Self.caretA)
        do { let taken = pairing.received(Self.fcitx("/ic/3", Self.onScreen(Self.caretB)!), onScreen: { _ in nil }); #expect(taken) }
        #expect(pairing.current?.rect == Self.onScreen(Self.caretB))
    }

    @Test func onlyTheLastFewCallsAreRemembered() {
        var pairing = PlacementPairing()
        for step in 0..<50 {
            pairing.textViewCalled(rect: PixelRect(x: step, y: 0, width: 0, height: 10), ibusConnection: 1, ibusSerial: UInt32(step))
        }
        #expect(pairing.recentGiven.count == PlacementPairing.remembered)
        #expect(pairing.recentGiven.last == PixelRect(x: 49, y: 0, width: 0, height: 10))
        do { let taken = pairing.received(Self.ibus(49, PixelRect(x: 149, y: 500, width: 0, height: 10)), onScreen: Self.onScreen); #expect(taken) }
    }
}
