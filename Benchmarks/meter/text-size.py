#!/usr/bin/python3
"""The size of a program's editable text widget, read through AT-SPI (python3-pyatspi).

    text-size.py PID [--lines] [--timeout SECONDS]

Prints one JSON object, {"width": W, "height": H, "characters": N} (logical pixels; the
text's length in characters), for the first editable
text object of the application with process id PID, depth first (the composer's input,
the reference GtkTextView), once it is the same twice in a row 200 ms apart; with --lines
also "line_starts", the character offset where each display line starts (where the text
wraps). Else {"error": ...} and exit status 1. Run with Debian's /usr/bin/python3 in the
program's session (DISPLAY, DBUS_SESSION_BUS_ADDRESS).

`make bench` gives the plain GtkTextView the composer's input size, so the same keys wrap
the same lines and scroll the same view in both: GTK fades a scroll indicator in and out
(~45 frames) each time a typed line wraps in a text view that scrolls.
"""
import json
import os
import sys
import time

import pyatspi
from gi.repository import GLib

# The application lookup the tests' AT-SPI probe already has.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "Tests", "Drivers"))
from atspi_probe import application  # noqa: E402


def editable_text(node, depth=0):
    if node is None or depth > 40:
        return None
    if node.getRoleName() == "text" and node.getState().contains(pyatspi.STATE_EDITABLE):
        return node
    for index in range(node.childCount):
        found = editable_text(node.getChildAtIndex(index), depth + 1)
        if found is not None:
            return found
    return None


def line_starts(text):
    """The offsets where the text's display lines start (GTK answers with display lines)."""
    count, offset, starts = text.characterCount, 0, []
    while offset < count:
        _, start, end = text.getTextAtOffset(offset, pyatspi.TEXT_BOUNDARY_LINE_START)
        starts.append(start)
        offset = max(end, offset + 1)
    return starts


def main(argv):
    if len(argv) < 2:
        print("usage: text-size.py PID [--lines] [--timeout SECONDS]", file=sys.stderr)
        return 2
    pid = int(argv[1])
    timeout = float(argv[argv.index("--timeout") + 1]) if "--timeout" in argv else 20.0
    deadline = time.monotonic() + timeout
    while True:
        app = application(pid, max(0.0, deadline - time.monotonic()))
        try:
            text = editable_text(app)
            if text is not None:
                # The same size twice, 200 ms apart: the window has settled (an input that
                # grows to its text does so in its first frames).
                extents = text.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
                time.sleep(0.2)
                again = text.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
                if extents.width > 0 and (again.width, again.height) == (extents.width, extents.height):
                    answer = {"width": extents.width, "height": extents.height,
                              "characters": text.queryText().characterCount}
                    if "--lines" in argv:
                        answer["line_starts"] = line_starts(text.queryText())
                    print(json.dumps(answer))
                    return 0
        except GLib.GError:
            pass  # the application leaving the bus meanwhile
        if time.monotonic() >= deadline:
            print(json.dumps({"error": f"no editable text with a width in process {pid} within {timeout} s"}))
            return 1
        time.sleep(0.05)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
