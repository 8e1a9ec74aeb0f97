import Foundation
import IMELab

/// A long text pasted from another application's clipboard (xclip owns it, as a terminal or
/// an editor would) into the composer and into the plain GtkTextView, each a fresh process
/// with an empty draft: Control+V, then until the process settled (`paint-meter paste`: no
/// damage and under 5% of a CPU for 2 s), the whole process's CPU and its RSS then.
/// Issue #35: wall time and CPU to settle ≤ 1.05× the plain view's, RSS after ≤ 1.2×.
struct PasteCase {
    let bytes: Int
    /// Over the composer's default limit (200): the counter and the overflow's colour, as a
    /// user who pastes a long text gets them; under: its limit set above the text's length.
    let overLimit: Bool
    var runs: [Program: [BenchSession.Paste]] = [:]
    var title: String { "\(DraftState.size(bytes)) paste \(overLimit ? "over" : "under") the limit" }

    func median(_ program: Program, _ value: (BenchSession.Paste) -> Int) -> Double? {
        Summary((runs[program] ?? []).map { Double(value($0)) })?.median
    }
}

extension Benchmark {
    func measurePastes(_ bench: BenchSession) throws {
        let file = bench.session.directory.appendingPathComponent("clipboard-\(options.pasteBytes).txt")
        let text = Workload.draft(bytes: options.pasteBytes)
        try text.write(to: file, atomically: true, encoding: .utf8)
        let characters = text.unicodeScalars.count
        let owner = try bench.ownClipboard(file)
        defer { owner.stop() }
        // After the paste the input is at its cap (six lines) and scrolls: the plain view
        // is given that size, read with a long draft.
        let input = try composerInput(bench, draft: .long(bytes: 1 << 20, overLimit: false))
        for overLimit in [false, true] {
            var result = PasteCase(bytes: options.pasteBytes, overLimit: overLimit)
            say("\(result.title): \(options.pasteRounds) rounds, interleaved")
            for round in 0..<options.pasteRounds {
                let order: [Program] = round % 2 == 0 ? [.composer, .textview] : [.textview, .composer]
                for program in order {
                    let command = self.command(program, in: bench, draft: nil,
                                               underLimit: overLimit ? nil : options.pasteBytes,
                                               textWidth: input.width, textHeight: input.height)
                    let app = try bench.start(command, environment: environment(program), timeout: .seconds(120))
                    let paste = try bench.paste(window: app.window, pid: app.pid)
                    // The whole text arrived: the program's text through AT-SPI.
                    let held = try bench.textGeometry(pid: app.pid).characters
                    try finish(app, program, in: bench)
                    guard held == characters else {
                        bench.session.markFailed()
                        throw BenchmarkError("\(result.title), round \(round + 1): \(program.label) holds \(held) "
                                             + "characters after the paste, not the clipboard's \(characters)")
                    }
                    result.runs[program, default: []].append(paste)
                    say("  round \(round + 1) \(program.rawValue): settled \(Format.ms(Double(paste.settledMicroseconds))), "
                        + "CPU \(Format.ms(Double(paste.cpuNanoseconds) / 1000)), RSS \(Format.mib(Double(paste.rssKiB)))")
                }
            }
            pastes.append(result)
        }
    }

    func pasteRows() -> [GoalRow] {
        var rows: [GoalRow] = []
        for c in pastes {
            let rounds = c.runs[.composer]?.count ?? 0
            if let mine = c.median(.composer, \.settledMicroseconds), let theirs = c.median(.textview, \.settledMicroseconds) {
                rows.append(GoalRow(goal: "\(c.title): wall time to settle (median of \(rounds))", composer: Format.ms(mine),
                                    reference: Format.ms(theirs) + " (GtkTextView)", ratio: Format.ratio(mine / theirs),
                                    target: "≤ 1.05×", pass: mine / theirs <= 1.05))
            }
            if let mine = c.median(.composer, \.cpuNanoseconds), let theirs = c.median(.textview, \.cpuNanoseconds) {
                rows.append(GoalRow(goal: "\(c.title): CPU to settle, whole process (median of \(rounds))",
                                    composer: Format.ms(mine / 1000), reference: Format.ms(theirs / 1000) + " (GtkTextView)",
                                    ratio: Format.ratio(mine / theirs), target: "≤ 1.05×", pass: mine / theirs <= 1.05))
            }
            if let mine = c.median(.composer, \.rssKiB), let theirs = c.median(.textview, \.rssKiB) {
                rows.append(GoalRow(goal: "\(c.title): RSS after it (median of \(rounds))", composer: Format.mib(mine),
                                    reference: Format.mib(theirs) + " (GtkTextView)", ratio: Format.ratio(mine / theirs),
                                    target: "≤ 1.2×", pass: mine / theirs <= 1.2))
            }
        }
        return rows
    }

    func pasteMarkdown() -> [String] {
        guard !pastes.isEmpty else { return [] }
        var out = ["### Paste", ""]
        out.append("A text of \(DraftState.size(options.pasteBytes)) at most (the long drafts' Latin and Japanese lines) "
            + "owned by another application's CLIPBOARD (xclip, as a terminal or an editor would own it), pasted with "
            + "Control+V into each program's empty text, \(options.pasteRounds) fresh processes per program and case, "
            + "interleaved; the plain GtkTextView at the composer's input size. Measured by `paint-meter paste` from "
            + "the key: the first and the last damage, and the settle (the start of the first 2 s with no damage "
            + "and under 5% of a CPU: a program inserting a long text paints nothing for seconds, and one starved on a "
            + "busy machine uses no CPU for a moment); CPU: every "
            + "thread's run time (the process's CPU clock, ended threads too) from the key to the settle; RSS then. Each program's text is read "
            + "through AT-SPI afterwards: the whole clipboard arrived.")
        out.append("")
        out.append("| Case | Program | Pastes | First paint | Last paint | Settled | CPU to settle | RSS after |")
        out.append("|---|---|---|---|---|---|---|---|")
        for c in pastes {
            for program in [Program.composer, .textview] {
                guard let runs = c.runs[program], !runs.isEmpty else { continue }
                func ms(_ value: (BenchSession.Paste) -> Int) -> String {
                    c.median(program, value).map { Format.ms($0) } ?? "—"
                }
                out.append("| \(c.title) | \(program.label) | \(runs.count) | \(ms(\.firstMicroseconds)) | "
                    + "\(ms(\.lastMicroseconds)) | \(ms(\.settledMicroseconds)) | "
                    + "\(c.median(program, \.cpuNanoseconds).map { Format.ms($0 / 1000) } ?? "—") | "
                    + "\(c.median(program, \.rssKiB).map { Format.mib($0) } ?? "—") |")
            }
        }
        out.append("")
        return out
    }

    func pasteJSON() -> [[String: Any]] {
        pastes.map { c in
            var programs: [String: Any] = [:]
            for (program, runs) in c.runs {
                programs[program.rawValue] = runs.map {
                    ["first_us": $0.firstMicroseconds, "last_us": $0.lastMicroseconds, "settled_us": $0.settledMicroseconds,
                     "cpu_ns": $0.cpuNanoseconds, "rss_kib": $0.rssKiB]
                }
            }
            return ["case": c.title, "programs": programs]
        }
    }
}
