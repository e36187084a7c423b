"""``tiletable maintenance``: ask the table to leave protocol mode for the MicroPython REPL.

The firmware runs the link with Ctrl-C disabled (frames carry 0x03), so mpremote cannot
interrupt it; after this request the main loop restores Ctrl-C and returns to the REPL,
where ``mpremote`` (and ``tiletable deploy``) work as usual. A reset starts the table again.

    tiletable maintenance --port /dev/ttyACM0
"""
from tiletable_host.connect import add_link_options, close_link, open_link
from tiletable_host.errors import CommandError


def configure(parser):
    add_link_options(parser)


def do_maintenance(args):
    link = open_link(args)
    try:
        if not link.has_capability("maintenance"):
            raise CommandError("this table's firmware has no maintenance request; hold MENU while it powers up instead")
        link.maintenance()
        print("%s left protocol mode: the REPL is free for mpremote (reset the board to play again)" % link.device_info["device"])
    finally:
        close_link(args, link)
    return 0
