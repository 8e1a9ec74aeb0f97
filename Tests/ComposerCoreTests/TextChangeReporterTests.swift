import ComposerCore
import Testing

/// The trace's `text` lines for a long draft: whole once, then by length (#15: tracing must
/// not copy a 10 MB draft on every keystroke).
@Suite("TextChangeReporter")
struct TextChangeReporterTests {
    static func settle(_ reporter: TextChangeReporter, _ model: ComposerModel) -> [TraceEvent] {
        var output = SettleOutput()
        reporter.settle(model, into: &output)
        return output.events
    }

    @Test func aLongDraftIsWholeInTheFirstLineThenReportedByLength() {
        let limit = TextChangeReporter.fullTextLimit
        let model = ComposerModel(text: String(repeating: "a", count: limit + 1), caret: 0)
        let reporter = TextChangeReporter()
        let first = Self.settle(reporter, model)
        guard case .text(let snapshot)? = first.first else { Issue.record("first: \(first)"); return }
        #expect(snapshot.text.unicodeScalars.count == limit + 1, "the first line carries the whole text")

        model.applyInsert(at: 0, text: "b", origin: .key)
        #expect(Self.settle(reporter, model) == [.textLength(length: limit + 2, caret: 1, selection: TextSelection(anchor: 1, caret: 1))])
        #expect(Self.settle(reporter, model).isEmpty, "nothing changed: nothing reported")
        model.setSelection(anchor: 0, caret: 2)
        #expect(Self.settle(reporter, model) == [.textLength(length: limit + 2, caret: 2, selection: TextSelection(anchor: 0, caret: 2))])
        // Back under the limit: the text itself again.
        model.applyDelete(range: 0..<3, origin: .key)
        guard case .text(let short)? = Self.settle(reporter, model).first else { Issue.record("no text line"); return }
        #expect(short.text.unicodeScalars.count == limit - 1)
    }
}
