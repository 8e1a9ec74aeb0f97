import Foundation

/// Checks trace lines against docs/trace-schema.json.
///
/// End-to-end tests read the trace of a real GTK session; validating every line
/// catches a drifting writer (renamed field, wrong type, reordered keys) at once
/// instead of as a confusing assertion failure later.
public struct TraceSchema: Sendable {
    public let version: Int
    private let keyOrder: [String]
    private let commonFields: FieldRules
    private let events: [String: EventRules]

    public init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        try self.init(json: String(decoding: data, as: UTF8.self))
    }

    public init(json: String) throws {
        let root: JSONValue
        do {
            root = try JSONValue.parse(json)
        } catch {
            throw TraceSchemaError(message: "\(error)")
        }
        guard let version = root["version"]?.intValue else {
            throw TraceSchemaError(message: "'version' must be an integer")
        }
        guard let eventMembers = root["events"]?.objectMembers else {
            throw TraceSchemaError(message: "'events' must be an object")
        }
        self.version = version
        keyOrder = root["common"]?["order"]?.arrayValue?.compactMap(\.stringValue) ?? []
        commonFields = try TraceSchemaReader.fieldRules(root["common"], context: "common")
        var events: [String: EventRules] = [:]
        for (name, value) in eventMembers {
            let context = "events.\(name)"
            events[name] = EventRules(
                fields: try TraceSchemaReader.fieldRules(value, context: context),
                variants: try TraceSchemaReader.variantRules(value["variants"], context: "\(context).variants"))
        }
        self.events = events
    }

    /// Event names the schema knows, sorted.
    public var eventNames: [String] { events.keys.sorted() }

    /// Problems with one raw trace line; empty means valid. Key order is checked
    /// on the line as written (the parser keeps order).
    public func validate(_ line: String) -> [String] {
        do {
            return validate(try JSONValue.parse(line))
        } catch {
            return ["not a JSON line: \(error)"]
        }
    }

    /// Problems with one parsed trace event; empty means valid.
    public func validate(_ value: JSONValue) -> [String] {
        guard let members = value.objectMembers else { return ["a trace line must be a JSON object"] }
        var problems = orderProblems(members) + duplicateKeyProblems(members)
        problems += check(members, against: commonFields, event: nil)

        guard let name = value["ev"]?.stringValue else { return problems }
        guard let rules = events[name] else { return problems + ["unknown event \"\(name)\""] }

        var allowed = commonFields
        allowed.required += rules.fields.required
        allowed.optional += rules.fields.optional
        if let variants = rules.variants, let selector = value[variants.field]?.stringValue {
            if let extra = variants.cases[selector] {
                allowed.required += extra.required
                allowed.optional += extra.optional
            } else {
                problems.append("event \"\(name)\": no variant for \(variants.field) \"\(selector)\"")
            }
        }
        problems += check(members, against: allowed, event: name).filter { !problems.contains($0) }
        return problems
    }

    private func orderProblems(_ members: [(String, JSONValue)]) -> [String] {
        var problems: [String] = []
        for (position, key) in keyOrder.enumerated() {
            if position >= members.count || members[position].0 != key {
                problems.append("key \"\(key)\" must be at position \(position + 1)")
            }
        }
        return problems
    }

    private func duplicateKeyProblems(_ members: [(String, JSONValue)]) -> [String] {
        var seen = Set<String>()
        return members.compactMap { key, _ in
            seen.insert(key).inserted ? nil : "duplicate field \"\(key)\""
        }
    }

    /// Missing required fields, unknown fields, and type errors. With `event` nil
    /// only the common fields are checked and unknown fields are not reported yet.
    private func check(_ members: [(String, JSONValue)], against rules: FieldRules, event: String?) -> [String] {
        let prefix = event.map { "event \"\($0)\": " } ?? ""
        var problems: [String] = []
        for (name, _) in rules.required where !members.contains(where: { $0.0 == name }) {
            problems.append("\(prefix)missing required field \"\(name)\"")
        }
        for (name, value) in members {
            guard let rule = rules.rule(named: name) else {
                if event != nil { problems.append("\(prefix)unknown field \"\(name)\"") }
                continue
            }
            problems += TypeRuleChecker.problems(value, rule: rule, path: name).map { prefix + $0 }
        }
        return problems
    }
}

/// Checks one value against a `TypeRule`, naming the path of every problem.
enum TypeRuleChecker {
    static func problems(_ value: JSONValue, rule: TypeRule, path: String) -> [String] {
        guard kind(of: value) == rule.kind else {
            return ["field \"\(path)\": expected \(rule.kind.rawValue), got \(kind(of: value).rawValue)"]
        }
        var problems: [String] = []
        if let allowed = rule.allowedValues, !allowed.contains(value) {
            problems.append("field \"\(path)\": \(value.serialized()) is not one of \(JSONValue.array(allowed).serialized())")
        }
        if let minimum = rule.minimum, let number = value.intValue, number < minimum {
            problems.append("field \"\(path)\": \(number) is below the minimum \(minimum)")
        }
        if let elements = value.arrayValue {
            switch rule.arrayShape {
            case .any:
                break
            case let .items(itemRule):
                for (index, element) in elements.enumerated() {
                    problems += Self.problems(element, rule: itemRule, path: "\(path)[\(index)]")
                }
            case let .tuple(elementRules):
                if elements.count != elementRules.count {
                    problems.append("field \"\(path)\": expected \(elementRules.count) elements, got \(elements.count)")
                } else {
                    for (index, (element, elementRule)) in zip(elements, elementRules).enumerated() {
                        problems += Self.problems(element, rule: elementRule, path: "\(path)[\(index)]")
                    }
                }
            }
        }
        return problems
    }

    private static func kind(of value: JSONValue) -> TypeRule.Kind {
        switch value {
        case .null: return .null
        case .bool: return .boolean
        case .int: return .integer
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }
}
