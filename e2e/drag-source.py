#!/usr/bin/python3
"""A drag source, as a file manager would be: a small GTK window that offers the files
named on its command line as text/uri-list when dragged. The e2e tests start it under
Xvfb and drag from it onto the PageTree window with xdotool, so the drop is a real
XDND drop handled by the OS toolkit, not a synthetic DOM event.

usage: drag-source.py X Y FILE...   (X Y: where to place the window)"""
import sys
from pathlib import Path

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402


def main():
    x, y = int(sys.argv[1]), int(sys.argv[2])
    uris = [Path(name).resolve().as_uri() for name in sys.argv[3:]]
    window = Gtk.Window(title="pagetree-drag-source")
    window.set_default_size(200, 120)
    window.move(x, y)
    box = Gtk.EventBox()
    box.add(Gtk.Label(label=f"drag {len(uris)} file(s)"))
    box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
    box.drag_source_add_uri_targets()
    box.connect("drag-data-get", lambda _w, _ctx, data, _info, _time: data.set_uris(uris))
    box.connect("drag-end", lambda *_: print("drag-end", flush=True))
    window.add(box)
    window.connect("destroy", Gtk.main_quit)
    window.show_all()
    print("ready", flush=True)
    Gtk.main()


if __name__ == "__main__":
    main()
