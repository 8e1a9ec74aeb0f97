#!/usr/bin/env bash
# Counts what typed keys cost the whole composer process (every thread, the GL renderer's
# too) with callgrind: the release build in a private Xvfb + D-Bus session, a draft file,
# 4 warm-up keys, then the counters zeroed and 20 keys typed with xdotool; the dump is
# taken once the trace shows every key committed. Under callgrind the app is ~50x slower
# and takes the keys in batches, so compare runs of this script with each other (e.g. the
# same draft under and over the limit), not with `make bench`'s per-key timings.
#
#   Benchmarks/callgrind-keys.sh OUT_DIR DRAFT_FILE [ime-composer arguments…]
#   Benchmarks/callgrind-keys.sh /tmp/over  draft.txt --limit 200
#   Benchmarks/callgrind-keys.sh /tmp/under draft.txt --limit 10000000
#   callgrind_annotate --inclusive=yes /tmp/over/keys.callgrind | less
#
# Needs Xvfb, xdotool, valgrind, dbus-run-session; COMPOSER overrides the binary
# (default .build/release/ime-composer). Known to stall: with a 20 KB draft, twice, the app
# took no key after the counters were zeroed (the script then stops after 10 minutes,
# naming the wait); with 100 KB it has not, three times out of three. Cause not found.
set -euo pipefail
out=${1:?OUT_DIR}; draft=${2:?DRAFT_FILE}; shift 2
composer=$(realpath "${COMPOSER:-.build/release/ime-composer}")
draft=$(realpath "$draft")
mkdir -p "$out"; out=$(realpath "$out")
rm -rf "$out/home" "$out/runtime" "$out"/keys.callgrind* "$out/trace.jsonl"
mkdir -p "$out/home/.config/gtk-4.0" "$out/runtime"; chmod 700 "$out/runtime"
printf '[Settings]\ngtk-cursor-blink=false\n' > "$out/home/.config/gtk-4.0/settings.ini"
export HOME=$out/home XDG_RUNTIME_DIR=$out/runtime GSETTINGS_BACKEND=memory GSK_RENDERER=gl GTK_A11Y=none \
  GTK_IM_MODULE=gtk-im-context-simple PATH=/usr/bin:/bin:$PATH

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
display=
for n in $(seq 90 130); do
  [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { display=:$n; break; }
done
[ -n "$display" ] || { echo "callgrind-keys: no free X display" >&2; exit 1; }
Xvfb "$display" -screen 0 1024x768x24 -noreset >"$out/xvfb.log" 2>&1 & pids+=($!)
export DISPLAY=$display
for _ in $(seq 1 100); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done

# Whether the trace has a settle after its Nth commit.
settled_after() {
  awk -v n="$1" '/"origin":"im-commit"/ { c++; if (c == n) last = NR } /"ev":"settle"/ && last && NR > last { found = 1 }
       END { exit !found }' "$out/trace.jsonl"
}
committed() { grep -c '"origin":"im-commit"' "$out/trace.jsonl" 2>/dev/null || true; }
wait_for() {  # wait_for DESCRIPTION SECONDS COMMAND…
  local what=$1 seconds=$2; shift 2
  for _ in $(seq 1 $((seconds * 2))); do "$@" && return 0; sleep 0.5; done
  echo "callgrind-keys: timed out waiting for $what (log: $out/app.log)" >&2; exit 1
}

dbus-run-session -- valgrind --tool=callgrind --callgrind-out-file="$out/keys.callgrind" \
  "$composer" --profile "$out/home/profile" --text-file "$draft" --trace "$out/trace.jsonl" "$@" \
  >"$out/app.log" 2>&1 & pids+=($!)
wait_for "the app to be ready" 900 grep -qs '"ready"' "$out/trace.jsonl"
app=$(pgrep -f "valgrind.bin --tool=callgrind --callgrind-out-file=$out/keys.callgrind" | head -1)
pids=("$app" "${pids[@]}")
window=$(xdotool search --onlyvisible --name '.*' | tail -1)
xdotool windowfocus "$window"; xdotool mousemove --window "$window" 100 100; sleep 2
for key in w x y z; do xdotool key "$key"; sleep 0.5; done
wait_for "the warm-up keys" 600 test "$(committed)" -ge 4
wait_for "the settle after the warm-up keys" 600 settled_after 4
# Zeroed while the app was still busy with the warm-up keys' frames, callgrind left it
# stalled and the next keys never reached it (seen twice); zeroed once it idles, it goes on.
sleep 5
callgrind_control -z "$app" >/dev/null
for key in a b c d e f g h i j k l m n o p q r s t; do xdotool key "$key"; sleep 0.5; done
wait_for "the measured keys" 600 test "$(committed)" -ge 24
# The settle after the last commit (its effects on the widgets) belongs to the keys too.
wait_for "the settle after the last key" 600 settled_after 24
callgrind_control -d "$app" >/dev/null
echo "callgrind-keys: $out/keys.callgrind.1 (20 keys after 4 warm-up keys; the .callgrind file is start-up and exit)"
