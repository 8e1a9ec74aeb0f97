extension JSONValue {
    /// Compact JSON (no spaces, no newline), one trace line's worth.
    ///
    /// Escapes what RFC 8259 requires, plus U+2028/U+2029: they are legal in JSON
    /// but JavaScript and many line-oriented tools treat them as line breaks, which
    /// would split a JSON Lines record. Other non-ASCII text is written as raw UTF-8
    /// so traces of Japanese or emoji input stay readable.
    public func serialized() -> String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case let .bool(value): output += value ? "true" : "false"
        case let .int(value): output += String(value)
        case let .string(value): Self.writeString(value, to: &output)
        case let .array(elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case let .object(members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ string: String, to output: inout String) {
        output.unicodeScalars.append("\"")
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{8}": output += "\\b"
            case "\u{C}": output += "\\f"
            case "\u{2028}": output += "\\u2028"
            case "\u{2029}": output += "\\u2029"
            case _ where scalar.value < 0x20: output += "\\u" + hex4(scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output.unicodeScalars.append("\"")
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
