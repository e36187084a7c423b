"""``tiletable``: the command table and the one place errors become a one-line message.

Each command is a module function ``do_<name>(args)`` plus a parser factory; errors a
command expects are raised as ``CommandError`` and printed as
``tiletable: <command>: <reason>`` with exit status 1.
"""
import argparse
import importlib
import logging
import sys

import tiletable_host  # noqa: F401  (puts firmware/ on sys.path)
from tiletable_host.errors import CommandError
from tiletable_host.transport import TransportError


def _add_ports(sub):
    from tiletable_host import connect

    parser = sub.add_parser("ports", help="list Picos running MicroPython (USB 2E8A:0005)")
    parser.set_defaults(handler=connect.do_ports)


def _add_deploy(sub):
    from tiletable_host import deploy

    parser = sub.add_parser("deploy", help="compile the firmware with mpy-cross and copy it to a Pico with mpremote")
    deploy.configure(parser)
    parser.set_defaults(handler=deploy.do_deploy)


def _command(name, module_name, help_text):
    """A parser factory for the command ``name`` whose module has ``configure`` and ``do_<name>``."""

    def add(sub):
        module = importlib.import_module("tiletable_host." + module_name)
        parser = sub.add_parser(name, help=help_text, description=(module.__doc__ or help_text).strip())
        parser.formatter_class = argparse.RawDescriptionHelpFormatter
        module.configure(parser)
        parser.set_defaults(handler=getattr(module, "do_" + name))

    return add


# Functions adding each command's parser; each sets ``handler``.
COMMANDS = [
    _add_ports,
    _add_deploy,
    _command("sync", "sync", "validate ruleset files and install the changed ones on the table"),
    _command("pull", "pull", "copy the table's journal into the PC's database, then acknowledge it"),
    _command("sessions", "sessions", "list the sessions in the PC's database"),
    _command("show", "show", "print a readable record of every hand of a session"),
    _command("export", "export", "write stored records as JSON Lines, CSV or tile game records"),
    _command("check", "record_check", "replay tile game record files through the engine and report the first problem"),
    _command("import", "record_import", "store tile game record files in the PC's database"),
    _command("replay", "replay", "re-run a session through the engine and compare with the table's scores"),
    _command("plot", "plot", "draw each seat's score over a session as SVG"),
    _command("simulate", "simulate", "play many hands with computer players (engine only) and report statistics"),
    _command("watch", "watch", "a live view of the table: scores, turn, the line or trick, the last play"),
    _command("serve", "serve.command", "a local web app: live tables in the browser, and the club's history"),
    _command("sim", "sim", "run the simulated table on a pseudo-terminal until Ctrl-C"),
    _command("demo", "demo", "play and print a fully explained simulated match (Muggins, 4 players)"),
    _command("run", "run", "a whole session: sync, play Muggins on the simulated table (or watch a real one), pull, show"),
    _command("maintenance", "maintenance", "leave protocol mode for the REPL (so mpremote can connect)"),
    _command("enrol", "enrol", "write each piece's identity into its tag, one piece at a time on a pad"),
    _command("inventory", "inventory", "check a set: lay its pieces on the pads, report missing, duplicate and unusable tags"),
    _command("selftest", "selftest", "run the table's hardware self test (readers, display, LEDs, buzzer, buttons) and print the report"),
]


def build_parser():
    parser = argparse.ArgumentParser(prog="tiletable", description="PC tool for the tiletable domino table")
    parser.add_argument("--debug", action="store_true", help="log every frame on the link (>> sent, << received) to stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    if args.debug:
        logging.basicConfig(level=logging.DEBUG, format="%(message)s", stream=sys.stderr)
    return run(args)


def run(args):
    """Run a parsed command; its errors become ``tiletable: <command>: <reason>`` and status 1.

    ``args.link``, when set, is an open transport the command uses instead of opening a port
    (tests pass an in-process device; ``tiletable run`` passes its simulated table).
    """
    try:
        return args.handler(args) or 0
    except (CommandError, TransportError) as exc:
        sys.stdout.flush()
        print("tiletable: %s: %s" % (args.command, exc), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("tiletable: %s: interrupted" % args.command, file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
