import ComposerCore
import PropertyBased
import Testing

@Suite("JSONValue: serialisation and parsing")
struct JSONValueTests {
    @Test func escapesWhatMustBeEscaped() {
        let value = JSONValue.string("q\" b\\ n\n r\r t\t b\u{8} f\u{C} nul\u{0} esc\u{1B} us\u{1F}")
        #expect(value.serialized() == #""q\" b\\ n\n r\r t\t b\b f\f nul\u0000 esc\u001b us\u001f""#)
    }

    @Test func escapesLineAndParagraphSeparators() {
        #expect(JSONValue.string("a\u{2028}b\u{2029}c").serialized() == #""a\u2028b\u2029c""#)
    }

    /// A trace read in a terminal must not be reordered by a U+202E in it, nor hide a
    /// zero-width character: the controls `InvisibleControls` marks are escaped.
    @Test func escapesInvisibleControls() {
        #expect(JSONValue.string("a\u{202E}b\u{2066}c\u{61C}").serialized() == #""a\u202eb\u2066c\u061c""#)
        #expect(JSONValue.string("ta\u{200B}naka\u{FEFF}").serialized() == #""ta\u200bnaka\ufeff""#)
        #expect(JSONValue.string("del\u{7F} csi\u{9B} shy\u{AD}").serialized() == #""del\u007f csi\u009b shy\u00ad""#)
        #expect(JSONValue.string("\u{E0041}\u{E0042}").serialized() == #""\udb40\udc41\udb40\udc42""#,
                "tag characters as surrogate pairs")
        #expect(JSONValue.string("a\u{200D}b").serialized() == #""a\u200db""#, "a joiner joining nothing")
    }

    @Test func leavesJoinersThatSpellSomethingRaw() {
        for text in ["👩\u{200D}💻", "می\u{200C}خواهم", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"] {
            #expect(JSONValue.string(text).serialized() == "\"\(text)\"")
        }
    }

    @Test func writesNonASCIIRaw() {
        #expect(JSONValue.string("子猫👨‍👩‍👧é/").serialized() == "\"子猫👨‍👩‍👧é/\"")
        #expect(JSONValue.string("e\u{301}").serialized().unicodeScalars.count == 4)  // not normalised
    }

    @Test func serialisesCompactlyInKeyOrder() {
        let value = JSONValue.object([
            ("z", .int(-3)), ("a", .array([.bool(true), .null, .bool(false)])), ("m", .object([])),
        ])
        #expect(value.serialized() == #"{"z":-3,"a":[true,null,false],"m":{}}"#)
    }

    @Test func parsesWithOrderEscapesAndSurrogates() throws {
        let value = try JSONValue.parse(#" { "b" : [1, -2, 0], "a": "x\u00e9\ud83d\ude00\/\n", "c": {"d": null} } "#)
        #expect(value.objectMembers?.map(\.0) == ["b", "a", "c"])
        #expect(value["b"] == .array([.int(1), .int(-2), .int(0)]))
        #expect(value["a"]?.stringValue == "xé😀/\n")
        #expect(value["c"]?["d"] == .null)
        #expect(value["missing"] == nil)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "01", "1.5", "2e3", "\"\\x\"", "\"a\nb\"", "tru", "[] []",
        "\"\\ud800\"", "\"\\udc00\"", "99999999999999999999", "{1: 2}",
    ])
    func rejectsInvalidJSON(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test func rejectsAbsurdNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
    }

    @Test func equalityIsOrderSensitiveForObjects() {
        let ab = JSONValue.object([("a", .int(1)), ("b", .int(2))])
        let ba = JSONValue.object([("b", .int(2)), ("a", .int(1))])
        #expect(ab != ba)
        #expect(ab == .object([("a", .int(1)), ("b", .int(2))]))
        #expect(JSONValue.int(1) != .bool(true))
    }

    @Test func accessorsReturnNilForOtherCases() {
        #expect(JSONValue.int(3).stringValue == nil)
        #expect(JSONValue.string("3").intValue == nil)
        #expect(JSONValue.bool(true).boolValue == true)
        #expect(JSONValue.array([]).arrayValue == [])
        #expect(JSONValue.null["x"] == nil)
    }

    @Test func anyStringRoundTrips() async {
        let controlAndSeparators = Gen.element(of: [
            "\u{0}", "\u{7}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}", "\"", "\\", "/", "\t",
            "\u{202E}", "\u{2066}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{85}", "\u{FEFF}", "\u{E0041}", "\u{E007F}", "🏴",
        ]).map { $0! }
        let pieces = Gen.element(of: [0, 1]).map { $0! }
        await propertyCheck(count: 200, input: mixedText(), controlAndSeparators.array(of: 0...5), pieces) { text, specials, order in
            let combined = order == 0 ? text + specials.joined() : specials.joined() + text
            let value = JSONValue.object([("ev", .string(combined)), ("n", .array([.string(combined), .int(-7)]))])
            let line = value.serialized()
            #expect(!line.contains("\n") && !line.contains("\u{2028}"))
            #expect(InvisibleControls.markedRanges(in: Array(line.unicodeScalars)).isEmpty, "\(line)")
            #expect((try? JSONValue.parse(line)) == value)
        }
    }
}
