#!/usr/bin/env bash
# What 41 keys cost the composer with the IME inspector open (or closed), measured from
# outside the process by `paint-meter keys --pid`: frames (X Damage events) per key and the
# whole process's CPU (every thread, the GL renderer's too). The release build in a private
# Xvfb + D-Bus session, an empty draft, GTK's simple input method, 4 warm-up keys.
#
#   Benchmarks/inspector-keys.sh OUT_DIR [open|closed]
#   COMPOSER=/tmp/old-ime-composer Benchmarks/inspector-keys.sh /tmp/old open
#
# Needs Xvfb, xdotool, dbus-run-session and `.build/bench/paint-meter` (`make bench` builds
# it). Compare runs of the same machine, one after the other: the figures follow its load.
set -euo pipefail
out=${1:?OUT_DIR}; inspector=${2:-open}
composer=$(realpath "${COMPOSER:-.build/release/ime-composer}")
meter=$(realpath .build/bench/paint-meter)
mkdir -p "$out"; out=$(realpath "$out")
rm -rf "$out/home" "$out/runtime" "$out/trace.jsonl" "$out/display" "$out/meter.jsonl"
: > "$out/draft.txt"
name=inspector-keys
. "$(dirname "$0")/private-session.sh"
setsid dbus-run-session -- "$composer" --profile "$out/home/profile" --text-file "$out/draft.txt" \
  --trace "$out/trace.jsonl" >"$out/app.log" 2>&1 & session=$!
for _ in $(seq 1 600); do grep -qs '"ready"' "$out/trace.jsonl" && break; sleep 0.1; done
grep -qs '"ready"' "$out/trace.jsonl" || { echo "inspector-keys: the app did not start (log: $out/app.log)" >&2; exit 1; }
app=$(pgrep -s "$session" -f -- "--trace $out/trace.jsonl" | while read -r pid; do
  [ "$(cat "/proc/$pid/comm")" != dbus-run-sessio ] && echo "$pid"; done | head -n 1)
window=$(xdotool search --onlyvisible --pid "$app" --name '.*' | tail -n 1)
xdotool windowfocus "$window"
if [ "$inspector" = open ]; then
  layouts=$(grep -c '"ev":"layout"' "$out/trace.jsonl" || true)
  xdotool key F12  # the window widens: a new layout line
  for _ in $(seq 1 100); do [ "$(grep -c '"ev":"layout"' "$out/trace.jsonl")" -gt "$layouts" ] && break; sleep 0.1; done
fi
"$meter" keys --pid "$app" --warmup "w a r m" --keys "$(echo {a..z} {a..o})" --quiet-ms 300 >"$out/meter.jsonl"
python3 - "$out/meter.jsonl" "$inspector" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
keys = [r for r in rows if r.get("type") == "key" and not r.get("warmup")]
cpu = next(r for r in rows if r.get("type") == "cpu")
print(f"inspector {sys.argv[2]}: {len(keys)} keys, {sum(r['frames'] for r in keys) / len(keys):.2f} frames a key, "
      f"CPU {cpu['cpu_ns'] / 1e6:.0f} ms (every thread), {cpu['wakeups']} wake-ups")
PY
