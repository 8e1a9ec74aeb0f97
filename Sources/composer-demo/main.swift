import ArgumentParser
import ComposerCore
import Foundation
import IMELab

// The headless demo: what `make run` does where there is no display. A private Xvfb,
// D-Bus and IBus session; the composer with a trace; a Japanese sentence typed through
// ibus-anthy and a Korean word through ibus-hangul, with real key events; screenshots and
// the trace saved; a summary printed. It exits by itself.

/// The demo's command line: one optional argument, the output directory. `--help` prints
/// the usage; any option or a second argument is an error (exit 2, before anything
/// starts), so that no option becomes a directory.
struct ComposerDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "composer-demo",
        abstract: "Run the headless demo and save its screenshots and trace.",
        discussion: """
            What `make run` does where there is no display: ime-composer in a private Xvfb, D-Bus and \
            IBus session, a Japanese sentence typed through ibus-anthy and a Korean word through \
            ibus-hangul with real key events, then a summary printed. It exits by itself: 0 when the \
            demo ran and the app exited well, 1 otherwise, 2 on a usage error.
            """)

    @Argument(help: ArgumentHelp("Where the screenshots (PNG) and the trace (trace.jsonl) go; created if missing.",
                                 valueName: "OUT_DIRECTORY"))
    var outDirectory = "out/demo"

    func validate() throws {
        // ArgumentParser takes a lone "-" (or anything after "--") as a value.
        if outDirectory.hasPrefix("-") { throw ValidationError("unexpected argument '\(outDirectory)'") }
    }

    func run() throws {
        let status: Int32
        do {
            status = try runDemo(into: URL(fileURLWithPath: outDirectory, isDirectory: true))
        } catch {
            say("failed: \(error)")
            throw ExitCode(1)
        }
        if status != 0 { throw ExitCode(1) }
    }
}

/// One step of the demo: what was typed, what the input method committed, what was sent.
struct Step {
    let language: String
    let keys: String
    var committed: [String] = []
    var sent: String?
}

func say(_ line: String) {
    FileHandle.standardError.write(Data(("demo: " + line + "\n").utf8))
}

func event(_ value: JSONValue, is name: String) -> Bool { value["ev"]?.stringValue == name }

/// Types `keys` (xdotool key names), confirms with Return, sends with Return; screenshots
/// the conversion and the sent message.
func run(_ step: inout Step, keys: [String], convert: [String], in cs: ComposerSession,
         screenshots: (composing: String, sent: String), into outDirectory: URL) throws {
    let trace = cs.trace
    let from = trace.entries.count
    try cs.xdotool.key(keys)
    if !convert.isEmpty { try cs.xdotool.key(convert) }
    // The last key's effect is in the preedit once a preedit event follows it.
    try trace.waitFor("the \(step.language) preedit", from: from) {
        event($0, is: "preedit") && !($0["text"]?.stringValue ?? "").isEmpty
    }
    // The picture is taken once the last key has reached the input.
    try trace.waitFor("the last key to reach the input", from: from) {
        event($0, is: "key") && $0["keyval"]?.stringValue == (convert.last ?? keys.last)
    }
    try cs.screenshotWindow(to: outDirectory.appendingPathComponent(screenshots.composing))

    let confirmFrom = trace.entries.count
    try cs.xdotool.key(["Return"])
    try trace.waitFor("the composition to end", from: confirmFrom) { event($0, is: "preedit-end") }
    let sendFrom = trace.entries.count
    try cs.xdotool.key(["Return"])
    let sent = try trace.waitFor("the \(step.language) message to be sent", from: sendFrom) { event($0, is: "send") }
    step.committed = trace.entries[from...].filter { $0.name == "commit" }.compactMap { $0.value["text"]?.stringValue }
    step.sent = sent["text"]?.stringValue
    try trace.waitFor("the input to be empty again", from: sendFrom) {
        event($0, is: "text") && $0["text"]?.stringValue == ""
    }
    try cs.screenshotWindow(to: outDirectory.appendingPathComponent(screenshots.sent))
}

/// The demo's session is stopped on every way out: the end of `runDemo` (success or a
/// thrown error, through its `defer`) and Ctrl+C or SIGTERM (TestSession's handler, also
/// while the session is still being set up). `exit()` skips `defer`: the demo ends through
/// `TestSession.exitProcess` once the session is stopped.
/// Runs the demo and returns the app's exit status; the session is stopped on return.
func runDemo(into outDirectory: URL) throws -> Int32 {
    try FileManager.default.createDirectory(at: outDirectory, withIntermediateDirectories: true)
    say("starting a private Xvfb + D-Bus + IBus session (ibus-anthy, ibus-hangul)…")
    // No --profile: the app keeps its draft and messages in the session's own
    // $XDG_DATA_HOME, inside the session folder. Every run starts afresh (empty input, no
    // messages) whatever an earlier one saved (the conversion on screen at exit is kept as
    // the draft), and the profile goes with the session. OUT_DIRECTORY only gets the
    // screenshots and the trace.
    let cs = try ComposerSession(.ibusAnthy, name: "demo")
    defer { cs.stop() }

    var japanese = Step(language: "Japanese", keys: "kyouhaiitenkidesune")
    say("typing \(japanese.keys) + Space through ibus-anthy…")
    try run(&japanese, keys: japanese.keys.map(String.init), convert: ["space"], in: cs,
            screenshots: ("1-japanese-converting.png", "2-japanese-sent.png"), into: outDirectory)

    try cs.switchEngine(to: .ibusHangul)
    var korean = Step(language: "Korean", keys: "dkssudgktpdy")
    say("typing \(korean.keys) through ibus-hangul…")
    try run(&korean, keys: korean.keys.map(String.init), convert: [], in: cs,
            screenshots: ("3-korean-composing.png", "4-korean-sent.png"), into: outDirectory)

    // One more conversion, left composing: the last picture shows both messages and a
    // preedit, and the exit event records the unfinished composition.
    try cs.switchEngine(to: .ibusAnthy)
    let lastFrom = cs.trace.entries.count
    try cs.xdotool.key("nihongode".map(String.init) + ["space"])
    let pending = try cs.trace.waitFor("a converted preedit", from: lastFrom) {
        event($0, is: "preedit") && ($0["segments"]?.arrayValue ?? []).contains {
            $0.arrayValue?.last?.arrayValue?.contains(.string("highlight")) == true
        }
    }
    let light = try cs.screenshotWindow(to: outDirectory.appendingPathComponent("5-messages-and-a-conversion.png"))

    // The same window in the dark style, switched at run time as GNOME's Settings does
    // where there is no portal: GSettings, which libadwaita follows.
    say("switching the session to the dark style…")
    let lightPicture = try Data(contentsOf: light)
    try IBus.gsettingsSet(cs.session, schema: "org.gnome.desktop.interface", key: "color-scheme", value: "'prefer-dark'")
    let dark = outDirectory.appendingPathComponent("6-dark-style.png")
    try Wait.until("the dark style on screen", timeout: .seconds(20)) { () -> Bool in
        try Data(contentsOf: cs.screenshotWindow(to: dark)) != lightPicture
    }

    let status = try cs.terminateApp()
    let traceCopy = outDirectory.appendingPathComponent("trace.jsonl")
    try? FileManager.default.removeItem(at: traceCopy)
    try FileManager.default.copyItem(at: cs.traceURL, to: traceCopy)
    let events = cs.trace.entries.count

    let path = outDirectory.path
    print("""
    Headless demo (no display found): ime-composer ran in a private Xvfb session with real \
    IBus input methods. Through ibus-anthy the keys "\(japanese.keys)" + Space composed a \
    kana preedit that was converted and committed as "\(japanese.committed.joined())"; Return \
    confirmed it and a second Return sent "\(japanese.sent ?? "")". Through ibus-hangul the keys \
    "\(korean.keys)" composed syllables in the preedit, committed as \
    "\(korean.committed.joined())", and Return then Return sent "\(korean.sent ?? "")". The app \
    exited with status \(status) while "\(pending["text"]?.stringValue ?? "")" was still being \
    converted (kept out of the text, recorded in the exit event) after \(events) trace events. \
    Screenshots (1-6, PNG; 6 in the dark style) and the trace (trace.jsonl, see docs/trace.md) are in \(path)/.
    """)
    return status
}

// Any command-line error exits 2 with ArgumentParser's message (its default is 64); --help
// exits 0.
do {
    var command = try ComposerDemo.parseAsRoot()
    try command.run()
    TestSession.exitProcess(0)
} catch {
    if ComposerDemo.exitCode(for: error) == .success { ComposerDemo.exit(withError: error) }
    if let code = error as? ExitCode { TestSession.exitProcess(code.rawValue) }
    FileHandle.standardError.write(Data((ComposerDemo.fullMessage(for: error) + "\n").utf8))
    TestSession.exitProcess(2)
}
