@testable import ComposerCore
import Testing

@Suite("EditLog: what was inserted since input settled")
struct EditLogTests {
    @Test func saysWhetherItStillHoldsEverythingSinceASequence() {
        var log = EditLog(historyLimit: 0)
        #expect(log.holdsEverything(after: log.lastSequence), "nothing recorded: nothing missing")
        let first = log.recordEdit(range: 0..<0, removed: "", inserted: "a", origin: .key).sequence
        #expect(log.holdsEverything(after: first - 1))
        for _ in 0..<3 {
            log.recordEdit(range: 0..<0, removed: "", inserted: "b", origin: .key)
            log.recordSettle(preeditActive: false)
        }
        #expect(!log.holdsEverything(after: first - 1), "the first edit was trimmed away")
        #expect(log.holdsEverything(after: log.lastSequence), "nothing after the latest entry")
    }

    @Test func hangulStyleCommitsInOneQuietWindowMerge() {
        // Korean IMEs commit syllable by syllable while composing the next one;
        // settles in between see an active preedit and so are not quiet.
        let model = ComposerModel(text: "[]", caret: 1)
        model.markSettle()
        model.preeditStarted()
        model.preeditChanged(Preedit(text: "ㅎ", cursor: 1, segments: []))
        model.markSettle()
        model.applyInsert(at: 1, text: "한", origin: .imCommit)
        model.preeditChanged(Preedit(text: "ㄱ", cursor: 1, segments: []))
        model.markSettle()
        model.applyInsert(at: 2, text: "국", origin: .imCommit)
        model.preeditEnded()
        #expect(model.text == "[한국]")
        #expect(model.log.insertedSinceLastQuietSettle() == [1..<3])
        #expect(model.log.editsSinceLastQuietSettle().map(\.inserted) == ["한", "국"])

        model.markSettle()  // quiet: input complete
        #expect(model.log.insertedSinceLastQuietSettle() == [])
        #expect(model.log.insertedInLastQuietWindow() == [1..<3])
        #expect(model.log.editsInLastQuietWindow().map(\.origin) == [.imCommit, .imCommit])
    }

    /// The questions asked on every keystroke answer without collecting the edits, and
    /// agree with `edits(after:)`.
    @Test func questionsAboutRecentEditsAgreeWithTheEditsThemselves() {
        let model = ComposerModel(text: "hello")
        let start = model.log.lastSequence
        #expect(model.log.lowestEditStart(after: start) == nil)
        #expect(model.log.editsAfter(start, allSatisfy: { _ in false }), "no edit: vacuously true")
        model.applyInsert(at: 5, text: "!", origin: .key)
        model.markSettle()
        model.applyDelete(range: 1..<2, origin: .key)
        model.applyInsert(at: 3, text: "x", origin: .key)
        let edits = model.log.edits(after: start)
        #expect(model.log.lowestEditStart(after: start) == edits.map(\.range.lowerBound).min())
        #expect(model.log.lowestEditStart(after: start) == 1)
        #expect(model.log.editsAfter(start, allSatisfy: { $0.range.lowerBound > 0 }))
        #expect(!model.log.editsAfter(start, allSatisfy: { $0.range.lowerBound > 1 }))
        #expect(model.log.lastEditSequence == edits.last?.sequence)
    }

    @Test func emptyPreeditStillMakesASettleNonQuiet() {
        let model = ComposerModel()
        model.applyInsert(at: 0, text: "a", origin: .key)
        model.preeditStarted()
        model.markSettle()
        #expect(model.log.entries.last == .settle(SettleMark(sequence: 1, preeditActive: true)))
        #expect(model.log.insertedSinceLastQuietSettle() == [0..<1])
    }

    @Test func deleteInsideAnInsertionShrinksIt() {
        var log = EditLog()
        log.recordSettle(preeditActive: false)
        log.recordEdit(range: 2..<2, removed: "", inserted: "abcdef", origin: .paste)  // text: xx abcdef yy
        log.recordEdit(range: 4..<6, removed: "cd", inserted: "", origin: .key)  // xx ab ef yy
        #expect(log.insertedSinceLastQuietSettle() == [2..<6])
        log.recordEdit(range: 3..<3, removed: "", inserted: "Z", origin: .key)  // inside: extends
        #expect(log.insertedSinceLastQuietSettle() == [2..<7])
    }

    @Test func replacingOldTextInsideAnInsertionSplitsAroundIt() {
        var log = EditLog()
        log.recordEdit(range: 0..<0, removed: "", inserted: "0123456789", origin: .program)
        log.recordSettle(preeditActive: false)
        log.recordEdit(range: 2..<2, removed: "", inserted: "AB", origin: .key)  // 01AB23456789
        log.recordEdit(range: 6..<6, removed: "", inserted: "CD", origin: .key)  // 01AB23CD456789
        // Delete "B23C": leaves 01A D456789 — two inserted pieces now touch and merge.
        log.recordEdit(range: 3..<7, removed: "B23C", inserted: "", origin: .key)
        #expect(log.insertedSinceLastQuietSettle() == [2..<4])
    }

    @Test func laterInsertsShiftOrSplitTheClosedWindow() {
        var log = EditLog()
        log.recordEdit(range: 0..<0, removed: "", inserted: "hello world", origin: .program)
        log.recordSettle(preeditActive: false)
        log.recordEdit(range: 6..<6, removed: "", inserted: "big ", origin: .key)  // hello big world
        #expect(log.insertedSinceLastQuietSettle() == [6..<10])
        log.recordSettle(preeditActive: false)
        log.recordEdit(range: 0..<0, removed: "", inserted: ">", origin: .key)  // >hello big world
        log.recordEdit(range: 9..<9, removed: "", inserted: "!", origin: .key)  // >hello bi!g world
        #expect(log.insertedSinceLastQuietSettle() == [0..<1, 9..<10])
        // "big " shifted by ">", and split around "!", which belongs to the new window.
        #expect(log.insertedInLastQuietWindow() == [7..<9, 10..<12])
    }

    @Test func deletesOfOlderTextRemoveNothingFromTheInsertedSet() {
        var log = EditLog()
        log.recordEdit(range: 0..<0, removed: "", inserted: "abc", origin: .program)
        log.recordSettle(preeditActive: false)
        log.recordEdit(range: 0..<1, removed: "a", inserted: "", origin: .key)
        #expect(log.insertedSinceLastQuietSettle() == [])
        #expect(log.editsSinceLastQuietSettle().count == 1)
    }

    @Test func sequencesIncreaseAcrossEditsAndSettles() {
        var log = EditLog()
        let first = log.recordEdit(range: 0..<0, removed: "", inserted: "a", origin: .key)
        let mark = log.recordSettle(preeditActive: false)
        let second = log.recordEdit(range: 1..<1, removed: "", inserted: "b", origin: .key)
        #expect([first.sequence, mark.sequence, second.sequence] == [0, 1, 2])
    }

    @Test func historyIsBoundedButRecentWindowsSurvive() {
        var log = EditLog(historyLimit: 5)
        var length = 0
        for round in 0..<100 {
            log.recordEdit(range: length..<length, removed: "", inserted: "x", origin: .key)
            length += 1
            log.recordSettle(preeditActive: round % 3 == 0)
        }
        // Last rounds: 97 quiet, 98 quiet, 99 active. Kept: 5 entries older than
        // settle 97, then settle 97, edit 98, settle 98, edit 99, settle 99.
        #expect(log.entries.count == 10)
        log.recordEdit(range: 0..<0, removed: "", inserted: "yy", origin: .paste)
        #expect(log.insertedSinceLastQuietSettle() == [0..<2, length + 1..<length + 2])
        #expect(log.insertedInLastQuietWindow() == [length..<length + 1])
    }
}
