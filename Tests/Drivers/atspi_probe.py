#!/usr/bin/python3
"""What a screen reader gets from the composer, read through AT-SPI (python3-pyatspi).

Run with Debian's /usr/bin/python3 (pyenv's has no gi/pyatspi), in the app's session: the
same DISPLAY and DBUS_SESSION_BUS_ADDRESS (the accessibility bus is found through it).

    atspi_probe.py tree PID      one JSON object: the application's accessible tree
    atspi_probe.py listen PID    one JSON line per accessibility event of that process,
                                 after a first line {"ready": true} once listening
    atspi_probe.py click PID ROLE NAME
                                 does the first action of the control ROLE named NAME

`tree` waits (up to --timeout seconds) until the application is registered with a window
on the accessibility bus. Every node: role (AT-SPI's role name), name, description, states,
the widget's GTK type when the toolkit tells it (no: GTK 4.8 does not), and children.
`listen` runs until killed; every line is flushed at once (the test reads the file while it
grows).
"""
import json
import sys
import time

import pyatspi
from gi.repository import GLib


def application(pid, timeout):
    """The accessible application of process `pid` once it shows a window, or None."""
    deadline = time.monotonic() + timeout
    while True:
        desktop = pyatspi.Registry.getDesktop(0)
        for index in range(desktop.childCount):
            app = desktop.getChildAtIndex(index)
            try:
                if app is not None and app.get_process_id() == pid and app.childCount > 0:
                    return app
            except GLib.GError:
                pass  # an application leaving the bus meanwhile
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)  # polled: the registry has no "application added" wait


def describe(node, depth=0):
    states = node.getState().getStates()
    entry = {
        "role": node.getRoleName(),
        "name": node.name or "",
        "description": node.description or "",
        "states": sorted(pyatspi.stateToString(s) for s in states),
        "children": [],
    }
    try:
        selection = node.querySelection()
        entry["selectedChildren"] = selection.nSelectedChildren
    except NotImplementedError:
        pass
    if depth < 40:
        for index in range(node.childCount):
            child = node.getChildAtIndex(index)
            if child is not None:
                entry["children"].append(describe(child, depth + 1))
    return entry


def tree(pid, timeout):
    app = application(pid, timeout)
    if app is None:
        print(json.dumps({"error": f"no accessible application with pid {pid} within {timeout} s"}))
        return 1
    print(json.dumps(describe(app), ensure_ascii=False))
    return 0


EVENTS = [
    "object:property-change:accessible-name",
    "object:property-change:accessible-description",
    "object:state-changed",
    "object:text-changed",
    "object:selection-changed",
    "object:active-descendant-changed",
    "object:children-changed",
    "object:announcement",
]


def listen(pid, timeout):
    def emit(payload):
        sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
        sys.stdout.flush()

    def on_event(event):
        source = event.source
        try:
            if source is None or source.get_process_id() != pid:
                return
            role, name = source.getRoleName(), source.name or ""
            description = source.description or ""
        except GLib.GError:
            return
        any_data = event.any_data
        if not isinstance(any_data, (str, int, float, bool, type(None))):
            try:
                any_data = {"role": any_data.getRoleName(), "name": any_data.name or ""}
            except Exception:  # noqa: BLE001 - anything else is only shown as text
                any_data = str(any_data)
        emit({"type": event.type, "role": role, "name": name, "description": description,
              "detail1": event.detail1, "detail2": event.detail2, "data": any_data})

    # GTK 4.8 sends an object's events only once its accessible is realized, which a client
    # reading it does: walk the tree first, as a screen reader does when a window shows.
    app = application(pid, timeout)
    if app is None:
        emit({"error": f"no accessible application with pid {pid} within {timeout} s"})
        return 1
    describe(app)
    pyatspi.Registry.registerEventListener(on_event, *EVENTS)
    # The listener's match rules are on the bus once registerEventListener returns.
    GLib.idle_add(lambda: emit({"ready": True}) and False)
    pyatspi.Registry.start()
    return 0


def find(node, role, name):
    """The first node of `role` named `name`, depth first."""
    if node.getRoleName() == role and (node.name or "") == name:
        return node
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        found = find(child, role, name) if child is not None else None
        if found is not None:
            return found
    return None


def click(pid, role, name, timeout):
    """Does the first action ("click") of the control, as a screen reader user would."""
    app = application(pid, timeout)
    control = find(app, role, name) if app is not None else None
    if control is None:
        print(json.dumps({"error": f"no {role} named {name!r}"}))
        return 1
    action = control.queryAction()
    done = action.doAction(0)
    print(json.dumps({"action": action.getName(0), "done": bool(done)}))
    return 0 if done else 1


def main(argv):
    if len(argv) < 3 or argv[1] not in ("tree", "listen", "click") or (argv[1] == "click" and len(argv) < 5):
        sys.stderr.write(__doc__)
        return 2
    pid = int(argv[2])
    timeout = float(argv[argv.index("--timeout") + 1]) if "--timeout" in argv else 20.0
    if argv[1] == "click":
        return click(pid, argv[3], argv[4], timeout)
    return tree(pid, timeout) if argv[1] == "tree" else listen(pid, timeout)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
