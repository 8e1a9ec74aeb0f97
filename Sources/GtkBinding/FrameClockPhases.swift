import CGtk

/// Handlers on the phases of a widget's frame clock ("before-paint", "layout", …), connected
/// while the widget is realized: the frame clock exists only then, and GDK may keep it
/// beyond the widget, so the handlers are disconnected on unrealize.
///
/// Why phases and not a tick callback: a phase handler runs only in frames that happen
/// anyway; a tick callback asks for a frame every refresh and keeps the process awake.
@MainActor
public final class FrameClockPhases {
    private var connected: (clock: OpaquePointer, ids: [gulong])?
    private let phases: [(signal: String, body: () -> Void)]

    /// - Parameter phases: frame clock signals (`void (*)(GdkFrameClock *, gpointer)`) and
    ///   their handlers, connected after GDK's own.
    public init(of widget: UnsafeMutablePointer<GtkWidget>, _ phases: [(signal: String, body: () -> Void)]) {
        self.phases = phases
        onSignal(widget, "realize", after: true) { [weak self] in self?.connect(widget) }
        onSignal(widget, "unrealize") { [weak self] in self?.disconnect() }
        if gtk_widget_get_realized(widget) != 0 { connect(widget) }
    }

    isolated deinit { disconnect() }

    private func connect(_ widget: UnsafeMutablePointer<GtkWidget>) {
        guard connected == nil, let clock = gtk_widget_get_frame_clock(widget) else { return }
        g_object_ref(clock.rawPointer)  // held while connected: disconnecting needs it alive
        connected = (clock, phases.map { onSignal(clock, $0.signal, after: true, $0.body) })
    }

    private func disconnect() {
        guard let connected else { return }
        for id in connected.ids { g_signal_handler_disconnect(connected.clock.rawPointer, id) }
        g_object_unref(connected.clock.rawPointer)
        self.connected = nil
    }
}
