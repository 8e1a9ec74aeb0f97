import Foundation
import Testing
import TestHarness

/// The matrix report's package versions and owners come from `dpkg-query`, never from
/// dpkg's database files (lintian: uses-dpkg-database-directly).
@Suite struct DebianPackagesTests {
    @Test func versionsKeepOnlyInstalledPackagesThatWereAskedFor() {
        let output = "fcitx5\t5.0.21-3\tinstalled\nibus\t1.5.27-5\tinstalled\n"
            + "ibus-mozc\t2.28.4715.102+dfsg-2.2\tconfig-files\nother\t1.0\tinstalled\nbroken line\n"
        #expect(DebianPackages.versions(in: output, of: ["fcitx5", "ibus", "ibus-mozc", "absent"])
                == ["fcitx5": "5.0.21-3", "ibus": "1.5.27-5"])
    }

    @Test func theOwnerIsTheFirstPackageNamedForExactlyThatPath() {
        let path = "/usr/share/ibus/component/anthy.xml"
        #expect(DebianPackages.owner(in: "ibus-anthy: \(path)\n", of: path) == "ibus-anthy")
        #expect(DebianPackages.owner(in: "libfoo:amd64, libfoo:i386: \(path)\n", of: path) == "libfoo")
        #expect(DebianPackages.owner(in: "diversion by dash from: \(path)\nibus: \(path)\n", of: path) == "ibus")
        #expect(DebianPackages.owner(in: "ibus: \(path).bak\n", of: path) == nil)
        #expect(DebianPackages.owner(in: "", of: path) == nil)
    }

    /// On this machine (make test installs the engines): the real dpkg-query answers.
    @Test func dpkgQueryNamesTheInstalledEnginesPackages() throws {
        try Prerequisites.requireIBusEngine("anthy")
        #expect(DebianPackages.owner(of: "/usr/share/ibus/component/anthy.xml") == "ibus-anthy")
        let versions = DebianPackages.versions(of: ["ibus-anthy", "no-such-package-here"])
        #expect(versions.keys.sorted() == ["ibus-anthy"])
        #expect(versions["ibus-anthy"]?.first?.isNumber == true, "\(versions)")
    }
}
