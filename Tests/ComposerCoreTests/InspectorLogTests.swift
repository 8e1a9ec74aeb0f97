import ComposerCore
import Testing

@Suite("Inspector log: rows, bounds, filters, details, bug report")
struct InspectorLogTests {
    @Test func everyEventIsARowOfItsKindNumberedInOrder() {
        let log = InspectorLog()
        log.append(.key(keyval: "k", consumed: nil), t: 1)
        log.append(.preeditStart, t: 2)
        log.append(.commit("子猫"), t: 3)
        log.append(.limit(removed: "猫", at: 1), t: 4)
        #expect(log.rows.map(\.kind) == [.key, .preedit, .commit, .decision])
        #expect(log.rows.map(\.number) == [1, 2, 3, 4])
        #expect(log[2].summary == "commit “子猫”  +2 ms", "answers say how long after their key")
        #expect(log[2].line == #"{"ev":"commit","t":3,"text":"子猫"}"#)
    }

    @Test func theLogKeepsTheLastRowsAndNumbersGoOn() {
        let log = InspectorLog(capacity: 100)
        for index in 0..<1_000 { log.append(.key(keyval: "k\(index)", consumed: nil), t: index) }
        #expect(log.count == 100)
        #expect(log[0].number == 901 && log[99].number == 1_000)
        #expect(log.transcript.count == 1_000, "the transcript keeps the whole session")
    }

    @Test func pausedRowsAreNotAddedButTheRulesFollowAndClearEmpties() {
        let log = InspectorLog()
        log.append(.preeditStart, t: 1)
        log.append(.preedit(Preedit(text: "간", cursor: 1, segments: [])), t: 2)
        log.isPaused = true
        #expect(log.append(.focus(in: false), t: 3) == nil)
        log.isPaused = false
        let row = log.append(.preeditEnd, t: 4)
        #expect(row?.anomalies.map(\.id) == ["preedit-vanished"], "the focus-out seen while paused still counts")
        #expect(log.count == 3)
        log.clear()
        #expect(log.count == 0)
    }

    @Test func filtersByKindAndSearchInSummaryLineAndAnomaly() {
        let log = InspectorLog()
        let key = log.append(.key(keyval: "Return", consumed: false), t: 1)!
        let commit = log.append(.commit("Äpfel|x"), t: 2)!
        #expect(InspectorLog.matches(key, kinds: [.key], search: ""))
        #expect(!InspectorLog.matches(commit, kinds: [.key], search: ""))
        #expect(InspectorLog.matches(commit, kinds: Set(InspectorKind.allCases), search: "äPFEL"))
        #expect(!InspectorLog.matches(commit, kinds: Set(InspectorKind.allCases), search: "Birne"))
        #expect(InspectorLog.matches(key, kinds: Set(InspectorKind.allCases), search: "\"consumed\":false"), "the raw line is searched too")
    }

    @Test func surroundingRowsShowWhatGtkAnswersInCharactersAndBytes() {
        let log = InspectorLog()
        log.append(.text(TextSnapshot(text: "x\n子猫ab", caret: 4, selection: TextSelection(anchor: 4, caret: 4))), t: 1)
        let read = log.append(.surroundingRetrieve, t: 2)?.surroundings
        #expect(read?.text == "子猫ab", "the caret's line")
        #expect(read?.caretCharacters == 2 && read?.caretBytes == 6)
        let delete = log.append(.surroundingDelete(offset: -2, count: 2), t: 3)?.surroundings
        #expect(delete?.deleted == "子猫" && delete?.after == "x\nab")
    }

    @Test func theDetailSpellsOutCodePointsAndCountsFourWays() {
        #expect(InspectorDetail.codePoints("子e\u{301}") == ["U+5B50 CJK UNIFIED IDEOGRAPH-5B50", "U+0065 LATIN SMALL LETTER E",
                                                           "U+0301 COMBINING ACUTE ACCENT"])
        #expect(InspectorDetail.counts("👨‍👩‍👧") == "1 graphemes, 5 scalars, 8 UTF-16 units, 18 bytes")
        let log = InspectorLog()
        let row = log.append(.commit("猫"), t: 7)!
        let lines = InspectorDetail.lines(for: row)
        #expect(lines.contains("  U+732B CJK UNIFIED IDEOGRAPH-732B"))
        #expect(lines.last == row.line)
    }

    @Test func theBugReportHasTheEnvironmentTheSettingsAndTheLastComposition() {
        let log = InspectorLog()
        log.append(.start(backend: "x11", imModule: "ibus", settings: TranscriptSettings(limit: LengthLimit(limit: 10, mode: .hard))), t: 0)
        log.append(.key(keyval: "a", consumed: nil), t: 1)
        log.append(.commit("a"), t: 2)
        log.append(.key(keyval: "k", consumed: nil), t: 3)
        log.append(.preeditStart, t: 4)
        log.append(.preedit(Preedit(text: "こ|", cursor: 1, segments: [PreeditSegment(start: 0, end: 2, styles: [.underline, .highlight])])), t: 5)
        log.append(.key(keyval: "Return", consumed: false), t: 6)
        let report = BugReport.markdown(environment: [("GTK", "4.8.3"), ("IM module", "ibus")], settings: log.settings, rows: log.rows)
        #expect(report.contains("- GTK: 4.8.3"))
        #expect(report.contains("- limit: 10 graphemes, hard"))
        #expect(report.contains("enter-passed-on-while-composing") == false, "ids are for tests; the report says it in words")
        #expect(report.contains("passed Enter on while composing"))
        #expect(report.contains("| 6 | 5 | preedit “こ\\|” cursor 1  +2 ms [0–2 underline highlight] | U+3053 U+007C |"),
                "pipes escaped, the segments' styles and the code points listed")
        #expect(!report.contains("commit “a”"), "only the last composition")
    }
}

@Suite("Preedit drawing: segments and cursor over UTF-8 bytes")
struct PreeditDrawingTests {
    @Test func segmentsAreByteRangesAroundTheCursorMark() {
        let drawing = PreeditDrawing(Preedit(text: "今日は", cursor: 1, segments: [
            PreeditSegment(start: 0, end: 2, styles: [.underline, .highlight]),
            PreeditSegment(start: 2, end: 3, styles: [.underline]),
        ]))
        #expect(drawing.text == "今▏日は")
        #expect(drawing.cursorBytes == 3..<6)
        #expect(drawing.spans == [PreeditDrawing.Span(bytes: 0..<9, styles: [.underline, .highlight]),
                                  PreeditDrawing.Span(bytes: 9..<12, styles: [.underline])])
    }

    @Test func theCursorAtTheEndsAndOutside() {
        #expect(PreeditDrawing(Preedit(text: "か", cursor: 0, segments: [])).text == "▏か")
        let end = PreeditDrawing(Preedit(text: "か", cursor: 1, segments: [PreeditSegment(start: 0, end: 1, styles: [.underline])]))
        #expect(end.text == "か▏" && end.spans.first?.bytes == 0..<3 && end.cursorBytes == 3..<6)
        let outside = PreeditDrawing(Preedit(text: "か", cursor: 5, segments: []))
        #expect(outside.text == "か" && outside.cursorBytes == nil)
    }
}
