#!/usr/bin/python3
"""Saves the state of the source tree as git sees it, and checks later that it is the same.

`make test` saves it before the run and checks it after: a test run leaves the tree as it
found it (its output goes under .build/, which git ignores). The state is every entry of
`git status` (tracked files changed, staged or deleted, untracked files; not ignored ones)
with a hash of its content: work a developer had not committed before the run is fine,
as long as the run leaves it as it was. What changed is listed; a file edited by hand
while the run went on is listed too.

Usage: scripts/tree-state.py save STATE_FILE
       scripts/tree-state.py check STATE_FILE [WHAT]   (WHAT names the run in the message)
Exit status of check: 0 same, 1 changed, 2 error. Outside a git work tree (a tarball) or
without git, save records that and check checks nothing.
"""
import hashlib
import json
import os
import pathlib
import subprocess
import sys

NOT_A_WORK_TREE = "not a git work tree"


def entries() -> dict[str, str] | None:
    """path -> "XY content" for every entry of git status; None outside a work tree."""
    try:
        inside = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"],
                                capture_output=True, text=True)
    except FileNotFoundError:
        return None
    if inside.returncode != 0 or inside.stdout.strip() != "true":
        return None
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                         check=True).stdout.strip()
    # --no-optional-locks: only look (no index refresh written); --no-renames: one path an
    # entry; -z: paths as they are (no quoting).
    status = subprocess.run(["git", "--no-optional-locks", "status", "--porcelain=v1", "-z",
                             "--untracked-files=all", "--no-renames"],
                            capture_output=True, check=True, cwd=top).stdout
    state = {}
    for record in status.split(b"\0"):
        if not record:
            continue
        code, path = record[:2].decode(), os.fsdecode(record[3:])
        state[path] = code + " " + content(pathlib.Path(top, path))
    return state


def content(path: pathlib.Path) -> str:
    if path.is_symlink():
        return "symlink " + os.readlink(path)
    if path.is_file():
        digest = hashlib.sha256()
        with path.open("rb") as file:
            for block in iter(lambda: file.read(1 << 20), b""):
                digest.update(block)
        return "sha256 " + digest.hexdigest()
    if path.is_dir():
        return "directory"  # a nested repository or submodule: its own state is its own
    return "missing"


def main() -> int:
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in ("save", "check"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    command, state_file = sys.argv[1], pathlib.Path(sys.argv[2])
    what = sys.argv[3] if len(sys.argv) == 4 else "the run"
    now = entries()
    if command == "save":
        state_file.parent.mkdir(parents=True, exist_ok=True)
        state_file.write_text(json.dumps(NOT_A_WORK_TREE if now is None else now, indent=1, sort_keys=True),
                              encoding="utf-8")
        return 0
    try:
        before = json.loads(state_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"tree-state: cannot read the state saved before {what}: {error}", file=sys.stderr)
        return 2
    if before == NOT_A_WORK_TREE or now is None:
        return 0
    changed = []
    for path in sorted(set(before) | set(now)):
        old, new = before.get(path), now.get(path)
        if old == new:
            continue
        if old is None:
            changed.append(f"  {new[:2]} {path}   (new: git status did not list it before)")
        elif new is None:
            changed.append(f"     {path}   (was '{old[:2]}' before, now as committed)")
        else:
            detail = "its content changed" if old[:2] == new[:2] else f"was '{old[:2]}' before"
            changed.append(f"  {new[:2]} {path}   ({detail})")
    if not changed:
        return 0
    print(f"{what} changed the source tree: `git status` lists files differently than before it "
          "(output belongs under .build/; a file edited during the run shows here too):")
    print("\n".join(changed))
    return 1


if __name__ == "__main__":
    sys.exit(main())
