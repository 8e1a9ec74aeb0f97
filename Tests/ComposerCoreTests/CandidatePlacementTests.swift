@testable import ComposerCore
import Testing

/// Judging a candidate window's placement from its readings (`CandidatePlacement.findings`)
/// and the trace line that carries them.
struct CandidatePlacementTests {
    /// What IBus 1.5.27's GTK 4 module sent in the lab at scale 1 and 2 (the end-to-end
    /// test reads these live): the text view's rectangle as a screen position, 32 px lower,
    /// 50 px wide and as tall as the window, all times the scale.
    static let ibusScale1 = CandidatePlacement(
        given: PixelRect(x: 8, y: 6, width: 0, height: 19), caret: PixelRect(x: 14, y: 572, width: 0, height: 19),
        sent: PixelRect(x: 8, y: 38, width: 50, height: 600), via: "ibus SetCursorLocation",
        popup: PixelRect(x: 8, y: 638, width: 68, height: 25), scale: 1, windowHeight: 600)
    static let ibusScale2 = CandidatePlacement(
        given: PixelRect(x: 8, y: 6, width: 0, height: 19), caret: PixelRect(x: 28, y: 712, width: 0, height: 38),
        sent: PixelRect(x: 16, y: 76, width: 100, height: 1536), via: "ibus SetCursorLocation",
        popup: PixelRect(x: 16, y: 51, width: 68, height: 25), scale: 2, windowHeight: 768)
    /// Fcitx5 at scale 2: the caret sent as it is; its window flipped above the caret (the
    /// screen ends below it).
    static let fcitxScale2 = CandidatePlacement(
        given: PixelRect(x: 8, y: 6, width: 0, height: 15), caret: PixelRect(x: 28, y: 712, width: 0, height: 30),
        sent: PixelRect(x: 28, y: 712, width: 0, height: 30), via: "fcitx5 SetCursorRect",
        popup: PixelRect(x: 28, y: 681, width: 326, height: 31), scale: 2, windowHeight: 768)

    @Test func ibusWindowHeightRectangleIsRecognisedAtBothScalesAndItsWindowIsAway() {
        for placement in [Self.ibusScale1, Self.ibusScale2] {
            let findings = placement.findings
            #expect(findings.first == .ibusWindowHeightRectangle, "\(findings)")
            #expect(findings.contains { if case .popupAwayFromCaret = $0 { true } else { false } }, "\(findings)")
        }
        // 47 px below a 19 px caret: a panel puts its window flush against what it was sent.
        #expect(Self.ibusScale1.findings.last == .popupAwayFromCaret(distance: 47))
    }

    @Test func aCaretSentAsItIsWithItsWindowAboveOrBelowIsNotFlagged() {
        #expect(Self.fcitxScale2.findings == [])
        var below = Self.fcitxScale2
        below.popup = PixelRect(x: 20, y: 742, width: 300, height: 31)
        #expect(below.findings == [])
        var far = Self.fcitxScale2
        far.popup = PixelRect(x: 28, y: 742 + 2 * CandidatePlacement.popupTolerance + 1, width: 300, height: 31)
        #expect(far.findings == [.popupAwayFromCaret(distance: 2 * CandidatePlacement.popupTolerance + 1)])
        // Beside the caret's column: a window moved left at the screen's edge still counts.
        var left = Self.fcitxScale2
        left.popup = PixelRect(x: 0, y: 742, width: 40, height: 31)
        #expect(left.findings == [])
    }

    @Test func aZeroRectangleAndAnOffsetRectangleAreFlagged() {
        var zero = Self.fcitxScale2
        zero.sent = .zero
        zero.popup = nil
        #expect(zero.findings == [.zeroRectangle])
        #expect(AnomalyRules.misplacedCandidates(AnomalyContext(), .placement(zero))?.reference == "fcitx/fcitx5#1606")
        var offset = Self.fcitxScale2
        offset.sent = PixelRect(x: 28 + 40, y: 712 - 30, width: 0, height: 30)
        offset.popup = nil
        #expect(offset.findings == [.sentAwayFromCaret(dx: 40, dy: -30)])
        // Within the tolerance (a module's rounding): nothing.
        offset.sent = PixelRect(x: 29, y: 711, width: 0, height: 30)
        #expect(offset.findings == [])
        // Nothing read but the text view's rectangle: nothing to judge.
        #expect(CandidatePlacement(given: PixelRect(x: 1, y: 2, width: 0, height: 17)).findings == [])
    }

    @Test func theInspectorFlagsIBusWithItsIssueAndSpellsOutEveryReading() throws {
        let flag = try #require(AnomalyRules.misplacedCandidates(AnomalyContext(), .placement(Self.ibusScale1)))
        #expect(flag.id == "ibus-window-height-rectangle")
        #expect(flag.reference == "ibus/ibus#2522")
        #expect(flag.explanation.contains("8,38 50×600") && flag.explanation.contains("14,572 0×19"), "\(flag)")
        let log = InspectorLog()
        let row = try #require(log.append(.placement(Self.ibusScale1), t: 5))
        #expect(row.kind == .window)
        #expect(row.summary == "caret 8,6 0×19 → ibus SetCursorLocation 8,38 50×600 (on screen 14,572 0×19) · candidate window 8,638 68×25")
        let lines = InspectorDetail.lines(for: row)
        #expect(lines.contains("given by the text view: 8,6 0×19 (the text view's coordinates, logical px)"), "\(lines)")
        #expect(lines.contains("sent by the IM module: 8,38 50×600 (ibus SetCursorLocation)"), "\(lines)")
        #expect(lines.contains("candidate window: 8,638 68×25"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("⚠ the candidate window (8,638 68×25) is 47 px away") }, "\(lines)")
    }

    @Test func theTraceLineRoundTripsAndPassesTheSchema() throws {
        let schema = try TraceSchema(contentsOf: repositoryRoot().appendingPathComponent("docs/trace-schema.json"))
        for placement in [Self.ibusScale1, Self.fcitxScale2, CandidatePlacement(given: PixelRect(x: 3, y: 4, width: 0, height: 17), scale: 1)] {
            let json = TraceEvent.placement(placement).json(t: 12)
            let decoded = try TraceEvent.decode(json)
            #expect(decoded.t == 12)
            #expect(decoded.event == .placement(placement))
            #expect(schema.validate(json.serialized()) == [], "\(json.serialized())")
        }
        let line = #"{"ev":"placement","t":1,"given":[1,2,-3,4],"scale":1}"#
        #expect(throws: TranscriptProblem("\"given\" must be [x, y, width, height]: four integers, the sizes >= 0")) {
            try TraceEvent.decode(try JSONValue.parse(line))
        }
    }

    @Test func theComposerTracesAReadingOnlyWhenItChanged() {
        let composer = Composer(text: "", traces: true)
        func traced(_ placement: CandidatePlacement) -> [TraceEvent] {
            composer.handle(.placementObserved(placement)).compactMap { if case .trace(let event) = $0 { event } else { nil } }
        }
        #expect(traced(Self.fcitxScale2) == [.placement(Self.fcitxScale2)])
        #expect(traced(Self.fcitxScale2) == [])
        var moved = Self.fcitxScale2
        moved.popup = nil
        #expect(traced(moved) == [.placement(moved)])
    }
}
