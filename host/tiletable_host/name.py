"""``tiletable name``: give the table the name people know it by, or print the one it has.

The table keeps its name on its flash and tells it to every PC that talks to it, so
`sessions`, `show` and the web view (`serve`) name its sessions by it (from its next pull on);
a table with no name is named by its id (``tiletable-`` and its chip's unique id). A name is
at most 32 bytes of UTF-8 on one line; "" removes it from the table. A name is set once: a PC's
database keeps the last name a table reported, so a table whose flash lost it (re-deployed,
wiped) is still called by it there until it is given another.

    tiletable name "Table 3" --port /dev/ttyACM0
    tiletable name --port /dev/ttyACM0      # print the table's name
"""
from tiletable.runtime.journal import MAX_NAME
from tiletable_host.connect import add_link_options, close_link, open_link
from tiletable_host.errors import CommandError


def configure(parser):
    parser.add_argument("name", nargs="?", default=None, help='the table\'s new name, e.g. "Table 3" ("" removes it; none: print it)')
    add_link_options(parser)


def checked_name(name):
    """``name`` without spaces around it. :raises CommandError: for one a table cannot keep."""
    name = name.strip()
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise CommandError("a table's name is one line of text, without control characters: %r" % name)
    if len(name.encode()) > MAX_NAME:
        raise CommandError("%r is %d bytes of UTF-8; a table's name is at most %d" % (name, len(name.encode()), MAX_NAME))
    return name


def set_name(link, name):
    """Have the table keep ``name`` and read it back; returns how the table is named now.

    :raises CommandError: for a table whose firmware keeps no name.
    """
    if not link.has_capability("name"):
        raise CommandError("%s cannot keep a name: its firmware is older than names (update it with `tiletable deploy`)" % link.device_info["device"])
    link.set_name(name)
    if link.hello()["name"] != name:
        raise CommandError("%s did not keep the name %r" % (link.device_info["device"], name))
    return name


def do_name(args):
    name = None if args.name is None else checked_name(args.name)
    link = open_link(args)
    try:
        device = link.device_info["device"]
        if name is not None:
            set_name(link, name)
            print('%s is now named "%s"' % (device, name) if name else "%s has no name now" % device)
        elif link.device_info["name"]:
            print('%s is named "%s"' % (device, link.device_info["name"]))
        else:
            print('%s has no name (set one with `tiletable name "Table 3"`)' % device)
    finally:
        close_link(args, link)
    return 0
