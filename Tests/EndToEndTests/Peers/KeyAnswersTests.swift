import Foundation
import TestHarness
import Testing

/// `KeyAnswers` reads dbus-monitor's output of the input method's bus: the key calls of an
/// app's input context, whether each is a press or a release, and whether each was
/// answered. The samples are real output (IBus 1.5.27's eavesdropped bus, Fcitx5 5.0.21's
/// session bus), cut down.
struct KeyAnswersTests {
    static let ibus = """
        method call time=1795909499.457848 sender=:1.11 -> destination=org.freedesktop.IBus serial=100 path=/org/freedesktop/IBus/InputContext_3; interface=org.freedesktop.IBus.InputContext; member=ProcessKeyEvent
           uint32 117
           uint32 22
           uint32 0
        method call time=1795909499.457851 sender=org.freedesktop.DBus -> destination=(null destination) serial=37 path=/org/freedesktop/IBus/Engine/1; interface=org.freedesktop.IBus.Engine; member=ProcessKeyEvent
           uint32 117
           uint32 22
           uint32 0
        method call time=1795909499.457878 sender=:1.11 -> destination=org.freedesktop.IBus serial=101 path=/org/freedesktop/IBus/InputContext_3; interface=org.freedesktop.IBus.InputContext; member=ProcessKeyEvent
           uint32 117
           uint32 22
           uint32 1073741824
        method return time=1795909499.470622 sender=:1.9 -> destination=org.freedesktop.DBus serial=120 reply_serial=37
           boolean true
        method return time=1795909499.471041 sender=org.freedesktop.DBus -> destination=:1.11 serial=87 reply_serial=100
           boolean true
        """

    @Test func anIBusKeyIsAPressAndAReleaseEachAnsweredByTheDaemon() {
        let interface = "org.freedesktop.IBus.InputContext"
        // The release (serial 101) is not answered yet; the daemon's own call to the engine
        // is not the app's.
        var calls = KeyAnswers.calls(in: Self.ibus, interface: interface)
        #expect(calls == KeyAnswers.Calls(count: 2, presses: 1, unanswered: [1], releasedKeyvals: [117]))
        let answered = Self.ibus + "\nmethod return time=1795909499.471047 sender=org.freedesktop.DBus -> destination=:1.11 serial=88 reply_serial=101\n   boolean false\n"
        calls = KeyAnswers.calls(in: answered, interface: interface)
        #expect(calls.unanswered.isEmpty && calls.releasedKeyvals == [117])
        // From a mark on: the calls before it are not counted.
        #expect(KeyAnswers.calls(in: answered, interface: interface, from: 1) == KeyAnswers.Calls(count: 1, presses: 0, unanswered: [], releasedKeyvals: [117]))
        #expect(KeyAnswers.calls(in: answered, interface: interface, from: 2) == KeyAnswers.Calls())
    }

    @Test func aFcitxBatchSaysItsReleaseInABoolean() {
        let output = """
            method call time=1795908250.1 sender=:1.12 -> destination=:1.2 serial=68 path=/org/freedesktop/portal/inputcontext/1; interface=org.fcitx.Fcitx.InputContext1; member=ProcessKeyEventBatch
               uint32 103
               uint32 42
               uint32 0
               boolean false
               uint32 12345
            method call time=1795908250.2 sender=:1.12 -> destination=:1.2 serial=69 path=/org/freedesktop/portal/inputcontext/1; interface=org.fcitx.Fcitx.InputContext1; member=SetCursorRect
               int32 1
            method return time=1795908250.3 sender=:1.2 -> destination=:1.12 serial=65 reply_serial=68
               array [
               ]
               boolean true
            method call time=1795908250.4 sender=:1.12 -> destination=:1.2 serial=70 path=/org/freedesktop/portal/inputcontext/1; interface=org.fcitx.Fcitx.InputContext1; member=ProcessKeyEventBatch
               uint32 103
               uint32 42
               uint32 0
               boolean true
               uint32 12346
            """
        let calls = KeyAnswers.calls(in: output, interface: "org.fcitx.Fcitx.InputContext1")
        #expect(calls == KeyAnswers.Calls(count: 2, presses: 1, unanswered: [1], releasedKeyvals: [103]))
    }

    @Test func theKeysTheLabTypesHaveTheirKeysyms() {
        #expect(KeyAnswers.keyval("g") == 0x67 && KeyAnswers.keyval("9") == 0x39)
        #expect(KeyAnswers.keyval("End") == 0xff57 && KeyAnswers.keyval("Return") == 0xff0d && KeyAnswers.keyval("space") == 0x20)
        #expect(KeyAnswers.keyval("ctrl+End") == nil && KeyAnswers.keyval("Hangul") == nil)
    }
}
