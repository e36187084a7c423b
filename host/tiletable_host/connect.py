"""Finding the table: a Pico running MicroPython shows up as USB VID:PID 2E8A:0005.

``--port`` overrides discovery and accepts a device path (``/dev/ttyACM0``), a pty from
``tiletable sim``, or any pyserial URL (``socket://``, ``loop://``, ``spy://...``).
"""
import time

from serial.tools import list_ports

from tiletable_host.errors import CommandError

PICO_VID = 0x2E8A
PICO_PID = 0x0005


def find_picos():
    """The serial ports that belong to a Pico running MicroPython, sorted by device path."""
    return sorted(
        (port for port in list_ports.comports() if port.vid == PICO_VID and port.pid == PICO_PID),
        key=lambda port: port.device,
    )


def resolve_port(requested=None):
    """The port to open: ``requested`` as given, else the one Pico found.

    :raises CommandError: when no Pico or several are found (the message lists them).
    """
    if requested:
        return requested
    picos = find_picos()
    if not picos:
        raise CommandError(
            "no Pico running the firmware found (USB %04X:%04X); plug it in, or pass --port "
            "(e.g. the pty printed by `tiletable sim`)" % (PICO_VID, PICO_PID)
        )
    if len(picos) > 1:
        listing = ", ".join("%s (serial %s)" % (p.device, p.serial_number or "?") for p in picos)
        raise CommandError("several Picos found: %s; choose one with --port" % listing)
    return picos[0].device


def do_ports(args):
    picos = find_picos()
    if not picos:
        print("no Pico running MicroPython found (USB %04X:%04X)" % (PICO_VID, PICO_PID))
        return 0
    for port in picos:
        print("%s  serial=%s  %s" % (port.device, port.serial_number or "?", port.description or ""))
    return 0


def add_link_options(parser):
    """The options of every command that talks to a table."""
    parser.add_argument("--port", help="serial port or pyserial URL (default: the one Pico found)")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds to wait for each reply (default: %(default)s)")


def open_link(args, on_event=None):
    """A connected transport for a command: ``args.link`` when the caller already holds one
    (tests, ``tiletable run``), else a SerialTransport on ``--port`` or the one Pico found,
    introduced with HELLO.

    :raises CommandError: when no port is found or the port does not answer as a table.
    """
    link = getattr(args, "link", None)
    if link is not None:
        if on_event is not None:
            link.on_event = on_event
        if link.device_info is None:
            link.hello()
            give_time(link)
        return link
    from tiletable_host.transport import TransportError
    from tiletable_host.transport_serial import SerialTransport

    port = resolve_port(args.port)
    try:
        link = SerialTransport(port, timeout=args.timeout, on_event=on_event)
    except TransportError as exc:
        raise CommandError(str(exc))
    try:
        link.hello()
    except TransportError as exc:
        link.close()
        raise CommandError("%s does not answer as a tiletable (%s); is the firmware running?" % (port, exc))
    give_time(link)
    return link


def give_time(link):
    """Set the table's wall clock from the PC's: a Pico has no battery clock, and a session
    started after this carries its start time (whichever command talked to the table last)."""
    if link.has_capability("clock"):
        link.set_clock(time.time())


def close_link(args, link):
    """Close a link this command opened (one passed in ``args.link`` stays open for its owner)."""
    if getattr(args, "link", None) is not link:
        link.close()
