import ComposerCore
import Foundation
import Testing
import TestHarness

/// Where the candidate window goes, read from outside the app's decisions: the rectangle
/// the text view gives GTK, what the IM module sends over D-Bus, the caret on the screen
/// and the panel's real candidate window on X11, at scale 1 and 2 (`GDK_SCALE`). IBus
/// 1.5.27's GTK 4 module sends a 50 px wide rectangle as tall as the window (ibus/ibus#2522):
/// its panel puts the candidates below the window, and the inspector says so. Fcitx5's
/// module sends the caret: its candidates are at the caret, and nothing is flagged.
@Suite(.serialized)
struct CandidatePlacementEndToEndTests {
    /// Types `keys` (a candidate window shows after the last), then the first `placement`
    /// line with the candidate window and the module's rectangle in it.
    static func placementWithCandidates(_ cs: ComposerSession, keys: [String]) throws -> CandidatePlacement {
        let from = cs.trace.entries.count
        for key in keys {
            // A key at a time: each answered before the next (IBus reorders keys under load).
            let before = cs.trace.entries.count
            try cs.xdotool.key([key])
            _ = try cs.trace.waitFor("the key \(key) answered", from: before) {
                ["preedit", "commit"].contains($0["ev"]?.stringValue ?? "")
            }
        }
        let line = try cs.trace.waitFor("a placement with the candidate window and the module's rectangle", from: from) {
            $0["ev"]?.stringValue == "placement" && $0["popup"] != nil && $0["sent"] != nil
        }
        guard case .placement(let placement) = try TraceEvent.decode(line).event else {
            throw HarnessError("not a placement line: \(line.serialized())")
        }
        return placement
    }

    @Test(.timeLimit(.minutes(3)), arguments: [1, 2])
    func ibusOnX11SendsTheWindowsHeightAndItsCandidatesAreAwayFromTheCaret(scale: Int) throws {
        try Prerequisites.requireIBusEngine("anthy")
        let cs = try ComposerSession(.ibusAnthy, arguments: ["--trace-placement"], environment: ["GDK_SCALE": "\(scale)"],
                                     name: "e2e-placement-ibus-\(scale)", ibusPanel: true)
        defer { cs.stop() }
        // にほんご, Space converts it, Space again opens anthy's candidate list.
        let placement = try Self.placementWithCandidates(cs, keys: ["n", "i", "h", "o", "n", "g", "o", "space", "space"])
        let sent = try #require(placement.sent), caret = try #require(placement.caret), popup = try #require(placement.popup)
        let window = try #require(placement.windowHeight)
        #expect(placement.scale == scale)
        #expect(placement.via == "ibus SetCursorLocation", "\(placement)")
        // IBus 1.5.27: 50 px wide (times the scale), as tall as the window or more.
        #expect(sent.width == 50 * scale && sent.height >= window, "\(placement)")
        #expect(caret.height > 0 && caret.y < window, "the real caret is inside the window: \(placement)")
        let findings = placement.findings
        #expect(findings.first == .ibusWindowHeightRectangle, "\(findings)")
        // The panel places its window below that rectangle, or above it when the screen
        // ends first: away from the caret either way.
        #expect(findings.contains { if case .popupAwayFromCaret = $0 { true } else { false } }, "\(findings) \(placement)")
        _ = popup
        let flag = try #require(AnomalyRules.misplacedCandidates(AnomalyContext(), .placement(placement)))
        #expect(flag.reference == "ibus/ibus#2522", "\(flag)")
        #expect(try cs.trace.schemaViolations() == [])
        #expect(try cs.terminateApp() == 0, "\(cs.app.stderr)")
    }

    @Test(.timeLimit(.minutes(3)), arguments: [1, 2])
    func fcitx5SendsTheCaretAndItsCandidatesAreAtTheCaret(scale: Int) throws {
        let cs = try ComposerSession(.fcitxPinyin, arguments: ["--trace-placement"], environment: ["GDK_SCALE": "\(scale)"],
                                     name: "e2e-placement-fcitx5-\(scale)")
        defer { cs.stop() }
        // Pinyin shows its candidates while composing.
        let placement = try Self.placementWithCandidates(cs, keys: ["n", "i", "h", "a", "o"])
        let sent = try #require(placement.sent), caret = try #require(placement.caret), popup = try #require(placement.popup)
        #expect(placement.scale == scale)
        #expect(placement.via?.hasPrefix("fcitx5 SetCursorRect") == true, "\(placement)")
        #expect(abs(sent.x - caret.x) <= CandidatePlacement.tolerance * scale
                    && abs(sent.y - caret.y) <= CandidatePlacement.tolerance * scale, "\(placement)")
        // Below the caret, or above it when the screen ends first (scale 2 here).
        let below = popup.y - caret.maxY, above = caret.y - popup.maxY
        #expect((0...CandidatePlacement.popupTolerance * scale).contains(below)
                    || (0...CandidatePlacement.popupTolerance * scale).contains(above), "\(placement)")
        #expect(placement.findings.isEmpty, "\(placement.findings)")
        #expect(AnomalyRules.misplacedCandidates(AnomalyContext(), .placement(placement)) == nil)
        #expect(try cs.trace.schemaViolations() == [])
        #expect(try cs.terminateApp() == 0, "\(cs.app.stderr)")
    }
}
