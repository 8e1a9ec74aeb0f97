import CGtk

/// Anything that is a pointer to a GObject-family C struct.
///
/// GTK's C API expresses inheritance with casts (`GTK_WIDGET(x)`); Swift imports public
/// structs as `UnsafeMutablePointer<T>` and private ones as `OpaquePointer`. This protocol
/// lets one helper convert between all of them without sprinkling `unsafeBitCast`.
public protocol GPointer {
    var rawPointer: UnsafeMutableRawPointer { get }
}

extension UnsafeMutablePointer: GPointer {
    public var rawPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer: GPointer {
    public var rawPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension UnsafeMutableRawPointer: GPointer {
    public var rawPointer: UnsafeMutableRawPointer { self }
}

/// The same object seen as another C struct type (the `GTK_WIDGET()` family of casts).
@inline(__always)
public func cast<T>(_ pointer: some GPointer) -> UnsafeMutablePointer<T> {
    pointer.rawPointer.assumingMemoryBound(to: T.self)
}

/// The same object as an `OpaquePointer`, for types GTK keeps private (GtkLabel, GtkBox…).
@inline(__always)
public func opaque(_ pointer: some GPointer) -> OpaquePointer {
    OpaquePointer(pointer.rawPointer)
}

/// A Swift string from a C string GLib owns (not freed here).
public func string(fromBorrowed cString: UnsafePointer<CChar>?) -> String {
    guard let cString else { return "" }
    return String(cString: cString)
}

/// A Swift string from a C string we own and must `g_free`.
public func string(takingOwnership cString: UnsafeMutablePointer<CChar>?) -> String {
    guard let cString else { return "" }
    defer { g_free(cString) }
    return String(cString: cString)
}

/// The GType-checked "is a" test (`G_TYPE_CHECK_INSTANCE_TYPE`).
public func isInstance(_ pointer: some GPointer, of type: GType) -> Bool {
    cgtk_is_a(pointer.rawPointer, type) != 0
}

/// The runtime type name of a GObject instance, e.g. "GdkX11Display".
public func typeName(of pointer: some GPointer) -> String {
    string(fromBorrowed: cgtk_type_name_of(pointer.rawPointer))
}
