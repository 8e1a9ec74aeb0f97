import ComposerCore
import Foundation
import Testing

@Suite("TraceSchema: rejects bad lines")
struct TraceSchemaTests {
    let schema: TraceSchema

    init() throws {
        schema = try TraceSchema(contentsOf: repositoryRoot().appendingPathComponent("docs/trace-schema.json"))
    }

    private func problems(_ line: String) -> String {
        schema.validate(line).joined(separator: " | ")
    }

    @Test func unknownEvent() {
        #expect(problems(#"{"ev":"typing","t":1}"#).contains("unknown event \"typing\""))
    }

    @Test func missingField() {
        #expect(problems(#"{"ev":"commit","t":1}"#).contains("missing required field \"text\""))
        #expect(problems(#"{"ev":"surrounding","t":1,"kind":"delete","offset":0}"#).contains("missing required field \"count\""))
        #expect(problems(#"{"ev":"ready"}"#).contains("missing required field \"t\""))
    }

    @Test func wrongType() {
        #expect(problems(#"{"ev":"focus","t":1,"in":"yes"}"#).contains("expected boolean, got string"))
        #expect(problems(#"{"ev":"text","t":1,"text":"a","caret":1,"sel":[0]}"#).contains("expected 2 elements"))
        #expect(problems(#"{"ev":"preedit","t":1,"text":"a","cursor":0,"segments":[[0,1,["wavy"]]]}"#).contains("segments[0][2][0]"))
        #expect(problems(#"{"ev":1,"t":1}"#).contains("expected string, got integer"))
    }

    @Test func extraField() {
        #expect(problems(#"{"ev":"ready","t":1,"extra":true}"#).contains("unknown field \"extra\""))
        #expect(problems(#"{"ev":"surrounding","t":1,"kind":"retrieve","offset":0}"#).contains("unknown field \"offset\""))
    }

    @Test func enumValuesAndMinimums() {
        #expect(problems(#"{"ev":"exit","t":1,"text":"","caret":0,"preedit":"","reason":"crash"}"#).contains("is not one of"))
        #expect(problems(#"{"ev":"ready","t":-1}"#).contains("below the minimum 0"))
        #expect(problems(#"{"ev":"start","t":0,"v":2,"backend":"x11","im_module":"ibus"}"#).contains("is not one of"))
    }

    @Test func keyOrderAndDuplicates() {
        #expect(problems(#"{"t":1,"ev":"ready"}"#).contains("key \"ev\" must be at position 1"))
        #expect(problems(#"{"ev":"commit","text":"a","t":1}"#).contains("key \"t\" must be at position 2"))
        #expect(problems(#"{"ev":"ready","t":1,"t":2}"#).contains("duplicate field \"t\""))
    }

    @Test func notJSONOrNotAnObject() {
        #expect(problems("{\"ev\":").contains("not a JSON line"))
        #expect(problems("[1]").contains("must be a JSON object"))
    }

    @Test func validLinesHaveNoProblems() {
        #expect(schema.validate(#"{"ev":"key","t":0,"keyval":"Return"}"#) == [])
        #expect(schema.validate(#"{"ev":"surrounding","t":9,"kind":"delete","offset":-1,"count":1}"#) == [])
    }

    @Test func malformedSchemasAreRejected() {
        #expect(throws: TraceSchemaError.self) { try TraceSchema(json: #"{"events":{}}"#) }
        #expect(throws: TraceSchemaError.self) { try TraceSchema(json: #"{"version":1,"events":{"a":{"required":{"x":{"type":"float"}}}}}"#) }
        #expect(throws: TraceSchemaError.self) { try TraceSchema(json: "not json") }
    }
}
