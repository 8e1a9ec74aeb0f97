// The IME lab's hands in a private headless GNOME Shell 43 session (ime-composer matrix
// --backend gnome): a virtual keyboard and pointer (Clutter virtual devices, so keys go the
// way a real keyboard's do: mutter → gnome-shell's input method → IBus → text-input-v3),
// the windows with their process and frame, and activation. Installed only in the
// session's private HOME and enabled only there; exported on the session's private bus.
'use strict';

const { Gio, GLib, Clutter } = imports.gi;
const Main = imports.ui.main;
const IBusManager = imports.misc.ibusManager;

const IFACE = `<node><interface name="org.imecomposer.Lab">
  <method name="Keys"><arg type="as" direction="in" name="names"/></method>
  <method name="Click"><arg type="i" direction="in" name="x"/><arg type="i" direction="in" name="y"/></method>
  <method name="Windows"><arg type="s" direction="out" name="json"/></method>
  <method name="Activate"><arg type="i" direction="in" name="pid"/><arg type="b" direction="out" name="found"/></method>
  <method name="HideOverview"><arg type="b" direction="out" name="visible"/></method>
  <method name="Move"><arg type="i" direction="in" name="pid"/><arg type="i" direction="in" name="x"/><arg type="i" direction="in" name="y"/><arg type="b" direction="out" name="found"/></method>
  <method name="Keyboard"><arg type="s" direction="out" name="json"/></method>
  <method name="CloseKeyboard"></method>
</interface></node>`;

const MODIFIERS = { ctrl: 'Control_L', control: 'Control_L', shift: 'Shift_L', alt: 'Alt_L', super: 'Super_L' };

class Lab {
    constructor() {
        const seat = Clutter.get_default_backend().get_default_seat();
        this._keyboard = seat.create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
        this._pointer = seat.create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
    }

    // Each name a keysym name, optionally with modifiers ("ctrl+a"): pressed and released.
    Keys(names) {
        for (const name of names) {
            const syms = name.split('+').map(part => Clutter[`KEY_${MODIFIERS[part.toLowerCase()] ?? part}`]);
            if (syms.some(sym => sym === undefined))
                throw new Error(`unknown key ${name}`);
            for (const sym of syms)
                this._keyboard.notify_keyval(GLib.get_monotonic_time(), sym, Clutter.KeyState.PRESSED);
            for (const sym of syms.reverse())
                this._keyboard.notify_keyval(GLib.get_monotonic_time(), sym, Clutter.KeyState.RELEASED);
        }
    }

    Click(x, y) {
        this._pointer.notify_absolute_motion(GLib.get_monotonic_time(), x, y);
        this._pointer.notify_button(GLib.get_monotonic_time(), Clutter.BUTTON_PRIMARY, Clutter.ButtonState.PRESSED);
        this._pointer.notify_button(GLib.get_monotonic_time(), Clutter.BUTTON_PRIMARY, Clutter.ButtonState.RELEASED);
    }

    Windows() {
        return JSON.stringify(global.get_window_actors().map(actor => actor.meta_window).map(window => {
            const rect = window.get_frame_rect();
            return { pid: window.get_pid(), x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                     focused: window.has_focus() };
        }));
    }

    // Puts a window's frame at x, y (as a user dragging it there).
    Move(pid, x, y) {
        const window = global.get_window_actors().map(actor => actor.meta_window).find(w => w.get_pid() === pid);
        if (!window)
            return false;
        window.move_frame(true, x, y);
        return true;
    }

    // GNOME's on-screen keyboard (there when org.gnome.desktop.a11y.applications
    // screen-keyboard-enabled is true): shown or not, and where it is on the stage (it
    // waits below the monitor's bottom edge and slides up into view).
    Keyboard() {
        const keyboard = Main.keyboard.keyboardActor;
        const box = Main.layoutManager.keyboardBox;
        const [, top] = keyboard ? keyboard.get_transformed_position() : [0, box.y];
        return JSON.stringify({ visible: !!Main.keyboard.visible, top: Math.round(top),
                                height: keyboard ? keyboard.height : 0 });
    }

    // GNOME Shell 43.9's keyboard cannot close where ibus-typing-booster is not installed:
    // Keyboard.close() first turns the keyboard's word completion off
    // (misc/ibusManager.js setCompletionEnabled(false)), which, its state never set because
    // open() returned early for the missing engine, opens that engine's settings schema
    // and throws "GSettings schema org.freedesktop.ibus.engine.typing-booster not found"
    // before anything closes. Said so here, the completion state is set to what it is
    // (off) first, which is all the call would do.
    CloseKeyboard() {
        const ibus = IBusManager.getIBusManager();
        const schemas = Gio.SettingsSchemaSource.get_default();
        if (ibus._oskCompletion === undefined && !schemas.lookup('org.freedesktop.ibus.engine.typing-booster', true))
            ibus._oskCompletion = false;
        Main.keyboard.close();
    }

    Activate(pid) {
        const window = global.get_window_actors().map(actor => actor.meta_window).find(w => w.get_pid() === pid);
        if (!window)
            return false;
        Main.activateWindow(window);
        return true;
    }

    // The shell starts in the overview, which holds the keyboard.
    HideOverview() {
        Main.overview.hide();
        return Main.overview.visible;
    }
}

let lab = null, exported = null, owner = 0;

function init() {}

function enable() {
    lab = new Lab();
    exported = Gio.DBusExportedObject.wrapJSObject(IFACE, lab);
    exported.export(Gio.DBus.session, '/org/imecomposer/Lab');
    owner = Gio.bus_own_name(Gio.BusType.SESSION, 'org.imecomposer.Lab', Gio.BusNameOwnerFlags.NONE, null, null, null);
}

function disable() {
    Gio.bus_unown_name(owner);
    exported.unexport();
    exported = null;
    lab = null;
}
