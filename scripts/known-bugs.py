#!/usr/bin/python3
"""Writes the known-bugs document from the known-bug checks' results (*.json).

`Tests/EndToEndTests/Matrix/KnownBugEndToEndTests.swift` checks each known upstream bug of
this stack against the real engines and writes one file per bug and engine where
IME_KNOWN_BUGS says (`make test`: .build/known-bugs/). `make test` runs this script into
.build/known-bugs.md after a full run; `make matrix-doc` puts that document in
docs/known-bugs.md. Never edited by hand; nothing run-dependent (times, paths) goes in.

Usage: scripts/known-bugs.py RESULTS_DIR OUTPUT.md
"""
import json
import pathlib
import sys


def main() -> int:
    results, output = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    bugs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(results.glob("*.json"))]
    if not bugs:
        print(f"known-bugs: no results in {results}: {output} not written", file=sys.stderr)
        return 0
    lines = [
        "# Known bugs of this stack (GTK 4.8.3, IBus 1.5.27, Fcitx5 5.0.21)",
        "",
        "Generated from a run of `Tests/EndToEndTests/Matrix/KnownBugEndToEndTests.swift` "
        "(`scripts/known-bugs.py`; `make matrix-doc` refreshes it): do not edit. Each known upstream "
        "bug is checked against the real engines, each in its own private session: whether the "
        "composer is affected. What each means for users is in the README's quirks; the engines' "
        "matrix is [ime-matrix.md](ime-matrix.md).",
        "",
        "| bug | engine | result | evidence |",
        "|---|---|---|---|",
    ]
    for bug in sorted(bugs, key=lambda b: (b["title"], b["engine"])):
        evidence = bug["evidence"].replace("|", "\\|")
        lines.append(f"| {bug['title']} | {bug['engine']} | {bug['result']} | {evidence} |")
    lines.append("")
    output.write_text("\n".join(lines), encoding="utf-8")
    affected = sum(1 for b in bugs if b["result"] == "affected")
    print(f"known-bugs: {output}: {len(bugs)} checks, {affected} affected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
