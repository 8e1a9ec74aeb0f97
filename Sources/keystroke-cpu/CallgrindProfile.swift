import Foundation

/// A callgrind output file (format version 1) read into functions and call edges with their
/// inclusive costs, for the first event (`Ir`, instructions executed).
///
/// GTK's libraries are stripped: their static functions (gtk_text_buffer_real_insert_text)
/// have no names, so costs are found through what has names — exported GTK functions, and
/// the edges where GLib or GTK calls into the composer's code (signal handlers, emission
/// hooks, idles).
struct CallgrindProfile {
    struct Function: Hashable {
        var object: String
        var name: String
    }

    struct Edge: Hashable {
        var caller: Function
        var callee: Function
    }

    /// Instructions collected in total (the `summary:` or `totals:` line).
    private(set) var total = 0
    /// Why the profile was written ("Client Request: keystroke 3", "Program termination").
    private(set) var trigger = ""
    private(set) var selfCost: [Function: Int] = [:]
    /// Inclusive cost of all calls from caller to callee.
    private(set) var edges: [Edge: Int] = [:]

    init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        var objects: [String: String] = [:]   // "(n)" → path
        var functions: [String: String] = [:] // "(n)" → name
        var object = ""
        var function: Function?
        var calleeObject: String?
        var callee: Function?
        var expectCallCost = false
        var positions = 1

        /// "(12) name" defines id 12; "(12)" refers back to it; no id: the text itself.
        func resolve(_ value: Substring, in table: inout [String: String]) -> String {
            guard value.first == "(", let close = value.firstIndex(of: ")") else { return String(value) }
            let id = String(value[...close])
            let rest = value[value.index(after: close)...].drop { $0 == " " }
            if !rest.isEmpty { table[id] = String(rest) }
            return table[id] ?? id
        }

        func firstEvent(_ line: Substring) -> Int {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > positions else { return 0 }
            return Int(fields[positions]) ?? 0
        }

        for rawLine in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            let line = Substring(decoding: rawLine, as: UTF8.self)
            guard let first = line.first else { continue }
            if first.isNumber || first == "+" || first == "-" || first == "*" {
                let cost = firstEvent(line)
                if expectCallCost {
                    expectCallCost = false
                    if let caller = function, let callee {
                        edges[Edge(caller: caller, callee: callee), default: 0] += cost
                    }
                    calleeObject = nil
                    callee = nil
                } else if let function {
                    selfCost[function, default: 0] += cost
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") ?? line.firstIndex(of: ":") else { continue }
            let key = line[..<equals]
            let value = line[line.index(after: equals)...].drop { $0 == " " }
            switch key {
            case "ob": object = resolve(value, in: &objects)
            case "fn": function = Function(object: object, name: resolve(value, in: &functions))
            case "cob": calleeObject = resolve(value, in: &objects)
            case "cfn": callee = Function(object: calleeObject ?? object, name: resolve(value, in: &functions))
            case "calls": expectCallCost = true
            case "desc" where value.hasPrefix("Trigger:"):
                trigger = value.dropFirst("Trigger:".count).trimmingCharacters(in: .whitespaces)
            case "positions": positions = value.split(separator: " ").count
            case "summary", "totals": total = max(total, Int(value.trimmingCharacters(in: .whitespaces)) ?? 0)
            default: break
            }
        }
    }

    /// The trigger line of a callgrind file, read from its header only.
    static func trigger(of url: URL) throws -> String? {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let head = String(decoding: try handle.read(upToCount: 4096) ?? Data(), as: UTF8.self)
        for line in head.split(separator: "\n") where line.hasPrefix("desc: Trigger:") {
            return line.dropFirst("desc: Trigger:".count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// Inclusive cost of the named function (in an object whose path contains `object`):
    /// the cost of every call into it, recursive calls aside.
    func inclusive(_ name: String, inObject object: String) -> Int? {
        var sum = 0
        var found = false
        for (edge, cost) in edges where edge.callee.name == name && edge.callee.object.contains(object)
            && edge.caller != edge.callee {
            sum += cost
            found = true
        }
        return found ? sum : nil
    }
}

/// Swift symbol names as people read them.
enum SwiftDemangler {
    @_silgen_name("swift_demangle")
    private static func swiftDemangle(_ mangled: UnsafePointer<CChar>?, _ length: UInt,
                                      _ output: UnsafeMutablePointer<CChar>?, _ outputSize: UnsafeMutablePointer<UInt>?,
                                      _ flags: UInt32) -> UnsafeMutablePointer<CChar>?

    static func demangle(_ name: String) -> String {
        guard name.hasPrefix("$s") || name.hasPrefix("_$s") else { return name }
        let result = name.withCString { swiftDemangle($0, UInt(strlen($0)), nil, nil, 0) }
        guard let result else { return name }
        defer { free(result) }
        return String(cString: result)
    }
}
