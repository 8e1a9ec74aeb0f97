/// The rule for one JSON value in docs/trace-schema.json (see its "$comment").
struct TypeRule: Sendable {
    enum Kind: String, Sendable {
        case string, integer, boolean, array, object, null
    }

    indirect enum ArrayShape: Sendable {
        case any
        case items(TypeRule)
        case tuple([TypeRule])
    }

    var kind: Kind
    var allowedValues: [JSONValue]?
    var minimum: Int?
    var arrayShape: ArrayShape = .any
}

/// The fields an event (or an event variant) may carry.
struct FieldRules: Sendable {
    var required: [(name: String, rule: TypeRule)] = []
    var optional: [(name: String, rule: TypeRule)] = []

    func rule(named name: String) -> TypeRule? {
        (required + optional).first { $0.name == name }?.rule
    }
}

/// Extra fields chosen by the value of a discriminating field (e.g. surrounding.kind).
struct VariantRules: Sendable {
    var field: String
    var cases: [String: FieldRules]
}

struct EventRules: Sendable {
    var fields: FieldRules
    var variants: VariantRules?
}

/// Why docs/trace-schema.json could not be read as a schema.
public struct TraceSchemaError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { "invalid trace schema: \(message)" }
}

/// Reads the custom schema format into rules.
enum TraceSchemaReader {
    static func fieldRules(_ value: JSONValue?, context: String) throws(TraceSchemaError) -> FieldRules {
        guard let value else { return FieldRules() }
        guard value.objectMembers != nil else { throw TraceSchemaError(message: "\(context) must be an object") }
        return FieldRules(
            required: try namedRules(value["required"], context: "\(context).required"),
            optional: try namedRules(value["optional"], context: "\(context).optional"))
    }

    static func namedRules(_ value: JSONValue?, context: String) throws(TraceSchemaError) -> [(name: String, rule: TypeRule)] {
        guard let value else { return [] }
        guard let members = value.objectMembers else { throw TraceSchemaError(message: "\(context) must be an object") }
        var result: [(name: String, rule: TypeRule)] = []
        for (name, ruleValue) in members {
            result.append((name, try typeRule(ruleValue, context: "\(context).\(name)")))
        }
        return result
    }

    static func typeRule(_ value: JSONValue, context: String) throws(TraceSchemaError) -> TypeRule {
        guard let typeName = value["type"]?.stringValue, let kind = TypeRule.Kind(rawValue: typeName) else {
            throw TraceSchemaError(message: "\(context).type must be one of string, integer, boolean, array, object, null")
        }
        var rule = TypeRule(kind: kind)
        if let allowed = value["enum"] {
            guard let values = allowed.arrayValue else { throw TraceSchemaError(message: "\(context).enum must be an array") }
            rule.allowedValues = values
        }
        if let minimum = value["minimum"] {
            guard let number = minimum.intValue else { throw TraceSchemaError(message: "\(context).minimum must be an integer") }
            rule.minimum = number
        }
        if let items = value["items"] {
            rule.arrayShape = .items(try typeRule(items, context: "\(context).items"))
        } else if let tuple = value["tuple"] {
            guard let elements = tuple.arrayValue else { throw TraceSchemaError(message: "\(context).tuple must be an array") }
            var rules: [TypeRule] = []
            for (index, element) in elements.enumerated() {
                rules.append(try typeRule(element, context: "\(context).tuple[\(index)]"))
            }
            rule.arrayShape = .tuple(rules)
        }
        return rule
    }

    static func variantRules(_ value: JSONValue?, context: String) throws(TraceSchemaError) -> VariantRules? {
        guard let value else { return nil }
        guard let field = value["field"]?.stringValue, let cases = value["cases"]?.objectMembers else {
            throw TraceSchemaError(message: "\(context) needs a 'field' string and a 'cases' object")
        }
        var rules: [String: FieldRules] = [:]
        for (name, caseValue) in cases {
            rules[name] = try fieldRules(caseValue, context: "\(context).cases.\(name)")
        }
        return VariantRules(field: field, cases: rules)
    }
}
