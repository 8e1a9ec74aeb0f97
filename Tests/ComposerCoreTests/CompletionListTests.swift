import ComposerCore
import Foundation
import Testing

/// A model, the completion controller and the trace reporter in a settle pipeline: what
/// the app does with GTK, driven by hand.
private final class CompletionHarness {
    let model: ComposerModel
    let controller: CompletionList
    let pipeline: SettlePipeline

    init(text: String = "", recents: RecentItems = RecentItems(), extraSources: [CompletionSource] = []) {
        model = ComposerModel(text: text)
        controller = CompletionList(
            sources: [CompletionTestData.people, CompletionTestData.channels, CompletionTestData.emojiSource] + extraSources,
            recents: recents)
        pipeline = SettlePipeline(steps: [controller, TextChangeReporter()])
    }

    /// Text typed (or committed) at the caret, then a settle; returns the completion events.
    @discardableResult
    func type(_ text: String, origin: EditOrigin = .key) -> [TraceEvent] {
        insert(text, origin: origin)
        return settle()
    }

    func insert(_ text: String, origin: EditOrigin = .imCommit) {
        model.applyInsert(at: model.selection.caret, text: text, origin: origin)
    }

    @discardableResult
    func settle() -> [TraceEvent] {
        pipeline.settle(model).filter { if case .completion = $0 { true } else { false } }
    }

    /// Applies an acceptance the way the app does: one replacement, origin program, caret after.
    func apply(_ acceptance: CompletionAcceptance) -> [TraceEvent] {
        model.applyDelete(range: acceptance.replaceRange, origin: .program)
        model.applyInsert(at: acceptance.replaceRange.lowerBound, text: acceptance.text, origin: .program)
        model.setSelection(anchor: acceptance.caretAfter, caret: acceptance.caretAfter)
        return controller.didAccept(acceptance)
    }

    var ids: [String] { controller.items.map(\.id) }
}

private func state(_ events: [TraceEvent]) -> [String] {
    events.compactMap { if case let .completion(state, _, query, _, _) = $0 { "\(state.rawValue) \(query)" } else { nil } }
}

@Suite("CompletionList: settles, preedit, acceptance, trace")
struct CompletionListTests {
    /// The app loads its people after the first frame: a mention typed before they arrive
    /// completes at the first settle after they do, with nothing typed since.
    @Test func aSourceThatArrivesLateCompletesTheWordAlreadyTyped() throws {
        let model = ComposerModel(text: "")
        let controller = CompletionList(sources: [])
        let pipeline = SettlePipeline(steps: [controller])
        model.applyInsert(at: 0, text: "@tana", origin: .imCommit)
        _ = pipeline.settle(model)
        #expect(!controller.isOpen)
        _ = pipeline.settle(model)
        #expect(!controller.isOpen && controller.searchCount == 0, "nothing changed, nothing searched")
        controller.add(CompletionTestData.people)
        let events = pipeline.settle(model)
        #expect(controller.isOpen && controller.items.first?.id == "u0001", "\(controller.items.map(\.id))")
        #expect(events.contains { if case .completion(.open, "@", "tana", _, _) = $0 { true } else { false } }, "\(events)")
    }

    @Test func typingAMentionOpensTheListWithTanakaFirst() throws {
        let harness = CompletionHarness()
        #expect(harness.type("@").count == 1)  // a bare @ lists people
        let events = harness.type("tana")
        let event = try #require(events.first)
        guard case let .completion(state, prefix, query, items, selected) = event else { Issue.record("\(event)"); return }
        #expect(state == .update && prefix == "@" && query == "tana" && selected == 0)
        #expect(items.first == "u0001" && items.count == 10)
        #expect(harness.controller.isOpen && harness.controller.items.count == CompletionList.resultLimit)
        #expect(harness.controller.visibleItems.count == 5 && harness.controller.visibleItems.first?.title == "田中 太郎")
        #expect(harness.settle().isEmpty)  // nothing changed: nothing reported
    }

    @Test func neverOpensWhileComposingAndEvaluatesOnceAfterTheCommit() throws {
        let harness = CompletionHarness()
        let controller = harness.controller
        harness.model.preeditStarted()
        #expect(harness.settle().isEmpty)
        harness.model.preeditChanged(Preedit(text: "＠たなか", cursor: 4, segments: []))
        #expect(harness.settle().isEmpty && !controller.isOpen)
        harness.model.preeditChanged(Preedit(text: "＠田中", cursor: 3, segments: []))
        #expect(harness.settle().isEmpty && !controller.isOpen)
        // Committed text that arrives while a preedit is still active (Korean does this): still closed.
        harness.insert("＠")
        #expect(harness.settle().isEmpty && !controller.isOpen && controller.searchCount == 0)
        harness.insert("たなか")
        harness.model.preeditEnded()
        let events = harness.settle()
        #expect(state(events) == ["open たなか"])
        #expect(controller.searchCount == 1 && harness.ids.first == "u0001")
        #expect(controller.word?.range == 0..<4 && controller.word?.prefix == "@")
        #expect(harness.settle().isEmpty && harness.settle().isEmpty)
        #expect(controller.searchCount == 1)  // evaluated once
    }

    @Test func anOpenListDoesNotChangeWhileComposing() {
        let harness = CompletionHarness()
        harness.type("@tana")
        let before = harness.controller.items
        harness.controller.moveSelection(by: 2)
        harness.model.preeditStarted()
        harness.model.preeditChanged(Preedit(text: "k", cursor: 1, segments: []))
        #expect(harness.settle().isEmpty)
        harness.insert("ka")  // committed mid-composition
        harness.model.preeditChanged(Preedit(text: "t", cursor: 1, segments: []))
        #expect(harness.settle().isEmpty)
        #expect(harness.controller.items == before && harness.controller.selectedIndex == 2)
        #expect(harness.controller.word?.query == "tana")
        // A dismissal while composing is the app's (Escape reaches the IM first); after the
        // commit the list is evaluated once for what was committed.
        harness.model.preeditEnded()
        #expect(state(harness.settle()) == ["update tanaka"])
        #expect(harness.controller.selectedIndex == 0 && harness.ids.first == "u0001")
    }

    @Test func theCaretMovingInAndOutOfAWordOpensAndCloses() {
        let harness = CompletionHarness(text: "hi @tana and more")
        #expect(harness.settle().isEmpty)  // caret at the end: no word
        harness.model.setSelection(anchor: 8, caret: 8)
        #expect(state(harness.settle()) == ["open tana"])
        harness.model.setSelection(anchor: 6, caret: 6)
        #expect(state(harness.settle()) == ["update ta"])
        harness.model.setSelection(anchor: 4, caret: 8)  // a real selection
        #expect(state(harness.settle()) == ["close ta"])
        harness.model.setSelection(anchor: 8, caret: 8)
        #expect(state(harness.settle()) == ["open tana"])
        harness.model.setSelection(anchor: 17, caret: 17)
        #expect(state(harness.settle()) == ["close tana"])
        #expect(!harness.controller.isOpen && harness.controller.selectedIndex == nil)
    }

    @Test func nothingMatchingClosesTheList() {
        let harness = CompletionHarness()
        harness.type("@tana")
        #expect(state(harness.type("zzqx")) == ["close tana"])
        #expect(harness.type("q").isEmpty)
    }

    @Test func upAndDownMoveTheSelectionAndScrollTheVisibleRows() {
        let harness = CompletionHarness()
        harness.type("@tana")
        let controller = harness.controller
        #expect(controller.moveSelection(by: -1).isEmpty)  // clamped at the top
        #expect(controller.visibleRange == 0..<5)
        for _ in 0..<6 { controller.moveSelection(by: 1) }
        #expect(controller.selectedIndex == 6 && controller.visibleRange == 2..<7)
        let events = controller.moveSelection(by: 100)
        #expect(controller.selectedIndex == controller.items.count - 1)
        guard case let .completion(state, _, _, _, selected)? = events.first else { Issue.record("no event"); return }
        #expect(state == .update && selected == controller.items.count - 1)
        controller.moveSelection(by: -100)
        #expect(controller.selectedIndex == 0 && controller.visibleRange == 0..<5)
    }

    @Test func escapeClosesUntilTheWordChanges() {
        let harness = CompletionHarness()
        harness.type("@tana")
        #expect(state(harness.controller.close()) == ["close tana"])
        #expect(harness.settle().isEmpty && !harness.controller.isOpen)
        harness.model.setSelection(anchor: 5, caret: 5)  // same caret, same word
        #expect(harness.settle().isEmpty)
        #expect(state(harness.type("k")) == ["open tanak"])
    }

    @Test func acceptingAPersonReplacesPrefixAndQueryWithTheHandleAndASpace() throws {
        let harness = CompletionHarness(text: "hi ")
        harness.type("@たな")
        let acceptance = try #require(harness.controller.acceptance(in: harness.model))
        #expect(acceptance == CompletionAcceptance(replaceRange: 3..<6, text: "@tanaka ", itemID: "u0001", source: "people"))
        #expect(acceptance.caretAfter == 11)
        let events = harness.apply(acceptance)
        #expect(events.first == .accept(item: "u0001", text: "@tanaka "))
        #expect(state(events) == ["close たな"])
        #expect(harness.model.text == "hi @tanaka " && harness.model.selection.caret == 11)
        #expect(harness.settle().isEmpty && !harness.controller.isOpen)
        #expect(harness.model.log.entries.contains { if case let .edit(edit) = $0 { edit.origin == .program } else { false } })
    }

    @Test func acceptingChannelsAndEmoji() throws {
        let harness = CompletionHarness()
        harness.type("#gene")
        let channel = try #require(harness.controller.acceptance())
        #expect(channel.text == "#general " && channel.replaceRange == 0..<5)
        _ = harness.apply(channel)
        harness.type("：ねこ")
        let index = try #require(harness.controller.items.firstIndex { $0.insertion == "🐱" })
        let cat = try #require(harness.controller.acceptance(of: index))
        #expect(cat.text == "🐱" && cat.replaceRange == 9..<12 && cat.itemID == "1f431")
        _ = harness.apply(cat)
        #expect(harness.model.text == "#general 🐱")
        #expect(harness.controller.acceptance() == nil)
        #expect(harness.controller.acceptance(of: 99) == nil)
    }

    @Test func acceptanceIsRefusedWhenTheListIsStale() {
        let harness = CompletionHarness()
        harness.type("@tana")
        harness.model.preeditStarted()
        harness.model.preeditChanged(Preedit(text: "か", cursor: 1, segments: []))
        #expect(harness.controller.acceptance(in: harness.model) == nil)  // composing
        harness.model.preeditEnded()
        harness.insert("x")  // not settled yet
        #expect(harness.controller.acceptance(in: harness.model) == nil)
        #expect(harness.controller.acceptance() != nil)  // without the model: the list as shown
    }

    @Test func editsBeforeTheWordMoveTheRangeWithoutAnEvent() throws {
        let harness = CompletionHarness()
        harness.type("@tana")
        harness.model.applyInsert(at: 0, text: "ok ", origin: .paste)
        #expect(harness.settle().isEmpty)
        #expect(try #require(harness.controller.acceptance(in: harness.model)).replaceRange == 3..<8)
    }

    @Test func typingOnGivesWhatAFreshSearchGives() {
        let typed = CompletionHarness()
        for character in "@tanaka.m" { typed.type(String(character)) }
        let fresh = CompletionHarness(text: "@tanaka.m")
        fresh.model.setSelection(anchor: 9, caret: 9)
        fresh.settle()
        #expect(typed.controller.items == fresh.controller.items && !typed.controller.items.isEmpty)
        #expect(typed.ids.first == "u0003")
    }

    @Test func recentlyAcceptedRankFirstAmongEqualsAndPersist() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recents-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = CompletionHarness(recents: RecentItems(directory: directory))
        harness.type("@tana")
        let ids = harness.ids
        #expect(ids.first == "u0001")
        let mayumi = try #require(ids.firstIndex(of: "u0003"))
        _ = harness.apply(try #require(harness.controller.acceptance(of: mayumi)))
        harness.type("@tana")
        #expect(harness.ids.first == "u0003" && harness.ids.dropFirst().first == "u0001")
        // Only among equals: the exact handle still wins.
        harness.type("ka")
        #expect(harness.ids.first == "u0001")
        // A new session (same profile directory) remembers.
        let next = CompletionHarness(recents: RecentItems(directory: directory))
        next.type("@tana")
        #expect(next.ids.first == "u0003")
    }

    @Test func configuredPrefixWithItsOwnSource() throws {
        let teams = CompletionSource(name: "teams", entries: [
            CompletionEntry(id: "t1", kind: .custom, title: "+design", insertion: "+design ",
                            keys: [CompletionKey("design", .title(offset: 1))]),
            CompletionEntry(id: "t2", kind: .custom, title: "+開発", insertion: "+開発 ",
                            keys: [CompletionKey("開発", .title(offset: 1)), CompletionKey("かいはつ", .titleWords(offset: 1))]),
        ])
        let harness = CompletionHarness()
        #expect(harness.controller.register(prefix: "+", source: teams))
        harness.type("ping +かい")
        #expect(harness.ids == ["t2"])
        #expect(harness.controller.items.first?.titleHighlights == [1..<3])
        #expect(try #require(harness.controller.acceptance()).text == "+開発 ")
    }
}
