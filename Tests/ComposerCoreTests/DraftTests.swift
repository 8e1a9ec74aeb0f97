import ComposerCore
import Testing

@Suite("The draft as the user sees it")
struct DraftTests {
    @Test("a composition on screen is part of the draft, where it shows, caret at its cursor")
    func compositionSplicedIn() {
        let model = ComposerModel(text: "猫が好き", caret: 2)
        model.preeditStarted()
        model.preeditChanged(Preedit(text: "とても", cursor: 2, segments: []))
        #expect(model.draft == Draft(text: "猫がとても好き", caret: 4, composing: 2..<5))
        #expect(model.text == "猫が好き", "the committed text is untouched")
    }

    @Test("without a composition (or with an empty one) the draft is the text and caret")
    func plainText() {
        let model = ComposerModel(text: "abc", caret: 1)
        #expect(model.draft == Draft(text: "abc", caret: 1))
        let before = model.draftStamp
        model.preeditStarted()
        model.preeditChanged(Preedit(text: "", cursor: 0, segments: []))
        #expect(model.draft == Draft(text: "abc", caret: 1))
        #expect(model.draftStamp == before, "an empty preedit changes nothing the user sees")
    }

    @Test("the stamp changes with every change the user sees")
    func stampFollowsChanges() {
        let model = ComposerModel(text: "ab", caret: 2)
        var stamps = [model.draftStamp]
        model.applyInsert(at: 2, text: "c", origin: .key)
        stamps.append(model.draftStamp)
        model.setSelection(anchor: 0, caret: 0)
        stamps.append(model.draftStamp)
        model.preeditStarted()
        model.preeditChanged(Preedit(text: "x", cursor: 1, segments: []))
        stamps.append(model.draftStamp)
        model.preeditChanged(Preedit(text: "x", cursor: 0, segments: []))
        stamps.append(model.draftStamp)
        #expect(Set(stamps.map { "\($0)" }).count == stamps.count, "\(stamps)")
    }
}
