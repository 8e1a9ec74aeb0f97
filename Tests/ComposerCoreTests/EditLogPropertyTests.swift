import ComposerCore
import PropertyBased
import Testing

/// Operations for the simulation: an edit at a position, or a settle.
private enum Step: Sendable {
    case edit(position: Int, length: Int, inserted: String)
    case settle(quiet: Bool)
}

@Suite("EditLog: against a tagging simulation")
struct EditLogPropertyTests {
    /// The oracle tags every scalar of the text: "inserted since the last quiet
    /// settle" and "inserted in the window the last quiet settle closed". The log
    /// must report exactly the runs of tagged scalars.
    @Test func insertedRangesMatchTaggedScalars() async {
        let steps = zip(Gen.int(in: 0...100), Gen.int(in: 0...100), Gen.int(in: 0...4), mixedText(pieces: 0...3))
            .map { kind, position, length, inserted -> Step in
                kind < 20 ? .settle(quiet: kind % 2 == 0) : .edit(position: position, length: length, inserted: inserted)
            }
            .array(of: 0...25)
        await propertyCheck(count: 300, input: mixedText(pieces: 0...10), steps, Gen.int(in: 0...6)) { initial, steps, historyLimit in
            var log = EditLog(historyLimit: historyLimit)
            var text = Array(initial.unicodeScalars)
            var sinceQuiet = [Bool](repeating: false, count: text.count)
            var lastWindow = sinceQuiet
            for step in steps {
                switch step {
                case let .settle(quiet):
                    log.recordSettle(preeditActive: !quiet)
                    if quiet {
                        lastWindow = sinceQuiet
                        sinceQuiet = [Bool](repeating: false, count: text.count)
                    }
                case let .edit(position, length, inserted):
                    let start = position % (text.count + 1)
                    let end = min(text.count, start + length)
                    let removed = string(text[start..<end])
                    let count = inserted.unicodeScalars.count
                    guard !(removed.isEmpty && inserted.isEmpty) else { continue }
                    log.recordEdit(range: start..<end, removed: removed, inserted: inserted, origin: .key)
                    text.replaceSubrange(start..<end, with: inserted.unicodeScalars)
                    sinceQuiet.replaceSubrange(start..<end, with: repeatElement(true, count: count))
                    lastWindow.replaceSubrange(start..<end, with: repeatElement(false, count: count))
                }
            }
            #expect(log.insertedSinceLastQuietSettle() == runs(of: sinceQuiet))
            #expect(log.insertedInLastQuietWindow() == runs(of: lastWindow))
        }
    }
}
