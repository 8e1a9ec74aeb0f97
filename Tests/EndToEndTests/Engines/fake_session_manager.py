#!/usr/bin/python3
"""A stand-in for gnome-session on a private session bus: owns org.gnome.SessionManager and
answers Inhibit/Uninhibit/IsInhibited as gnome-session does, logging each call, one line each,
to the file given as the first argument ("ready" once the name is owned). Only for the
end-to-end test of the composer's logout inhibit: GTK asks this interface
(GtkApplication's inhibit API), so the test sees exactly what a GNOME session would get."""
import sys
from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.gnome.SessionManager">
    <method name="Inhibit">
      <arg type="s" name="app_id" direction="in"/>
      <arg type="u" name="toplevel_xid" direction="in"/>
      <arg type="s" name="reason" direction="in"/>
      <arg type="u" name="flags" direction="in"/>
      <arg type="u" name="inhibit_cookie" direction="out"/>
    </method>
    <method name="Uninhibit">
      <arg type="u" name="inhibit_cookie" direction="in"/>
    </method>
    <method name="IsInhibited">
      <arg type="u" name="flags" direction="in"/>
      <arg type="b" name="is_inhibited" direction="out"/>
    </method>
  </interface>
</node>
"""

log = open(sys.argv[1], "a", buffering=1)
active = {}
next_cookie = [1]


def on_call(connection, sender, path, interface, method, parameters, invocation):
    if method == "Inhibit":
        app_id, xid, reason, flags = parameters.unpack()
        cookie = next_cookie[0]
        next_cookie[0] += 1
        active[cookie] = flags
        log.write(f"inhibit {cookie} flags={flags} app={app_id} reason={reason}\n")
        invocation.return_value(GLib.Variant("(u)", (cookie,)))
    elif method == "Uninhibit":
        (cookie,) = parameters.unpack()
        active.pop(cookie, None)
        log.write(f"uninhibit {cookie}\n")
        invocation.return_value(None)
    elif method == "IsInhibited":
        (flags,) = parameters.unpack()
        invocation.return_value(GLib.Variant("(b)", (any(f & flags for f in active.values()),)))


def on_bus(connection, name):
    node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
    connection.register_object("/org/gnome/SessionManager", node.interfaces[0], on_call, None, None)


def on_name(connection, name):
    log.write("ready\n")


Gio.bus_own_name(Gio.BusType.SESSION, "org.gnome.SessionManager", Gio.BusNameOwnerFlags.NONE,
                 on_bus, on_name, lambda *args: sys.exit(1))
GLib.MainLoop().run()
