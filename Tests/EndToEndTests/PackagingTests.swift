import ComposerCore
import Foundation
import Testing
import TestHarness

/// What distributions and software centres read: the AppStream metadata, the one version
/// everything shares, and the Debian package of the release build (`make deb`).
@Suite struct PackagingTests {
    static let root = ComposerBinary.packageRoot
    static var metainfo: URL {
        get throws { root.appendingPathComponent("data/\(try DesktopIntegrationTests.applicationID()).metainfo.xml") }
    }

    /// The `version` of the metainfo's first (newest) `<release>`.
    static func newestRelease() throws -> String {
        let text = try String(contentsOf: try metainfo, encoding: .utf8)
        guard let match = text.firstMatch(of: #/<release\s+version="([^"]+)"/#) else {
            throw HarnessError("no <release version=…> in data/")
        }
        return String(match.1)
    }

    @Test func theMetainfoValidatesWithoutErrorsOrWarnings() throws {
        try Prerequisites.require(["appstreamcli"])
        let session = try TestSession(name: "appstream")
        defer { session.stop() }
        // --no-net: the screenshots' addresses are not fetched (the tests run offline).
        let result = try session.run("appstreamcli", ["validate", "--no-net", "--explain", try Self.metainfo.path],
                                     timeout: .seconds(60))
        #expect(result.succeeded, "appstreamcli validate failed:\n\(result.stdout)\(result.stderr)")
        let issues = (result.stdout + result.stderr).split(separator: "\n")
            .filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") }
        #expect(issues.isEmpty, "appstreamcli reported:\n\(issues.joined(separator: "\n"))")
    }

    @Test func theMetainfoDescribesThisAppItsDesktopFileAndItsBinary() throws {
        let text = try String(contentsOf: try Self.metainfo, encoding: .utf8)
        let id = try DesktopIntegrationTests.applicationID()
        #expect(text.contains("<id>\(id)</id>"))
        #expect(text.contains("<launchable type=\"desktop-id\">\(id).desktop</launchable>"))
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("data/\(id).desktop").path))
        #expect(text.contains("<binary>ime-composer</binary>"))
        #expect(text.contains("<content_rating type=\"oars-1.1\""))
        #expect(text.components(separatedBy: "<screenshot").count - 1 >= 2, "fewer than two screenshots")
    }

    /// One version: the binary's, the metainfo's newest release and meson's project version.
    @Test func theBinaryTheMetainfoAndMesonShareOneVersion() throws {
        try Prerequisites.require(["meson"])
        let session = try TestSession(name: "version")
        defer { session.stop() }
        let printed = try session.run(try ComposerBinary.path, ["--version"])
        #expect(printed.succeeded)
        #expect(printed.output == AppVersion.current)
        #expect(try Self.newestRelease() == AppVersion.current)
        let build = session.directory.appendingPathComponent("meson")
        try session.runChecked("meson", ["setup", build.path, Self.root.path], timeout: .seconds(120))
        let info = try session.run("meson", ["introspect", "--projectinfo", build.path], timeout: .seconds(60))
        let project = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        #expect(project?["version"] as? String == AppVersion.current, "meson's project info: \(info.stdout)")
    }

    /// `make deb`'s script on the release build: lintian finds no error and every warning left
    /// is explained in meson-notes.md; the package installs into a clean root with dpkg, its
    /// binary runs from there (`--version`, `doctor --json`), and removing it leaves nothing.
    @Test func theReleaseBuildInstallsAsADebianPackageRunsAndIsRemoved() throws {
        try Prerequisites.require(["dpkg", "dpkg-deb", "dpkg-shlibdeps", "lintian", "strip", "python3"])
        guard let release = ProcessInfo.processInfo.environment["IME_COMPOSER_RELEASE_BIN"], !release.isEmpty else {
            throw HarnessError("IME_COMPOSER_RELEASE_BIN is not set: make test builds the release binary and sets it "
                + "(by hand: swift build -c release --product ime-composer --static-swift-stdlib, then "
                + "IME_COMPOSER_RELEASE_BIN=.build/release/ime-composer)")
        }
        let session = try TestSession(name: "deb")
        defer { session.stop() }
        let out = session.directory.appendingPathComponent("deb")
        let built = try session.run(Self.root.appendingPathComponent("scripts/build-deb.sh").path, [release, out.path],
                                    timeout: .seconds(900))
        try #require(built.succeeded, "build-deb.sh failed:\n\(built.stdout)\(built.stderr)")
        let lines = built.output.split(separator: "\n").map(String.init)
        let deb = try #require(lines.last)
        #expect(deb.hasSuffix(".deb") && FileManager.default.fileExists(atPath: deb), "no package: \(built.output)")

        // Each lintian warning left is explained in meson-notes.md, by its tag.
        let notes = try String(contentsOf: Self.root.appendingPathComponent("meson-notes.md"), encoding: .utf8)
        for warning in lines.filter({ $0.hasPrefix("W: ") }) {
            let tag = warning.split(separator: " ").dropFirst(2).first.map(String.init) ?? warning
            #expect(notes.contains("`\(tag)`"), "lintian warning not explained in meson-notes.md: \(warning)")
        }

        let field = { (name: String) throws -> String in
            try session.runChecked("dpkg-deb", ["--field", deb, name]).output
        }
        #expect(try field("Package") == "ime-composer")
        #expect(try field("Version") == AppVersion.current)
        let depends = try field("Depends")
        for library in ["libc6", "libgtk-4-1", "libglib2.0-0", "libsqlite3-0"] {
            #expect(depends.contains(library), "Depends lacks \(library): \(depends)")
        }
        #expect(!depends.contains("swift"), "the Swift runtime is linked statically: \(depends)")

        // A clean root: an empty dpkg database, nothing else. Depends are the host's (the
        // binary runs with the host's libraries), so dpkg is told not to check them here.
        let root = session.directory.appendingPathComponent("root")
        for dir in ["var/lib/dpkg/info", "var/lib/dpkg/updates", "var/log"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        for file in ["var/lib/dpkg/status", "var/lib/dpkg/available"] {
            _ = FileManager.default.createFile(atPath: root.appendingPathComponent(file).path, contents: Data())
        }
        let dpkg = ["--root=\(root.path)", "--force-not-root", "--force-depends", "--log=/dev/null"]
        let installed = try session.run("dpkg", dpkg + ["--install", deb], timeout: .seconds(120))
        try #require(installed.succeeded, "dpkg --install failed:\n\(installed.stdout)\(installed.stderr)")
        let status = try session.run("dpkg-query", ["--admindir=\(root.path)/var/lib/dpkg", "-W",
                                                   "-f=${Status} ${Version}", "ime-composer"])
        #expect(status.output == "install ok installed \(AppVersion.current)", "dpkg-query: \(status.output)")

        let binary = root.appendingPathComponent("usr/bin/ime-composer").path
        let id = try DesktopIntegrationTests.applicationID()
        for path in ["usr/share/applications/\(id).desktop",
                     "usr/share/metainfo/\(id).metainfo.xml",
                     "usr/share/icons/hicolor/scalable/apps/\(id).svg",
                     "usr/share/ime-composer/emoji.jsonl", "usr/share/man/man1/ime-composer.1.gz",
                     "usr/share/ime-composer/lab/engines/ibus-anthy.json", "usr/share/ime-composer/lab/peers/polari.json",
                     "usr/share/ime-composer/lab/peers/atspi-watch.py", "usr/share/ime-composer/lab/peers/xmpp-receive.py",
                     "usr/share/doc/ime-composer/copyright", "usr/share/locale/ja/LC_MESSAGES/ime-composer.mo"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "not installed: \(path)")
        }
        let version = try session.run(binary, ["--version"])
        #expect(version.succeeded && version.output == AppVersion.current, "--version: \(version.output) \(version.stderr)")
        let doctor = try session.run(binary, ["doctor", "--json"], timeout: .seconds(60))
        let report = try? JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any]
        #expect(report != nil, "doctor --json printed no JSON object (status \(doctor.status)):\n\(doctor.stdout)\(doctor.stderr)")

        let removed = try session.run("dpkg", dpkg + ["--purge", "ime-composer"], timeout: .seconds(120))
        #expect(removed.succeeded, "dpkg --purge failed:\n\(removed.stdout)\(removed.stderr)")
        let left = FileManager.default.enumerator(atPath: root.appendingPathComponent("usr").path)?
            .compactMap { $0 as? String }
            .filter { !$0.isEmpty && !isDirectory(root.appendingPathComponent("usr").appendingPathComponent($0)) } ?? []
        #expect(left.isEmpty, "files left after dpkg --purge: \(left.prefix(10))")
    }
}

private func isDirectory(_ url: URL) -> Bool {
    var isDir: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
}
