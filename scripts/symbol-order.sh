#!/usr/bin/env bash
# Writes scripts/ime-composer.order (`make symbol-order`): the functions of the release
# ime-composer that run while it starts, reads its people, channels and emoji, and takes
# typed keys, a mention and an emoji query, as callgrind lists them. Package.swift has lld
# place them first in .text, together: the pages of code the running app touches are then
# few. Spread over the 20 MB of .text as the linker found them, they kept 14 MB of the
# binary resident (fault-around maps 64 KB around each page touched); grouped, 11 MB
# (issue #35, docs/benchmarks.md's findings).
#
# A stale list costs nothing but memory: functions not in it are placed after it, and
# names that no longer exist are ignored. Re-run it after large changes to what runs at
# start-up or per key. Needs valgrind, Xvfb, xdotool, dbus-run-session (as
# Benchmarks/callgrind-keys.sh, which it runs); about 5 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
composer=$(realpath "${COMPOSER:-.build/release/ime-composer}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'hello world\n' > "$work/draft.txt"
# With accessibility on, as on a desktop (and in `make bench`): its code runs at start-up too.
STARTUP=keep VALGRIND_ARGS=--demangle=no COMPOSER="$composer" GTK_A11Y=atspi \
  KEYS="a b at t a n space colon c a t space" Benchmarks/callgrind-keys.sh "$work/run" "$work/draft.txt"
# Every function callgrind saw run in the binary (fn= and cfn= lines whose object is it),
# in the order of the dumps: start-up, keys, exit.
python3 - "$composer" "$work"/run/keys.callgrind.1 "$work"/run/keys.callgrind.2 "$work"/run/keys.callgrind \
  > "$work/order" <<'PY'
import re, sys
binary, dumps = sys.argv[1], sys.argv[2:]
seen = {}
for path in dumps:
    objects, functions = {}, {}
    current = called = None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^(c?ob)=\((\d+)\)(?: (.*))?$", line)
        if m:
            kind, number, name = m.groups()
            if name:
                objects[number] = name
            if kind == "ob":
                current, called = objects.get(number), None
            else:
                called = objects.get(number)
            continue
        m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
        if not m:
            continue
        kind, number, name = m.groups()
        if name:
            functions[number] = name
        name = functions.get(number)
        owner = current if kind == "fn" else (called or current)
        if kind == "fn":
            called = None
        if name and owner == binary:
            seen.setdefault(re.sub(r"'\d+$", "", name), None)
for name in seen:
    print(name)
PY
count=$(wc -l < "$work/order")
[ "$count" -gt 1000 ] || { echo "symbol-order: only $count functions found; not writing scripts/ime-composer.order" >&2; exit 1; }
mv "$work/order" scripts/ime-composer.order
echo "symbol-order: scripts/ime-composer.order, $count functions"
