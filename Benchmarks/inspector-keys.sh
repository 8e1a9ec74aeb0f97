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
mkdir -p "$out/home/.config/gtk-4.0" "$out/runtime"; chmod 700 "$out/runtime"
printf '[Settings]\ngtk-cursor-blink=false\n' > "$out/home/.config/gtk-4.0/settings.ini"
: > "$out/draft.txt"
export HOME=$out/home XDG_RUNTIME_DIR=$out/runtime GSETTINGS_BACKEND=memory GSK_RENDERER=${GSK_RENDERER:-gl} GTK_A11Y=none \
  GTK_IM_MODULE=gtk-im-context-simple PATH=/usr/bin:/bin:$PATH

xvfb= session=
cleanup() {
  [ -z "$session" ] || kill -- "-$session" 2>/dev/null || true
  [ -z "$xvfb" ] || kill "$xvfb" 2>/dev/null || true
}
trap cleanup EXIT
Xvfb -displayfd 3 -screen 0 1024x768x24 -noreset 3>"$out/display" >"$out/xvfb.log" 2>&1 & xvfb=$!
for _ in $(seq 1 100); do [ -s "$out/display" ] && break; sleep 0.1; done
[ -s "$out/display" ] || { echo "inspector-keys: Xvfb did not start (log: $out/xvfb.log)" >&2; exit 1; }
export DISPLAY=:$(head -n 1 "$out/display")
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
