#!/usr/bin/python3
"""Prints the CLIPBOARD's text of $DISPLAY (read with GTK 4), for the end-to-end tests.
Exit 1 when there is no text, 2 when nothing answers within five seconds."""
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import GLib, Gtk  # noqa: E402

Gtk.init()
clipboard = Gtk.Window().get_display().get_clipboard()
loop = GLib.MainLoop()
result = {"status": 2}


def done(source, task):
    try:
        text = source.read_text_finish(task)
    except GLib.Error as error:
        print("read_clipboard: %s" % error.message, file=sys.stderr)
        text = None
    if text is None:
        result["status"] = 1
    else:
        sys.stdout.write(text)
        result["status"] = 0
    loop.quit()


clipboard.read_text_async(None, done)
GLib.timeout_add_seconds(5, loop.quit)
loop.run()
sys.exit(result["status"])
