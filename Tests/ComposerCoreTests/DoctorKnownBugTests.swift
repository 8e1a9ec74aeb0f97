@testable import ComposerCore
import Testing

/// The doctor names the installed releases' known bugs: ibus/ibus#2522 (IBus's GTK 4 module
/// before 1.5.29 misplaces candidate windows on X11) only where GTK 4 uses that module.
@Suite("Doctor: known bugs")
struct DoctorKnownBugTests {
    let id = "ibus-candidate-window-position"

    func facts(version: String?, environment: [String: String] = [:]) -> DoctorFacts {
        var facts = DoctorTests.healthyIBus()
        facts.ibusVersion = version
        facts.environment.merge(environment) { $1 }
        return facts
    }

    @Test func ibus1527OnX11IsNamedWithItsFixButStaysHealthy() throws {
        let report = Doctor.diagnose(facts(version: "1.5.27"))
        let finding = try #require(report.finding(id))
        #expect(finding.severity == .info && finding.topic == .module)
        #expect(finding.summary.contains("IBus 1.5.27") && finding.summary.contains("ibus/ibus#2522"))
        #expect(finding.fix?.contains("1.5.29") == true && finding.fix?.contains("GTK_IM_MODULE=fcitx") == true)
        #expect(report.exitStatus == 0, "a limitation of the release, not a setup to fix")
    }

    @Test func fcitx5sIBusFrontendDoesNotHelpTheClientModule() {
        var facts = facts(version: "1.5.28")
        facts.ibus = .notAnswering
        facts.ibusServedByFcitx5 = true
        #expect(Doctor.diagnose(facts).finding(id) != nil)
    }

    @Test(arguments: ["1.5.29", "1.5.31", "1.6", "2.0.0"])
    func fixedReleasesAreNotNamed(_ version: String) {
        #expect(Doctor.diagnose(facts(version: version)).finding(id) == nil)
    }

    @Test func notNamedWithoutTheIbusModuleOnX11OrWithoutAVersion() {
        #expect(Doctor.diagnose(facts(version: nil)).finding(id) == nil, "no ibus tool: nothing known")
        #expect(Doctor.diagnose(facts(version: "1.5.27", environment: ["GTK_IM_MODULE": "fcitx"])).finding(id) == nil)
        let wayland = facts(version: "1.5.27", environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"])
        #expect(Doctor.diagnose(wayland).finding(id) == nil, "Wayland has its own finding for GTK_IM_MODULE=ibus")
        #expect(Doctor.diagnose(DoctorTests.healthyFcitx5()).finding(id) == nil)
    }

    @Test func releasesCompareByTheirNumbers() {
        #expect(Doctor.release("1.5.27", isBefore: [1, 5, 29]))
        #expect(Doctor.release("1.5.28.1", isBefore: [1, 5, 29]))
        #expect(Doctor.release("1.5", isBefore: [1, 5, 29]))
        #expect(Doctor.release("1.5.9", isBefore: [1, 5, 29]), "numbers, not text")
        #expect(!Doctor.release("1.5.29", isBefore: [1, 5, 29]))
        #expect(!Doctor.release("1.5.100", isBefore: [1, 5, 29]))
        #expect(!Doctor.release("1.5.29~rc1", isBefore: [1, 5, 29]))
        #expect(!Doctor.release("unknown", isBefore: [1, 5, 29]), "unreadable: not judged")
        #expect(!Doctor.release("", isBefore: [1, 5, 29]))
    }
}
