import ComposerCore
import Foundation
import Testing

/// Keeps the example session in docs/trace.md honest: every line must validate and
/// the session must follow the documented ordering rules.
@Suite("docs/trace.md example session")
struct TraceDocumentationTests {
    @Test func exampleSessionIsValidAndWellOrdered() throws {
        let root = repositoryRoot()
        let schema = try TraceSchema(contentsOf: root.appendingPathComponent("docs/trace-schema.json"))
        let markdown = try String(contentsOf: root.appendingPathComponent("docs/trace.md"), encoding: .utf8)
        let block = try #require(markdown.components(separatedBy: "```jsonl\n").dropFirst().first?.components(separatedBy: "```").first)
        let lines = block.split(separator: "\n").map(String.init)
        #expect(lines.count > 10)
        for line in lines {
            #expect(schema.validate(line) == [], "\(line)")
        }
        let events = try lines.map { try JSONValue.parse($0) }
        let names = events.compactMap { $0["ev"]?.stringValue }
        #expect(names.first == "start")
        #expect(names.last == "exit")
        let readyIndex = try #require(names.firstIndex(of: "ready"))
        #expect(names[..<readyIndex].filter { $0 == "text" }.count == 1)
        let times = events.compactMap { $0["t"]?.intValue }
        #expect(times == times.sorted())
        let texts = events.filter { $0["ev"]?.stringValue == "text" }
        #expect(texts.map { $0["text"]?.stringValue } == ["", "子猫", ""])
        // The example is a real recording, verbatim.
        let recorded = try String(contentsOf: root.appendingPathComponent("Tests/Transcripts/ibus-anthy-koneko-send.jsonl"), encoding: .utf8)
        #expect(block == recorded)
    }
}
