#!/usr/bin/python3
"""Prints the accessible tree of the application with process id PID, as AT-SPI (what a
screen reader reads) shows it: one JSON object per line, {"depth", "role", "name"}, for
every accessible. Exit status 3 when the application is not (yet) on the accessibility
bus, so that a test can wait for it.

usage: atspi-tree.py PID
"""
import json
import sys

import pyatspi


def main() -> int:
    pid = int(sys.argv[1])
    desktop = pyatspi.Registry.getDesktop(0)
    apps = [app for app in desktop if app is not None and app.get_process_id() == pid]
    if not apps:
        return 3

    def walk(node, depth):
        try:
            print(json.dumps({"depth": depth, "role": node.getRoleName(), "name": node.name or ""},
                             ensure_ascii=False))
            children = [node.getChildAtIndex(i) for i in range(node.childCount)]
        except Exception:  # gone while being read (the window changed): skip it
            return
        for child in children:
            if child is not None:
                walk(child, depth + 1)

    walk(apps[0], 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
