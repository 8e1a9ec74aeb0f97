# Sourced by the measuring scripts (callgrind-keys.sh, inspector-keys.sh): a private home
# and runtime directory under $out, GTK settled for measuring (no blinking caret, GTK's
# simple input method, $GSK_RENDERER or gl, accessibility $GTK_A11Y or none), and a private
# Xvfb whose display is exported. Whatever the script starts in $session (a process group
# of its own: `setsid … & session=$!`) is ended at exit, before the display.
#
#   out=… name=… ; . Benchmarks/private-session.sh
mkdir -p "$out/home/.config/gtk-4.0" "$out/runtime"; chmod 700 "$out/runtime"
printf '[Settings]\ngtk-cursor-blink=false\n' > "$out/home/.config/gtk-4.0/settings.ini"
export HOME=$out/home XDG_RUNTIME_DIR=$out/runtime GSETTINGS_BACKEND=memory GSK_RENDERER=${GSK_RENDERER:-gl} \
  GTK_A11Y=${GTK_A11Y:-none} GTK_IM_MODULE=gtk-im-context-simple PATH=/usr/bin:/bin:$PATH

xvfb= session=
# The D-Bus session (dbus-run-session, its bus, the app) is a process group of its own,
# ended as a whole before its display: killed alone, dbus-run-session left its bus daemon
# running after the script.
cleanup() {
  [ -z "$session" ] || kill -- "-$session" 2>/dev/null || true
  [ -z "$xvfb" ] || kill "$xvfb" 2>/dev/null || true
}
trap cleanup EXIT
# Xvfb picks a free display itself and writes its number once it listens: two runs at the
# same time once chose the same free-looking number, and one app got both runs' keys.
Xvfb -displayfd 3 -screen 0 1024x768x24 -noreset 3>"$out/display" >"$out/xvfb.log" 2>&1 & xvfb=$!
for _ in $(seq 1 100); do [ -s "$out/display" ] && break; sleep 0.1; done
[ -s "$out/display" ] || { echo "$name: Xvfb did not start (log: $out/xvfb.log)" >&2; exit 1; }
export DISPLAY=:$(head -n 1 "$out/display")
for _ in $(seq 1 100); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done
