import Foundation
import TestHarness
import Testing

/// The Wayland input-method path end to end: the composer on headless sway 1.7 with GTK's
/// `wayland` IM module (text-input-v3) and fcitx5 as the compositor's input method
/// (input-method-v2), typed into through one persistent virtual keyboard
/// (`WaylandIMSession`, Tests/Drivers/vkbd.c). One test per engine, each in its own
/// session; the app is started anew for each scenario. Each cell is recorded for
/// docs/ime-matrix.md (`MatrixRow`, rows `wayland-fcitx5-anthy` and `wayland-fcitx5-hangul`);
/// a failed cell fails the test. Focus leaves for a second window (another composer
/// process) that sway focuses; clicks come from vkbd's virtual pointer.
@Suite(.serialized)
struct WaylandIMEndToEndTests {
    @Test(.timeLimit(.minutes(3)), arguments: WaylandEngine.all)
    func engineThroughTheWaylandScenarios(_ engine: WaylandEngine) throws {
        let result = MatrixRunner().run(engine.matrix)
        try MatrixRow(result).write()
        print("WaylandIMSession \(engine): session up in \(Int(result.sessionSeconds * 1000)) ms")
        for failure in result.failures { Issue.record(Comment(rawValue: failure)) }
        // A known failure that still happens is recorded as one (it fails the test once it
        // no longer does: `MatrixRunner`).
        for cell in result.cells where cell.verdict == .knownFailure {
            withKnownIssue(Comment(rawValue: cell.reason)) { Issue.record(Comment(rawValue: cell.reason)) }
        }
    }
}
