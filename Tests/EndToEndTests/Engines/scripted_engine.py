#!/usr/bin/python3
"""A scripted IBus engine for the end-to-end tests (run with Debian's /usr/bin/python3).

Real engines that use surrounding text (ibus-hangul, m17n) do so only in particular
states; this one does it on demand so the test is exact:
  F5      asks for the surrounding text, deletes the two characters before the cursor
          through delete-surrounding (a count in characters, not bytes) and commits 犬;
  F6      shows the preedit "probe" (the harness waits for it to know the engine is attached);
  Escape  clears that preedit.
  F7      commits 猫 and then deletes the character before the cursor: a delete-surrounding
          after the commit it should have preceded (the shape of ibus/ibus#2570);
  F8      commits "x" twice for one key (the shape of google/mozc#930).
Every other key is left to the application.
"""
import sys

import gi

gi.require_version("IBus", "1.0")
from gi.repository import GLib, GObject, IBus  # noqa: E402

ENGINE = "ime-composer-scripted"


class ScriptedEngine(IBus.Engine):
    __gtype_name__ = "ImeComposerScriptedEngine"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.composing = False

    def do_process_key_event(self, keyval, keycode, state):
        if state & IBus.ModifierType.RELEASE_MASK:
            return False
        if keyval == IBus.KEY_F6:
            self.update_preedit_text(IBus.Text.new_from_string("probe"), 5, True)
            self.composing = True
            return True
        if keyval == IBus.KEY_Escape and self.composing:
            self.update_preedit_text(IBus.Text.new_from_string(""), 0, False)
            self.composing = False
            return True
        if keyval == IBus.KEY_F5:
            # Asking makes IBus flag the context as needing surrounding text: the client
            # answers with a retrieve-surrounding (traced as "surrounding retrieve").
            self.get_surrounding_text()
            self.delete_surrounding_text(-2, 2)
            self.commit_text(IBus.Text.new_from_string("犬"))
            return True
        if keyval == IBus.KEY_F7:
            self.commit_text(IBus.Text.new_from_string("猫"))
            self.delete_surrounding_text(-1, 1)
            return True
        if keyval == IBus.KEY_F8:
            self.commit_text(IBus.Text.new_from_string("x"))
            self.commit_text(IBus.Text.new_from_string("x"))
            return True
        return False


def main():
    IBus.init()
    bus = IBus.Bus.new()
    if not bus.is_connected():
        import os
        sys.exit("scripted engine: cannot connect to ibus-daemon at %r (DISPLAY %r)" % (IBus.get_address(), os.environ.get("DISPLAY")))
    factory = IBus.Factory.new(bus.get_connection())
    factory.add_engine(ENGINE, GObject.type_from_name("ImeComposerScriptedEngine"))
    component = IBus.Component.new(
        "org.imecomposer.ScriptedEngine", "ime-composer test engine", "1.0", "MIT",
        "ime-composer", "", "", "ime-composer")
    component.add_engine(IBus.EngineDesc.new(
        ENGINE, "ime-composer scripted engine", "delete-surrounding on F5", "en",
        "MIT", "ime-composer", "", "us"))
    bus.register_component(component)
    print("registered", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
