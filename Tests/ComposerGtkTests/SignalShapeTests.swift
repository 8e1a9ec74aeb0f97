import CGtk
import GtkBinding
import Foundation
import Testing

extension GtkWindowSuites {
    /// Every connection is checked against the signal's C signature (`g_signal_query`): a
    /// trampoline of the wrong shape, or a mistyped name, stops the program at the mistake.
    /// (Every window test connects the composer's real handlers through the same check.)
    @MainActor
    @Suite(.serialized)
    struct SignalShapeTests {
        static let none0 = SignalShape(arguments: 0, returnsBool: false)

        @Test func theRightShapeHasNoProblem() throws {
            try GtkFixture.start()
            let button = g_object_ref_sink(gtk_button_new())!
            let window = gtk_window_new()!
            let buffer = gtk_text_buffer_new(nil)!
            defer {
                g_object_unref(button)
                gtk_window_destroy(cast(window))
                g_object_unref(buffer.rawPointer)
            }
            #expect(Self.none0.problem(connecting: "clicked", to: button) == nil)
            #expect(SignalShape(arguments: 0, returnsBool: true).problem(connecting: "close-request", to: window) == nil)
            #expect(SignalShape(arguments: 3, returnsBool: false).problem(connecting: "insert-text", to: buffer) == nil)
            #expect(SignalShape(arguments: 1, returnsBool: false).problem(connecting: "notify::visible", to: button) == nil)
        }

        @Test func aWrongShapeOrNameIsNamed() throws {
            try GtkFixture.start()
            let button = g_object_ref_sink(gtk_button_new())!
            let buffer = gtk_text_buffer_new(nil)!
            defer {
                g_object_unref(button)
                g_object_unref(buffer.rawPointer)
            }
            #expect(SignalShape(arguments: 0, returnsBool: true).problem(connecting: "clicked", to: button)
                    == "GtkButton::clicked is void (*)(instance, 0 arguments, data), not gboolean (*)(instance, 0 arguments, data)")
            #expect(SignalShape(arguments: 2, returnsBool: false).problem(connecting: "insert-text", to: buffer)
                    == "GtkTextBuffer::insert-text is void (*)(instance, 3 arguments, data), not void (*)(instance, 2 arguments, data)")
            #expect(Self.none0.problem(connecting: "paste-done", to: buffer)
                    == "GtkTextBuffer::paste-done is void (*)(instance, 1 argument, data), not void (*)(instance, 0 arguments, data)",
                    "paste-done passes the clipboard")
            #expect(Self.none0.problem(connecting: "clickd", to: button) == "GtkButton has no signal \"clickd\"")
        }

        /// A mistyped name stops the program instead of connecting nothing.
        @Test func connectingAnUnknownSignalStopsTheProgram() async {
            await #expect(processExitsWith: .failure) {
                let buffer = gtk_text_buffer_new(nil)!
                onSignal(buffer, "chanegd") {}
            }
        }

        /// A handler reached from a thread other than the main thread stops the program
        /// (the trampolines assert main-actor isolation) instead of touching GTK there.
        @Test func aHandlerReachedFromAnotherThreadStopsTheProgram() async {
            await #expect(processExitsWith: .failure) {
                let buffer = gtk_text_buffer_new(nil)!
                onSignal(buffer, "changed") {}
                var thread = pthread_t()
                let started = pthread_create(&thread, nil, { argument in
                    // Emits "changed" on this thread.
                    gtk_text_buffer_set_text(argument?.assumingMemoryBound(to: GtkTextBuffer.self), "x", -1)
                    return nil
                }, UnsafeMutableRawPointer(buffer))
                guard started == 0 else { return }
                pthread_join(thread, nil)
            }
        }
    }
}
