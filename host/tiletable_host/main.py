"""``tiletable``: the command table and the one place errors become a one-line message.

Each command is a module function ``do_<name>(args)`` plus a parser factory; errors a
command expects are raised as ``CommandError`` and printed as
``tiletable: <command>: <reason>`` with exit status 1.
"""
import argparse
import sys

import tiletable_host  # noqa: F401  (puts firmware/ on sys.path)
from tiletable_host.errors import CommandError


def _add_demo(sub):
    from tiletable_host import demo

    parser = sub.add_parser("demo", help="play and print a fully explained simulated match")
    demo.configure(parser)
    parser.set_defaults(handler=demo.do_demo)


def _add_ports(sub):
    from tiletable_host import connect

    parser = sub.add_parser("ports", help="list Picos running MicroPython (USB 2E8A:0005)")
    parser.set_defaults(handler=connect.do_ports)


def _add_deploy(sub):
    from tiletable_host import deploy

    parser = sub.add_parser("deploy", help="compile the firmware with mpy-cross and copy it to a Pico with mpremote")
    deploy.configure(parser)
    parser.set_defaults(handler=deploy.do_deploy)


# Functions adding each command's parser; each sets ``handler``.
COMMANDS = [_add_demo, _add_ports, _add_deploy]


def build_parser():
    parser = argparse.ArgumentParser(prog="tiletable", description="PC tool for the tiletable domino table")
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
    try:
        return args.handler(args) or 0
    except CommandError as exc:
        print("tiletable: %s: %s" % (args.command, exc), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("tiletable: %s: interrupted" % args.command, file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
