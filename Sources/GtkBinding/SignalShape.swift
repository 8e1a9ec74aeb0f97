import CGtk

/// What a trampoline takes from a signal's C signature: the arguments between the instance
/// and the user data, and whether it returns a gboolean. GLib calls a handler with whatever
/// the signal's signature says, so a trampoline of another shape reads garbage as its user
/// data (and crashes later, far from the mistake); a mistyped signal name connects nothing
/// and leaks the closure. Every connection is checked against `g_signal_query` first.
public struct SignalShape: Equatable, Sendable, CustomStringConvertible {
    public let arguments: Int
    public let returnsBool: Bool

    public init(arguments: Int, returnsBool: Bool) {
        self.arguments = arguments
        self.returnsBool = returnsBool
    }

    public var description: String {
        "\(returnsBool ? "gboolean" : "void") (*)(instance, \(arguments) argument\(arguments == 1 ? "" : "s"), data)"
    }

    /// Why connecting a handler of this shape to `signal` (detail allowed: "notify::text")
    /// on `instance` would be wrong, or nil when it is right.
    public func problem(connecting signal: String, to instance: some GPointer) -> String? {
        let type = cgtk_type_of(instance.rawPointer)
        let typeName = String(cString: g_type_name(type))
        var id: guint = 0
        var detail: GQuark = 0
        guard g_signal_parse_name(signal, type, &id, &detail, 0) != 0 else {
            return "\(typeName) has no signal \"\(signal)\""
        }
        var query = GSignalQuery()
        g_signal_query(id, &query)
        // The return type may carry G_SIGNAL_TYPE_STATIC_SCOPE in its lowest bit.
        let returnType = query.return_type & ~GType(1)
        let boolType = GType(5 << G_TYPE_FUNDAMENTAL_SHIFT), noneType = GType(1 << G_TYPE_FUNDAMENTAL_SHIFT)
        guard Int(query.n_params) == arguments, returnType == (returnsBool ? boolType : noneType) else {
            let actual = SignalShape(arguments: Int(query.n_params), returnsBool: returnType == boolType)
            let returns = returnType == boolType || returnType == noneType ? "" : " (returns \(String(cString: g_type_name(returnType))))"
            return "\(typeName)::\(signal) is \(actual)\(returns), not \(self)"
        }
        return nil
    }

    /// Stops the program when the connection would be wrong: at the mistake, not later.
    func check(connecting signal: String, to instance: some GPointer) {
        if let problem = problem(connecting: signal, to: instance) {
            fatalError("GtkBinding: \(problem)")
        }
    }
}
