"""tiletable serve: a local web app showing live tables and the club's history.

Open the address it prints in a browser. Live tables are redrawn as they play (server-sent
events); /?big=1 is the layout for a big screen in a club room. Each --port is one table (a
Pico, or the pty that tiletable sim prints); a table that is unplugged is shown as waiting
and comes back when it is plugged in again. The history pages read the same database as
pull, sessions and show (--db).

With a club's PostgreSQL database (--db postgresql://...), the tables this PC watches are
published to the club, and the page shows every table of the club live, whichever PC it hangs
off (serve/club.py), beside the whole club's history: a PC or Pi by each table runs the first
line, the big screen in the room the second.

It listens on 127.0.0.1, this PC only; --host 0.0.0.0 opens it to the room's phones and screen.
Everyone who can reach it can look; adding, renaming and merging players from the pages needs
the organiser password set on this PC (tiletable organiser set-password) and a sign-in.

    tiletable serve --port /dev/ttyACM0 --db club.db
    tiletable serve --port /dev/ttyACM0 --db postgresql://table3@clubhouse/club
    tiletable serve --no-table --host 0.0.0.0 --db postgresql://screen@clubhouse/club
"""
import socket
import threading
import time

import uvicorn

from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host import organiser
from tiletable_host.connect import resolve_port
from tiletable_host.errors import CommandError
from tiletable_host.serve.app import create_app
from tiletable_host.serve.live import Hub, PortWatcher


def configure(parser):
    parser.add_argument("--port", action="append", default=[], help="a table's serial port or pty; repeat for several tables (default: the one Pico found)")
    parser.add_argument("--no-table", action="store_true", help="history only: watch no table")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s, this PC only)")
    parser.add_argument("--http-port", type=int, default=8417, help="HTTP port (default: %(default)s; 0 picks a free one)")
    parser.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())


class WebServer:
    """uvicorn serving the app in a thread of its own, on a socket bound here first (so a
    port in use is one clear error); ``url`` once started."""

    def __init__(self, hub, db_path, host="127.0.0.1", port=0):
        # log_config=None: uvicorn's own handlers would hold on to the sys.stderr of the moment
        # (a test's captured stream, closed later); its warnings go to the root logger instead
        config = uvicorn.Config(create_app(hub, db_path), host=host, port=port, log_config=None, log_level="warning", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = None
        self.url = None

    def start(self, timeout=10.0):
        """:raises CommandError: when the address cannot be listened on (a port in use)."""
        host, port = self.server.config.host, self.server.config.port
        listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind((host, port))
        except OSError as exc:
            listener.close()
            raise CommandError("cannot listen on %s:%d (%s); pass another --http-port" % (host, port, exc.strerror or exc))
        self.url = "http://%s:%d/" % (host, listener.getsockname()[1])
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [listener]}, name="web server", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise CommandError("the web server did not start on %s" % self.url)
            time.sleep(0.02)
        return self.url

    def stop(self):
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(5)


def do_serve(args):
    db_path = dbtarget.resolve(args.db, dbmod.default_path())
    editable = organiser.load() is not None  # a broken password file: one line, before anything starts
    ports = [] if args.no_table else (args.port or [resolve_port(None)])
    hub = Hub()
    publisher = listener = None
    if dbtarget.is_server(db_path):
        from tiletable_host.serve import club

        club.check(db_path)  # an unreachable server or a refused login: one line, before anything starts
        publisher = club.ClubPublisher(db_path) if ports else None
        listener = club.ClubListener(hub, db_path, own=publisher.id if publisher else None)
    watched = club.Relay(hub, publisher) if publisher else hub
    watchers = [PortWatcher(watched, port, db_path) for port in ports]
    server = WebServer(hub, db_path, args.host, args.http_port)
    url = server.start()
    for thread in [publisher, listener] + watchers:
        if thread is not None:
            thread.start()
    tables = ", ".join(ports)
    if listener is not None:
        tables = (tables + " and " if tables else "") + "every table the club's PCs publish"
    print("live view and history on %s (tables: %s; database %s); Ctrl-C stops" % (url, tables or "none", dbtarget.redact(db_path)), flush=True)
    if editable:
        print("the organiser signs in at %sorganiser/sign-in to change the register" % url, flush=True)
    else:
        print("no organiser password on this PC: the pages are for looking only (tiletable organiser set-password)", flush=True)
    try:
        while server.thread.is_alive():
            server.thread.join(0.5)
    finally:
        for watcher in watchers:
            watcher.stop()
        if listener is not None:
            listener.stop()
        if publisher is not None:
            publisher.stop()  # after the watchers: their last pictures go out, then "stopped watching"
        server.stop()
    return 0
