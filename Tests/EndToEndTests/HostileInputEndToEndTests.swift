import ComposerCore
import Foundation
import Testing
import TestHarness

/// Hostile and huge input in the real app (#15): a `--data` directory whose people carry a
/// NUL, bidi overrides, zero-width characters and line breaks, and whose channels file is
/// 1 GiB; a draft holding U+202E. Everything is reported on stderr and the app starts, a
/// completion accepted inserts no control, and the trace never writes one raw.
@Suite(.serialized)
struct HostileInputEndToEndTests {
    static let tanaka = #"{"id": "u0001", "name": "tanaka", "display": "田中 太郎", "reading": "たなか たろう", "latin": "tanaka taro"}"#
    static let nul = #"{"id": "u0002", "name": "kim\u0000minjun", "display": "김민준", "reading": "", "latin": "kim minjun"}"#
    static let evil = #"{"id": "u0003", "name": "evil\u202e.txt", "display": "Evil\u200b \u2066Person\u2069", "reading": "", "latin": "evil\nperson"}"#
    static let emoji = #"{"id": "1f600", "char": "😀\u202e", "shortcodes": ["grinning"]}"#

    /// A temporary data directory with those people, that emoji and a 1 GiB (sparse)
    /// channels file; the caller removes it.
    static func hostileData() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ime-composer-hostile-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(([tanaka, nul, evil].joined(separator: "\n") + "\n").utf8)
            .write(to: directory.appendingPathComponent("people.jsonl"))
        try Data((emoji + "\n").utf8).write(to: directory.appendingPathComponent("emoji.jsonl"))
        let channels = directory.appendingPathComponent("channels.jsonl")
        try Data().write(to: channels)
        guard truncate(channels.path, 1 << 30) == 0 else { throw HarnessError("truncate \(channels.path): errno \(errno)") }
        return directory
    }

    /// Whether `text` holds a control the rule marks (what must never be inserted or traced raw).
    static func hasMarkedControl(_ text: String) -> Bool {
        !InvisibleControls.markedRanges(in: Array(text.unicodeScalars)).isEmpty
    }

    @Test(.timeLimit(.minutes(2)))
    func hostileDataIsReportedTheAppStartsAndAcceptingInsertsNoControl() throws {
        let data = try Self.hostileData()
        defer { try? FileManager.default.removeItem(at: data) }
        let cs = try ComposerSession(.gtkSimple, arguments: ["--data", data.path], name: "e2e-hostile-data")
        defer { cs.stop() }
        let trace = cs.trace
        // The data arrive after the first frame; their problems were printed before.
        let arrived = try trace.waitFor(event: "data", timeout: .seconds(60))
        #expect(arrived["sources"]?["people"]?.intValue == 2 && arrived["sources"]?["channels"]?.intValue == 0,
                "\(arrived)")
        let people = data.appendingPathComponent("people.jsonl").path
        let channels = data.appendingPathComponent("channels.jsonl").path
        let emoji = data.appendingPathComponent("emoji.jsonl").path
        let stderr = cs.app.stderr
        for line in [
            #"ime-composer: \#(people):2: a NUL character in "name"; skipped"#,
            #"ime-composer: \#(people):3: "name": removed invisible control U+202E; "#
                + #""display": removed invisible controls U+200B U+2066 U+2069; "latin": line breaks and tabs made spaces"#,
            "ime-composer: \(channels): 1 GiB is over the 32 MiB a data file may have; not read",
            "ime-composer: continuing with 2 people and 0 channels from \(data.path)",
            #"ime-composer: \#(emoji):1: "char": removed invisible control U+202E"#,
        ] {
            #expect(stderr.contains(line + "\n"), "missing \(line.debugDescription) in stderr:\n\(stderr)")
        }

        // @evil offers the cleaned person; Tab accepts it.
        try cs.xdotool.type("@evil")
        let list = try trace.waitFor("the list for evil") {
            $0["ev"]?.stringValue == "completion" && $0["query"]?.stringValue == "evil"
        }
        #expect(list["items"]?.arrayValue?.first?.stringValue == "u0003", "\(list)")
        let acceptFrom = trace.entries.count
        try cs.xdotool.key(["Tab"])
        let accept = try trace.waitFor("the accept", from: acceptFrom) { $0["ev"]?.stringValue == "accept" }
        #expect(accept["text"]?.stringValue == "@evil.txt ")
        try trace.waitFor("the accepted text", from: acceptFrom) {
            $0["ev"]?.stringValue == "text" && $0["text"]?.stringValue == "@evil.txt "
        }
        // No text, edit or accept line holds a control, decoded or as written.
        let leaked = trace.entries.filter { entry in
            let decoded = (entry.value["text"]?.stringValue ?? "") + (entry.value["inserted"]?.stringValue ?? "")
            return Self.hasMarkedControl(entry.line) || Self.hasMarkedControl(decoded)
        }
        #expect(leaked.isEmpty, "\(leaked.map(\.line))")
        #expect(try cs.terminateApp() == 0)
        #expect(try cs.trace.schemaViolations() == [])
        // The replay reads the same data, cleaned the same way, and decides the same.
        let replay = try cs.session.run(try ComposerBinary.path, ["replay", "--check", cs.traceURL.path], timeout: .seconds(60))
        #expect(replay.succeeded, "\(replay.stderr)")
    }

    @Test(.timeLimit(.minutes(2)))
    func aControlInTheDraftIsEscapedInTheTrace() throws {
        let draft = "pay \u{202E}txt.exe \u{200B}"
        let cs = try ComposerSession(.gtkSimple, arguments: ["--text", draft], name: "e2e-hostile-trace")
        defer { cs.stop() }
        let trace = cs.trace
        try trace.waitFor(event: "text") { $0["text"]?.stringValue == draft }
        let sendFrom = trace.entries.count
        try cs.xdotool.key(["Return"])
        try trace.waitFor(event: "send", from: sendFrom) { $0["text"]?.stringValue == draft }
        #expect(try cs.terminateApp() == 0)
        let bytes = try String(contentsOf: cs.traceURL, encoding: .utf8)
        #expect(bytes.contains(#""ev":"send","t":"#) && bytes.contains(#""text":"pay \u202etxt.exe \u200b""#), "\(bytes)")
        #expect(!Self.hasMarkedControl(bytes), "no control written raw")
        let replay = try cs.session.run(try ComposerBinary.path, ["replay", "--check", cs.traceURL.path], timeout: .seconds(60))
        #expect(replay.succeeded, "\(replay.stderr)")
    }
}
