import ComposerCore
import Testing

/// Records that it ran, to check ordering and what the model looked like.
private final class RecordingController: SettleStep {
    let name: String
    private(set) var sawQuietSettleBeforeRunning: [Bool] = []

    init(name: String) { self.name = name }

    private(set) var textsSeen: [String] = []

    func settle(_ model: ComposerModel, into output: inout SettleOutput) {
        if case let .settle(mark) = model.log.entries.last { sawQuietSettleBeforeRunning.append(mark.isQuiet) }
        textsSeen.append(model.text)
        output.events.append(.commit("ran \(name)"))
    }
}

@Suite("SettlePipeline and TextChangeReporter")
struct SettlePipelineTests {
    @Test func reportsTextOncePerChange() {
        let model = ComposerModel(text: "hi")
        let pipeline = SettlePipeline(steps: [TextChangeReporter()])
        let initial = TextSnapshot(text: "hi", caret: 2, selection: TextSelection(caret: 2))
        #expect(pipeline.settle(model) == [.text(initial)])  // the one text before ready
        #expect(pipeline.settle(model) == [])  // unchanged: not repeated
        model.applyInsert(at: 2, text: "!", origin: .key)
        #expect(pipeline.settle(model) == [.text(TextSnapshot(text: "hi!", caret: 3, selection: TextSelection(caret: 3)))])
        model.setSelection(anchor: 0, caret: 3)  // selection-only change is a change
        #expect(pipeline.settle(model) == [.text(TextSnapshot(text: "hi!", caret: 3, selection: TextSelection(anchor: 0, caret: 3)))])
        #expect(pipeline.settle(model) == [])
    }

    @Test func reportsCommittedTextWhileComposingButNeverThePreedit() {
        let model = ComposerModel()
        let pipeline = SettlePipeline(steps: [TextChangeReporter()])
        _ = pipeline.settle(model)
        model.preeditStarted()
        model.preeditChanged(Preedit(text: "ㅎ", cursor: 1, segments: []))
        #expect(pipeline.settle(model) == [])  // preedit only: committed text unchanged
        model.applyInsert(at: 0, text: "한", origin: .imCommit)  // Korean commits mid-composition
        model.preeditChanged(Preedit(text: "ㄱ", cursor: 1, segments: []))
        #expect(pipeline.settle(model) == [.text(TextSnapshot(text: "한", caret: 1, selection: TextSelection(caret: 1)))])
    }

    @Test func normalisationChangeIsReported() {
        let model = ComposerModel(text: "é", caret: 0)
        let pipeline = SettlePipeline(steps: [TextChangeReporter()])
        _ = pipeline.settle(model)
        model.applyDelete(range: 0..<1, origin: .program)
        model.applyInsert(at: 0, text: "e\u{301}", origin: .program)
        model.setSelection(anchor: 0, caret: 0)
        let events = pipeline.settle(model)
        #expect(events.count == 1)
    }

    @Test func marksTheSettleFirstThenRunsControllersInOrder() {
        let model = ComposerModel()
        let limit = RecordingController(name: "limit")
        let completion = RecordingController(name: "completion")
        let pipeline = SettlePipeline(steps: [limit, completion, TextChangeReporter()])
        let events = pipeline.settle(model)
        #expect(events == [.commit("ran limit"), .commit("ran completion"), .text(model.snapshot)])
        model.preeditStarted()
        _ = pipeline.settle(model)
        #expect(limit.sawQuietSettleBeforeRunning == [true, false])
        #expect(completion.sawQuietSettleBeforeRunning == [true, false])
        #expect(TextChangeReporter().name == "trace")
    }

    /// Phases: a controller's cut is made in the model (by the caller, through `edit`)
    /// before the next controller looks, and is not among the effects handed on.
    @Test func aCutLandsBeforeTheNextControllerLooks() {
        let model = ComposerModel(text: "abc")
        model.applyInsert(at: 3, text: "def", origin: .imCommit)
        let after = RecordingController(name: "after")
        let pipeline = SettlePipeline(steps: [LimitCutter(limit: LengthLimit(limit: 4, mode: .hard)), after])
        var cuts: [SettleEffect] = []
        let output = pipeline.settle(model) { cut in
            cuts.append(cut)
            if case let .trim(range, _) = cut { model.applyDelete(range: range, origin: .program) }
        }
        #expect(cuts == [.trim(range: 4..<6, caret: 4)])
        #expect(after.textsSeen == ["abcd"])
        #expect(output.effects.isEmpty)
        #expect(output.events == [.limit(removed: "ef", at: 4), .commit("ran after")])
    }
}
