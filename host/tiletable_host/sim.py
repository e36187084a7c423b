"""``tiletable sim``: run the simulated table and print its serial port, until Ctrl-C.

The firmware runs unchanged in a child process (sim/device.py, on CPython or the MicroPython
unix port) with wire-level models of the readers, displays and buttons; its USB serial is a
pseudo-terminal, so every other command works against it with ``--port``, exactly as with a
Pico. Tiles are laid and buttons pressed through the control port it prints (one text
command per line: place 0 5-5, press 1 double, display); docs/SIMULATED_TABLE.md lists
every command. Each simulated table has its own unique id (kept in its storage, ``--root``,
across its restarts) and its journal its own identity, as two Picos do.

    tiletable sim --name "Table 3"    # then, in another terminal:
    tiletable watch --port /dev/pts/4
"""
import argparse
import os
import time

from tiletable_host.errors import CommandError, ControlError


def configure(parser):
    parser.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython", help="interpreter of the device (default: %(default)s)")
    parser.add_argument("--root", default=None, help="directory for the device's journal and rulesets (default: a new temporary one)")
    parser.add_argument("--name", default=None, help='the table\'s name, as `tiletable name` sets it (e.g. "Table 3")')


def start_table(runtime="cpython", root=None):
    """A running SimulatedTable. :raises CommandError: when it does not start."""
    from tiletable_host.simtable import SimulatedTable

    try:
        return SimulatedTable.start(runtime=runtime, root=root)
    except (ControlError, OSError) as exc:
        raise CommandError("the simulated table did not start: %s" % exc)


def name_table(port, name):
    """Give the table on ``port`` the name ``name`` over the link, as `tiletable name` does."""
    from tiletable_host.connect import open_link
    from tiletable_host.name import set_name

    link = open_link(argparse.Namespace(port=port, timeout=5.0, link=None))
    try:
        set_name(link, name)
    finally:
        link.close()


def do_sim(args):
    name = None
    if args.name is not None:
        from tiletable_host.name import checked_name

        name = checked_name(args.name)
    if args.root:
        os.makedirs(args.root, exist_ok=True)
    table = start_table(args.runtime, args.root)
    try:
        if name is not None:
            name_table(table.port, name)
        print("simulated table on %s (control: 127.0.0.1:%d, storage: %s)" % (table.port, table.control_port, table.root), flush=True)
        print("try: tiletable watch --port %s    (Ctrl-C stops the table)" % table.port, flush=True)
        while table.bridge.alive():
            time.sleep(0.2)
        raise CommandError("the simulated device stopped (exit status %s)" % table.bridge.process.returncode)
    finally:
        table.stop()
