extension JSONValue {
    /// Compact JSON (no spaces, no newline), one trace line's worth.
    ///
    /// Escapes what RFC 8259 requires, plus U+2028/U+2029: they are legal in JSON
    /// but JavaScript and many line-oriented tools treat them as line breaks, which
    /// would split a JSON Lines record. Escapes the invisible controls `InvisibleControls`
    /// marks too (DEL, C1, U+202E and the other bidi controls, zero-width characters, tag
    /// characters), as `\uXXXX` (a surrogate pair above U+FFFF): a trace read in a terminal
    /// or an editor is a keystroke log, and a U+202E typed or pasted into the input must
    /// not reorder the rest of its line there, nor a zero-width character hide in it.
    /// Parsing gives the same text back. Other non-ASCII text is written as raw UTF-8 so
    /// traces of Japanese or emoji input stay readable — emoji ZWJ sequences and the joiners
    /// of Persian or Indic words included, which the rule leaves alone.
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
        // The scalars as an array, made only for a joiner or tag character, whose neighbours
        // decide whether it is marked.
        var context: [Unicode.Scalar]?
        var offset = -1
        for scalar in string.unicodeScalars {
            offset += 1
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
            case _ where scalar.value < 0x7F: output.unicodeScalars.append(scalar)
            case _ where InvisibleControls.isControl(scalar):
                if InvisibleControls.dependsOnNeighbours(scalar) {
                    if context == nil { context = Array(string.unicodeScalars) }
                    guard InvisibleControls.isMarked(at: offset, in: context!) else {
                        output.unicodeScalars.append(scalar)
                        continue
                    }
                }
                writeEscaped(scalar, to: &output)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output.unicodeScalars.append("\"")
    }

    /// `\uXXXX`, or the UTF-16 surrogate pair's two escapes above U+FFFF.
    private static func writeEscaped(_ scalar: Unicode.Scalar, to output: inout String) {
        for unit in UTF16.encode(scalar)! { output += "\\u" + hex4(UInt32(unit)) }
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
