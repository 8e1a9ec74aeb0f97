#!/usr/bin/python3
"""Writes the input-method matrix document from the end-to-end matrix's results (*.json).

`make test` runs it after a full run, into .build/ime-matrix.md from .build/ime-matrix/ (a
test run writes nothing into the source tree); `make matrix-doc` puts that document in
docs/ime-matrix.md. The document is never edited by hand. Each
result file is one engine's row (Sources/IMELab/Matrix/MatrixResults.swift writes it);
the columns are the scenarios in the order the files list them. Nothing run-dependent
(times, paths) goes in, so the document only changes when a result or a reason does.

Usage: scripts/ime-matrix.py RESULTS_DIR OUTPUT.md
"""
import json
import pathlib
import sys

MARK = {"passed": "✅ passed", "failed": "❌ failed", "n/a": "➖ n/a"}

# Known bugs of the stack the issue lists that no test checks yet, and why (shown as such).
NOT_CHECKED: dict[str, str] = {}


def main() -> int:
    results, output = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    rows = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(results.glob("*.json"))]
    if not rows:
        print(f"ime-matrix: no results in {results}: {output} left as it is", file=sys.stderr)
        return 0
    scenarios = []
    for row in rows:
        for cell in row["cells"]:
            if cell["scenario"] not in scenarios:
                scenarios.append(cell["scenario"])
    lines = [
        "# Input-method matrix",
        "",
        "Generated from a run of the end-to-end matrix "
        "(`Tests/EndToEndTests/Matrix/`, written by `scripts/ime-matrix.py`; `make matrix-doc` "
        "refreshes it): do not edit.",
        "Each engine runs in its own private session (X server, D-Bus, the input method's daemon) "
        "with the app under GTK's X11 backend (the `wayland-*` rows: headless sway, fcitx5 as the "
        "compositor's input method, GTK's `wayland` module); the app is started anew for each scenario. "
        "What each engine is expected to do is written down in its file in `data/lab/engines/`.",
        "",
        "| engine | " + " | ".join(scenarios) + " |",
        "|---|" + "---|" * len(scenarios),
    ]
    for row in rows:
        cells = {c["scenario"]: c for c in row["cells"]}
        marks = [MARK.get(cells[s]["result"], cells[s]["result"]) if s in cells else "not run" for s in scenarios]
        lines.append(f"| {row['engine']} | " + " | ".join(marks) + " |")
    totals = {k: sum(1 for r in rows for c in r["cells"] if c["result"] == k) for k in MARK}
    lines += ["", f"{totals['passed']} passed, {totals['failed']} failed, {totals['n/a']} not applicable.", ""]
    bugs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((results / "bugs").glob("*.json"))]
    if bugs or NOT_CHECKED:
        lines += ["## Known bugs of this stack (GTK 4.8.3, IBus 1.5.27, Fcitx5 5.0.21)", "",
                  "From `Tests/EndToEndTests/Matrix/KnownBugEndToEndTests.swift`; what each means for "
                  "users is in the README's quirks.", "",
                  "| bug | engine | result | evidence |", "|---|---|---|---|"]
        for bug in sorted(bugs, key=lambda b: (b["title"], b["engine"])):
            evidence = bug["evidence"].replace("|", "\\|")
            lines.append(f"| {bug['title']} | {bug['engine']} | {bug['result']} | {evidence} |")
        for title, why in NOT_CHECKED.items():
            lines.append(f"| {title} | — | not checked | {why} |")
        lines.append("")
    for row in rows:
        lines += [f"## {row['engine']}", "", f"IM module: `{row['module']}`.", ""]
        for cell in row["cells"]:
            reason = cell["reason"].replace("|", "\\|")
            lines.append(f"- **{cell['scenario']}** — {MARK.get(cell['result'], cell['result'])}: {reason}")
        lines.append("")
    output.write_text("\n".join(lines), encoding="utf-8")
    print(f"ime-matrix: {output}: {len(rows)} engines, {totals['passed']} passed, {totals['failed']} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
