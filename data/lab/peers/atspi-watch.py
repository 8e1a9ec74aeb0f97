"""What another application's input and conversation hold, read through AT-SPI, as JSON lines.

The lab's peers (`ime-composer matrix --app NAME`) are applications we did not write: they
have no trace. This watcher stands in for one: run in the app's session (the same DISPLAY and
DBUS_SESSION_BUS_ADDRESS; Debian's /usr/bin/python3 with python3-gi and gir1.2-atspi-2.0), it
prints a line each time what a person sees changes (T: milliseconds since it started):

    {"ev": "ready", "ms": T, "app": NAME, "window": TITLE, "extents": [X, Y, W, H]}
                                                    the input was found (its window's title, its
                                                    place in the window)
    {"ev": "text", "ms": T, "text": S, "caret": N, "selection": [START, END], "first": [X, Y, W, H],
     "frame": [W, H]}
                                                    the input's text (what was committed: GTK
                                                    keeps a composition out of it), caret,
                                                    selection (START = END: none), where its
                                                    first character is in the window (a click
                                                    there puts the caret before it) and the
                                                    size of the window as AT-SPI measures it
    {"ev": "focus", "ms": T, "in": BOOL}             the input gained or lost the focus
    {"ev": "log", "ms": T, "text": S}                the conversation's text (chat apps)
    {"ev": "receiver", "ms": T, "ready": true}       the receiver is logged in (see below)
    {"ev": "receiver", "ms": T, "exit": N, "stderr": S}
                                                    the receiver ended (its error output)

    atspi-watch.py PID CONFIG

CONFIG is the peer's "accessible" object (data/lab/peers/NAME.json) as JSON: "input" and
optionally "log", each {"role": ROLE, "name": NAME} (NAME "" matches any); "log" may add
"collect": "labels" (its text is its labels' texts, a line each) instead of its own text.
Instead of "log", "receiver" may be a command (a list) that prints {"ready": true} and then
{"body": TEXT} for each message the other end of the conversation receives
(xmpp-receive.py): the "log" lines are then those bodies, a line each. It runs as the
watcher's child and dies with it.
The input is the focused editable object with the role (and name); it is looked up again
when it goes away. Each accessibility event of the app makes it read both again; so does a
timer every 250 ms, for changes no event announces. Every line is flushed at once.
"""
import ctypes
import json
import os
import subprocess
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

PID = int(sys.argv[1])
CONFIG = json.loads(sys.argv[2])
START = time.monotonic()
state = {"app": None, "input": None, "text": None, "log": None, "focused": None, "ready": False, "pending": False}


def emit(event, **fields):
    line = {"ev": event, "ms": int((time.monotonic() - START) * 1000)}
    line.update(fields)
    print(json.dumps(line, ensure_ascii=False), flush=True)


def application():
    desktop = Atspi.get_desktop(0)
    for index in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(index)
        try:
            if app is not None and app.get_process_id() == PID and app.get_child_count() > 0:
                return app
        except GLib.Error:
            pass  # an application leaving the bus meanwhile
    return None


def walk(node, depth=0):
    yield node
    if depth >= 60:
        return
    try:
        count = node.get_child_count()
    except GLib.Error:
        return
    for index in range(count):
        try:
            child = node.get_child_at_index(index)
        except GLib.Error:
            continue
        if child is not None:
            yield from walk(child, depth + 1)


def matches(node, spec):
    try:
        return node.get_role_name() == spec["role"] and (not spec.get("name") or node.get_name() == spec["name"])
    except GLib.Error:
        return False


def text_of(node):
    """The whole text: GTK 4.8's GtkText answers get_text(0, -1) with "" (count it instead)."""
    count = Atspi.Text.get_character_count(node)
    text = Atspi.Text.get_text(node, 0, count) if count > 0 else ""
    return text, Atspi.Text.get_caret_offset(node)


def selection_of(node):
    if Atspi.Text.get_n_selections(node) < 1:
        return [0, 0]
    span = Atspi.Text.get_selection(node, 0)
    return [min(span.start_offset, span.end_offset), max(span.start_offset, span.end_offset)]


def first_character(node, text):
    """Where the first character is, in the window: GTK 4.8 has no character extents for a
    GtkEntry (an error), so there it is the input's left edge: its extents are those of the
    entry's text (GtkText), inside the entry's border and padding."""
    if not text:
        return [0, 0, 0, 0]
    try:
        box = Atspi.Text.get_character_extents(node, 0, Atspi.CoordType.WINDOW)
        if box.height > 0:
            return [box.x, box.y, box.width, box.height]
    except GLib.Error:
        pass
    box = Atspi.Component.get_extents(node, Atspi.CoordType.WINDOW)
    return [box.x, box.y, 1, box.height]


def window_of(node):
    while node is not None and node.get_role() != Atspi.Role.FRAME:
        node = node.get_parent()
    return node


def window_title(node):
    window = window_of(node)
    return window.get_name() if window is not None else ""


def window_size(node):
    """The size of the input's window as AT-SPI gives it. GTK 4.8 measures every extent from
    the window's content, inside the border a window without a compositor draws around it
    (Adwaita's solid-csd: Dino's 911x389 X window is a 901x379 frame), so the X window's
    size minus this one is that border, which a click has to add to the extents."""
    window = window_of(node)
    if window is None:
        return [0, 0]
    box = Atspi.Component.get_extents(window, Atspi.CoordType.WINDOW)
    return [box.width, box.height]


def find_input(app):
    for node in walk(app):
        if matches(node, CONFIG["input"]):
            states = node.get_state_set()
            if states.contains(Atspi.StateType.EDITABLE) and states.contains(Atspi.StateType.FOCUSED):
                return node
    return None


def read_log(app):
    """The conversation's text: every object that matches, a line each (Dino keeps a view
    per conversation). The objects are looked up once, and again at most every 2 s while
    they show nothing (an app may replace them as it loads the conversation);
    walking a chat app's whole tree on every event took longer than the events came."""
    spec = CONFIG.get("log")
    if not spec:
        return None
    now = time.monotonic()
    if not state.get("log_nodes") or (not state.get("log") and now - state.get("log_found", 0) > 2):
        # GTK 4.8 does not announce every child it adds (a message's label in Dino's
        # conversation): what libatspi keeps of the tree is dropped before looking.
        app.clear_cache()
        state["log_nodes"] = [node for node in walk(app) if matches(node, spec)]
        state["log_found"] = now
    texts = []
    for node in state["log_nodes"]:
        node.clear_cache()
        if spec.get("collect") == "labels":
            texts.extend(text_of(label)[0] for label in walk(node) if label.get_role_name() == "label")
        else:
            texts.append(text_of(node)[0])
    return "\n".join(text for text in texts if text)


def read():
    state["pending"] = False
    try:
        if state["app"] is None:
            state["app"] = application()
            if state["app"] is None:
                return False
        if state["input"] is None:
            state["input"] = find_input(state["app"])
            if state["input"] is None:
                return False
            if not state["ready"]:
                state["ready"] = True
                # GTK 4 knows no screen position: its extents are the window's own coordinates.
                box = Atspi.Component.get_extents(state["input"], Atspi.CoordType.WINDOW)
                emit("ready", app=state["app"].get_name(), window=window_title(state["input"]),
                     extents=[box.x, box.y, box.width, box.height])
        focused = state["input"].get_state_set().contains(Atspi.StateType.FOCUSED)
        if not focused:
            # Another input of the same kind may have the focus now (Polari has one per
            # room, and shows the channel's once it is joined): follow it.
            other = find_input(state["app"])
            if other is not None:
                state["input"], focused = other, True
        if focused != state["focused"]:
            state["focused"] = focused
            emit("focus", **{"in": focused})
        text = text_of(state["input"]) + (selection_of(state["input"]),)
        if text != state["text"]:
            state["text"] = text
            emit("text", text=text[0], caret=text[1], selection=text[2], first=first_character(state["input"], text[0]),
                 frame=window_size(state["input"]))
        log = read_log(state["app"])
        if log is not None and log != state["log"]:
            state["log"] = log
            emit("log", text=log)
    except GLib.Error:
        # The input (or the app) went away: find it again on the next read.
        state["input"] = None
        state["app"] = None
        state["log_nodes"] = None
    return False


def on_event(event):
    try:
        if event.source is None or event.source.get_process_id() != PID:
            return
    except GLib.Error:
        return
    if not state["pending"]:
        state["pending"] = True
        GLib.idle_add(read)


def tick():
    read()
    return True


def start_receiver(command):
    """Runs the receiver (dying with the watcher: PR_SET_PDEATHSIG) and turns its lines into events."""
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=lambda: libc.prctl(1, 15))
    received, pending = [], [b""]

    def on_output(fd, condition):
        data = os.read(fd, 65536) if condition & GLib.IO_IN else b""
        if not data:
            errors = process.stderr.read().decode("utf-8", "replace")[-2000:]
            emit("receiver", exit=process.wait(), stderr=errors)
            return False
        lines = (pending[0] + data).split(b"\n")
        pending[0] = lines.pop()
        for line in lines:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get("ready"):
                emit("receiver", ready=True)
            elif "body" in message:
                received.append(message["body"])
                emit("log", text="\n".join(received))
        return True

    GLib.io_add_watch(process.stdout.fileno(), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, on_output)


if CONFIG.get("receiver"):
    start_receiver(CONFIG["receiver"])
listener = Atspi.EventListener.new(on_event)
for kind in ("object:text-changed", "object:text-caret-moved", "object:text-selection-changed", "object:state-changed:focused",
             "object:children-changed", "object:property-change:accessible-name"):
    listener.register(kind)
GLib.timeout_add(250, tick)
GLib.idle_add(read)
Atspi.event_main()
