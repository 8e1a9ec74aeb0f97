/// Why a string is not JSON this module accepts.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// UTF-8 byte offset in the input where the problem was found.
    public let byteOffset: Int

    public var description: String { "invalid JSON at byte \(byteOffset): \(message)" }
}

extension JSONValue {
    /// Parses one JSON text, keeping object member order and duplicate keys.
    ///
    /// Hand-written rather than via JSONSerialization so the trace checker can see
    /// the key order of a raw line. Numbers must be integers that fit in `Int`.
    public static func parse(_ text: String) throws -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        return try parser.parseDocument()
    }
}

/// Recursive-descent parser over UTF-8 bytes (RFC 8259, integers only).
struct JSONParser {
    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0
    /// Deep enough for any trace line, shallow enough never to exhaust the stack.
    private static let maximumDepth = 256

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw failure("unexpected trailing characters") }
        return value
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard let byte = peek() else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .int(try parseInteger())
        default: throw failure("unexpected character")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        position += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { position += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw failure("expected ':'") }
            position += 1
            members.append((key, try parseValue()))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { position += 1; return .array(elements) }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        position += 1  // opening quote
        var utf8: [UInt8] = []
        while let byte = peek() {
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                let scalar = try parseEscape()
                utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
            case 0..<0x20:
                position -= 1
                throw failure("unescaped control character in string")
            default:
                utf8.append(byte)
            }
        }
        throw failure("unterminated string")
    }

    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        guard let byte = peek() else { throw failure("unterminated escape") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): return try parseUnicodeEscape()
        default: throw failure("unknown escape")
        }
    }

    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard peek() == UInt8(ascii: "\\"), peek(at: 1) == UInt8(ascii: "u") else {
                throw failure("high surrogate without a low surrogate")
            }
            position += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw failure("invalid low surrogate") }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            return Unicode.Scalar(value)!
        }
        guard let scalar = Unicode.Scalar(first) else { throw failure("lone low surrogate") }
        return scalar
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Self.hexDigitValue(byte) else {
                throw failure("expected four hex digits")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    private mutating func parseInteger() throws(JSONParseError) -> Int {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        let digitsStart = position
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        guard position > digitsStart else { throw failure("expected digits") }
        if bytes[digitsStart] == UInt8(ascii: "0"), position - digitsStart > 1 {
            throw failure("leading zeros are not allowed")
        }
        if let next = peek(), next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            throw failure("only integer numbers are supported")
        }
        let literal = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Int(literal) else { throw failure("integer out of range") }
        return value
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = literal.withUTF8Buffer { Array($0) }
        guard bytes.count - position >= expected.count,
              Array(bytes[position..<(position + expected.count)]) == expected
        else { throw failure("invalid literal") }
        position += expected.count
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nesting too deep") }
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private func peek(at offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    private func failure(_ message: String) -> JSONParseError {
        JSONParseError(message: message, byteOffset: position)
    }

    private static func hexDigitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
