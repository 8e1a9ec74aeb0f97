import CGtk

/// The parameters of one signal emission as GLib passes them to an emission hook:
/// index 0 is the instance, then the signal's own arguments.
public struct EmissionParameters {
    let values: UnsafePointer<GValue>
    public let count: Int

    public func int(_ index: Int) -> Int32 { g_value_get_int(values + index) }
    public func string(_ index: Int) -> String { GtkBinding.string(fromBorrowed: g_value_get_string(values + index)) }
    public func object(_ index: Int) -> UnsafeMutableRawPointer? { g_value_get_object(values + index) }
}

/// Observes every emission of `signal` on `instance`, before any handler runs.
///
/// Why not a handler: GtkTextView's own handlers for the IM context's retrieve-surrounding
/// and delete-surrounding return TRUE, which stops the emission, so a handler connected
/// after them never runs. Emission hooks run for every emission regardless. They are
/// per signal (not per instance), so this filters by instance, and removes the hook when
/// the instance is finalized.
public func observeEmissions(
    of signal: String, definedOn type: GType, instance: some GPointer,
    _ body: @escaping (EmissionParameters) -> Void
) {
    let signalID = g_signal_lookup(signal, type)
    precondition(signalID != 0, "no signal \(signal) on \(string(fromBorrowed: g_type_name(type)))")
    noteMainThread()
    let target = instance.rawPointer
    typealias Body = (EmissionParameters) -> Void
    let filtered: Body = { params in
        guard params.count > 0, params.object(0) == target else { return }
        body(params)
    }
    let box = ClosureBox(filtered)
    let hook: GSignalEmissionHook = { _, count, values, data in
        guard let values else { return 1 }
        onMainActor { ClosureBox<Body>.from(data).body(EmissionParameters(values: values, count: Int(count))) }
        return 1  // keep the hook installed
    }
    let hookID = g_signal_add_emission_hook(signalID, 0, hook, box.retainedPointer(),
                                            ClosureBox<Body>.releaseOnDestroy)
    onFinalize(instance) { g_signal_remove_emission_hook(signalID, hookID) }
}
