/// A small JSON value with ordered object keys.
///
/// The trace format promises key order ("ev" first, "t" second) so that lines are
/// easy to read and grep; Foundation's JSON types cannot keep order, hence this type.
/// Numbers are integers only: trace v1 has no fractional values.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    /// Members in order. Duplicate keys are representable (the parser keeps them
    /// so the schema checker can report them).
    case object([(String, JSONValue)])

    /// Order-sensitive equality: two objects with the same members in a different
    /// order are different trace lines. Strings compare scalar-exactly.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.string(a), .string(b)): return isScalarIdentical(a, b)
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count
                && zip(a, b).allSatisfy { isScalarIdentical($0.0, $1.0) && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The first member named `key`, if this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { isScalarIdentical($0.0, key) }?.1
    }

    public var stringValue: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    public var intValue: Int? {
        if case let .int(value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case let .bool(value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case let .array(value) = self { return value }
        return nil
    }

    /// The members in order, if this is an object.
    public var objectMembers: [(String, JSONValue)]? {
        if case let .object(value) = self { return value }
        return nil
    }
}
