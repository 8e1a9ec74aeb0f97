import EnvironmentProbe
import Foundation

/// A matrix run written down: `matrix.md` for people, `matrix.json` for programs (a cell
/// per engine × scenario: verdict, reason, versions, timing, transcript).
public struct MatrixReport: Sendable {
    public var results: [MatrixEngineResult]
    /// Engines that were asked for or installed-looking but could not be had, and why.
    public var skipped: [(engine: MatrixEngine, missing: String)]
    /// Installed versions of the engines' packages and of the frameworks (`DebianPackages`).
    public var versions: [String: String]
    /// Where the engines' expectations were read from (`MatrixEngine.directory`), relative
    /// to the working directory when inside it (`make test` in the source tree:
    /// `data/lab/engines`, the same on every machine).
    public var expectations: String = MatrixReport.shown(MatrixEngine.directory)
    /// The baseline this run was compared with (`--baseline DIR`), and each cell that
    /// answered differently, with its first difference.
    public var baseline: (directory: String, changed: [(engine: String, scenario: MatrixScenario, difference: String)])?

    public init(results: [MatrixEngineResult], skipped: [(engine: MatrixEngine, missing: String)] = [],
                versions: [String: String] = [:]) {
        self.results = results
        self.skipped = skipped
        self.versions = versions
    }

    /// `url`'s path relative to the working directory when it is inside it, else whole.
    static func shown(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true).standardizedFileURL.path
        return path.hasPrefix(here + "/") ? String(path.dropFirst(here.count + 1)) : path
    }

    /// The frameworks whose versions a report names.
    public static let frameworkPackages = ["libgtk-4-1", "ibus", "fcitx5", "sway", "kwin-wayland", "gnome-shell"]

    public var cells: [MatrixCell] { results.flatMap(\.cells) }
    public var passed: Bool { results.allSatisfy(\.passed) }

    public func count(_ verdict: MatrixCell.Verdict) -> Int { cells.filter { $0.verdict == verdict }.count }

    /// "128 cells: 127 passed, 1 failed (1 known)".
    public var summary: String {
        let problems = results.reduce(0) { $0 + $1.problems.count }
        return "\(results.count) engine\(results.count == 1 ? "" : "s"), \(cells.count) cells: \(count(.passed)) passed, "
            + "\(count(.failed)) failed" + (count(.knownFailure) > 0 ? ", \(count(.knownFailure)) known failures" : "")
            + (problems > 0 ? "; \(problems) session problem\(problems == 1 ? "" : "s")" : "")
            + (skipped.isEmpty ? "" : "; \(skipped.count) engine\(skipped.count == 1 ? "" : "s") skipped")
    }

    /// Writes `matrix.md` and `matrix.json` into `directory` (transcript paths in the JSON
    /// are relative to it when they are inside it).
    public func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(markdown.utf8).write(to: directory.appendingPathComponent("matrix.md"), options: .atomic)
        try json(relativeTo: directory).write(to: directory.appendingPathComponent("matrix.json"), options: .atomic)
    }

    public func json(relativeTo directory: URL? = nil) throws -> Data {
        func relative(_ path: String?) -> Any {
            guard let path else { return NSNull() }
            guard let base = directory?.standardizedFileURL.path, path.hasPrefix(base + "/") else { return path }
            return String(path.dropFirst(base.count + 1))
        }
        let cells: [[String: Any]] = results.flatMap { result in
            result.cells.map { cell in
                [
                    "engine": result.engine.kind.slug, "backend": result.engine.backend.rawValue,
                    "im_module": result.engine.kind.imModule, "package": result.engine.package,
                    "engine_version": versions[result.engine.package] as Any? ?? NSNull(),
                    "scenario": cell.scenario.rawValue, "verdict": cell.verdict.rawValue, "reason": cell.reason,
                    "seconds": (cell.seconds * 1000).rounded() / 1000, "transcript": relative(cell.transcript),
                    "key_to_preedit_ms": cell.timing.toPreedit, "key_to_commit_ms": cell.timing.toCommit,
                    "key_to_paint_ms": cell.timing.toPaint,
                    "first_line": cell.firstLine,
                    "judged_by": result.engine.invariantKeys == nil ? "expectations" : "invariants",
                ]
            }
        }
        var object: [String: Any] = [
            "version": 1,
            "frameworks": Dictionary(uniqueKeysWithValues: Self.frameworkPackages.compactMap { name in versions[name].map { (name, $0) } }),
            "cells": cells,
            "problems": results.flatMap { result in result.problems.map { ["engine": result.engine.kind.slug, "problem": $0] } },
            "skipped": skipped.map { ["engine": $0.engine.kind.slug, "missing": $0.missing] },
            "timing": results.map { result -> [String: Any] in
                func summary(_ values: [Int]) -> Any {
                    guard let s = KeyTiming.summary(values) else { return NSNull() }
                    return ["median": s.median, "p90": s.p90, "keys": values.count]
                }
                let timing = result.timing
                return ["engine": result.engine.kind.slug, "backend": result.engine.backend.rawValue,
                        "key_to_preedit_ms": summary(timing.toPreedit), "key_to_commit_ms": summary(timing.toCommit),
                        "key_to_paint_ms": summary(timing.toPaint)]
            },
            "summary": ["passed": count(.passed), "failed": count(.failed), "known_failures": count(.knownFailure),
                        "all_passed": passed],
        ]
        if let baseline {
            object["baseline"] = [
                "directory": baseline.directory,
                "changed": baseline.changed.map { ["engine": $0.engine, "scenario": $0.scenario.rawValue, "difference": $0.difference] },
            ] as [String: Any]
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    public var markdown: String {
        let scenarios = MatrixScenario.allCases.filter { scenario in cells.contains { $0.scenario == scenario } }
        func mark(_ verdict: MatrixCell.Verdict) -> String {
            switch verdict {
            case .passed: "✅ passed"
            case .failed: "❌ failed"
            case .knownFailure: "⚠️ known failure"
            }
        }
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
        }
        var lines = [
            "# Input-method matrix", "",
            "Written by `ime-composer matrix`. Each engine ran in its own private session (an X server, or "
                + "headless sway, KWin or GNOME Shell; D-Bus; the input method's daemon); the app started anew for "
                + "each scenario. "
                + "What each engine is expected to do is in its file in `\(expectations)`.", "",
        ]
        let frameworks = Self.frameworkPackages.compactMap { name in versions[name].map { "\(name) \($0)" } }
        if !frameworks.isEmpty { lines += ["Versions: " + frameworks.joined(separator: ", ") + ".", ""] }
        lines += [
            "| engine | backend | " + scenarios.map(\.rawValue).joined(separator: " | ") + " |",
            "|---|---|" + String(repeating: "---|", count: scenarios.count),
        ]
        for result in results {
            let marks = scenarios.map { scenario in result.cells.first { $0.scenario == scenario }.map { mark($0.verdict) } ?? "not run" }
            lines.append("| \(result.engine.kind.slug) | \(result.engine.backend.rawValue) | " + marks.joined(separator: " | ") + " |")
        }
        lines += ["", summary + ".", ""]
        if let baseline {
            lines += ["## Changed since the baseline", "",
                      "Compared with `\(baseline.directory)`: the keys the app saw and the input method's answers "
                        + "(preedits with their cursor and segments, commits, surrounding deletions), in order, cell by cell.", ""]
            lines += baseline.changed.isEmpty ? ["Every cell answered as in the baseline.", ""]
                : baseline.changed.map { "- **\($0.engine) \($0.scenario.rawValue)**: \(escaped($0.difference))" } + [""]
        }
        lines += [
            "## How long each engine took to answer", "",
            "Per key, in the app (its monotonic clock, milliseconds): from the key to the first change of "
                + "the composition, and to the first commit, before the next key; and from the key to the first "
                + "frame painted after its answer, when the user could see it. Keys answered with neither "
                + "are not counted. On Wayland the input method grabs the keyboard and the app never sees a key "
                + "the input method consumed: there is nothing to time from there (—).", "",
            "| engine | backend | key → preedit: median | p90 | keys | key → commit: median | p90 | keys "
                + "| key → painted frame: median | p90 | keys |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for result in results {
            let timing = result.timing
            func columns(_ values: [Int]) -> String {
                guard let s = KeyTiming.summary(values) else { return "— | — | 0" }
                return "\(s.median) ms | \(s.p90) ms | \(values.count)"
            }
            lines.append("| \(result.engine.kind.slug) | \(result.engine.backend.rawValue) | "
                + columns(timing.toPreedit) + " | " + columns(timing.toCommit) + " | " + columns(timing.toPaint) + " |")
        }
        lines.append("")
        if !skipped.isEmpty {
            lines += ["## Skipped", ""] + skipped.map { "- **\($0.engine.kind.slug)**: \(escaped($0.missing))" } + [""]
        }
        for result in results {
            let version = versions[result.engine.package].map { " \($0)" } ?? ""
            lines += ["## \(result.engine.kind.slug)", "",
                      "\(result.engine.backend.rawValue), IM module `\(result.engine.kind.imModule)`, "
                        + "`\(result.engine.package)`\(version).", ""]
            if let keys = result.engine.invariantKeys {
                lines += ["No expectations (the lab has no file for this engine): typed with `\(keys.joined(separator: " "))` "
                    + "and judged by the invariants every engine keeps — Enter while composing never sends; each commit "
                    + "reaches the text once, as committed; a composition never vanishes without a key, a commit, a focus "
                    + "change or a click to explain it; focus loss and a click leave the text with nothing, what was drawn "
                    + "or what was committed, once; the hard limit never cuts while composing.", ""]
            }
            for problem in result.problems { lines.append("- **session** — ❌ \(escaped(problem))") }
            for cell in result.cells {
                let seconds = String(format: "%.1f s", cell.seconds)
                lines.append("- **\(cell.scenario.rawValue)** — \(mark(cell.verdict)) (\(seconds)): \(escaped(cell.reason))")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}

/// Installed Debian packages: their versions and which owns a file, asked of `dpkg-query`
/// (dpkg's database files are its own business: their format is not an interface).
public enum DebianPackages {
    /// The installed package that owns `path` (`dpkg-query -S`), if any.
    public static func owner(of path: String) -> String? {
        query(["--search", path]).flatMap { owner(in: $0, of: path) }
    }

    /// The first package `dpkg-query -S` names for exactly `path` ("ibus-m17n: /usr/…",
    /// "libfoo:amd64, libfoo:i386: /usr/…"); diversion lines are not owners.
    public static func owner(in output: String, of path: String) -> String? {
        for line in output.split(separator: "\n") where !line.hasPrefix("diversion ") {
            guard let separator = line.range(of: ": "), line[separator.upperBound...] == path[...] else { continue }
            let first = line[..<separator.lowerBound].split(separator: ",").first ?? ""
            let name = first.trimmingCharacters(in: .whitespaces).split(separator: ":").first.map(String.init) ?? ""
            if !name.isEmpty { return name }
        }
        return nil
    }

    /// The installed versions of `names` (`dpkg-query -W`); a package not installed is absent.
    public static func versions(of names: Set<String>) -> [String: String] {
        guard !names.isEmpty,
              let output = query(["--show", "--showformat=${Package}\t${Version}\t${db:Status-Status}\n"] + names.sorted())
        else { return [:] }
        return versions(in: output, of: names)
    }

    /// Parses `dpkg-query -W -f '${Package}\t${Version}\t${db:Status-Status}\n'`.
    public static func versions(in output: String, of names: Set<String>) -> [String: String] {
        var found: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, fields[2] == "installed", names.contains(fields[0]), !fields[1].isEmpty,
                  found[fields[0]] == nil else { continue }
            found[fields[0]] = fields[1]
        }
        return found
    }

    /// dpkg-query's standard output; nil if it cannot run or does not answer in 10 s. It
    /// exits 1 when a name is not installed or a path is owned by none, and still prints
    /// what it found.
    private static func query(_ arguments: [String]) -> String? {
        guard case .success(let output) = BoundedCommand.run(
            "dpkg-query", arguments, environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"], timeout: 10)
        else { return nil }
        return output.stdout
    }
}
