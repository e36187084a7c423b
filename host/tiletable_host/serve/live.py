"""Live tables for the browser: what each table shows, as JSON, kept in a ``Hub``.

A table is watched either by a ``PortWatcher`` (a thread with its own link to one port,
which reconnects when the table is unplugged and plugged back) or by a command that already
holds the link (``tiletable run`` publishes its own ``TableView`` after every play). Both
turn a ``watch.TableView`` into a *picture*: the family's view of the table (the line as
dominoes with its open ends and spinner arms, the trick, the columns, the play to beat),
scores by name, whose turn, the last play with its explained score, the last error.
"""
import threading
import time

import tiletable_host  # noqa: F401  (puts firmware/ on sys.path)
from tiletable_host.connect import open_link
from tiletable_host.errors import CommandError
from tiletable_host.people import for_people, score_scale, score_value, seat_name
from tiletable_host.transport import TransportError
from tiletable_host.views import table_picture
from tiletable_host.watch import TableView, last_error, open_ruleset_db, turn_text


class Hub:
    """The latest picture of every table, with a version that grows at each change (the
    server-sent event stream waits on it)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._tables = {}
        self._published = {}  # as given, to compare the next one with
        self.version = 0

    def publish(self, name, picture):
        """Make ``picture`` the table's; the version grows only when it differs from the last."""
        with self._lock:
            if self._published.get(name) == picture:
                return
            self._published[name] = picture
            self._tables[name] = dict(picture, name=name, at=time.time())
            self.version += 1

    def remove(self, name):
        """Take the table ``name`` off the page (a club table forgotten, or now watched here)."""
        with self._lock:
            if self._tables.pop(name, None) is not None:
                del self._published[name]
                self.version += 1

    def tables(self):
        """``(version, [picture, ...])`` in the order the tables were first published."""
        with self._lock:
            return self.version, list(self._tables.values())


def picture_of(view):
    """The browser's picture of a ``TableView`` just refreshed."""
    names = view.session["players"] if view.session else None
    shown = picture(view.snapshot, names, view.replay, view.event_error)
    info = view.link.device_info if view.link is not None else None
    if info:
        shown["title"] = info.get("name") or info["device"]  # the table as people named it
        shown["device"] = info["device"]  # its id: how a club's database knows it (serve/club.py)
    return shown


def picture(snap, names, replay, event_error=None):
    """The browser's picture of a table from its STATE snapshot ``snap``, the players' names
    and the engine's replay of the session in progress (None before its first record)."""
    if "ruleset" not in snap or snap.get("mode") == "menu":  # back in its menu, the last match is over: no board
        menu = snap.get("menu", ["?", 0])
        return {"status": "idle", "text": "Free: %s for %s players chosen in its menu" % (menu[0], menu[1])}
    names = [seat_name(names or [], seat) for seat in range(snap["players"])]
    result = {
        "status": "game",
        "ruleset": snap["ruleset"],
        "hand": snap["hand"] + 1,
        "players": names,
        "scores": snap["scores"],
        "to_act": snap["to_act"] if isinstance(snap["to_act"], int) else None,
        "turn": turn_text(snap["to_act"], names, snap["mode"]),
        "prompt": snap.get("prompt") or "",  # the table's own words: seats from 1, by name
        "error": last_error(snap, event_error),
        "last": None,
        "table": None,
    }
    if replay is not None:
        result["table"] = table_picture(replay.state, replay)
        result["last"] = last_play(replay, names)
    return result


def last_play(replay, names):
    """The last play in effect by a player, in words, with each score it caused explained."""
    actions = [e for e in replay.actions() if not e.undone and e.actor is not None]
    if not actions:
        return None
    last = actions[-1]
    return {
        "seq": last.seq,
        "text": last.text,
        "description": for_people(last.description, names),
        "scores": explained_scores(last.engine_scores, names, score_scale(replay.ruleset, len(names))),
    }


def explained_scores(events, names, scale=1):
    """Score events for people: who, how many points (chips in Buki: ``scale`` engine units
    each, as STATE's scores), by which rule, and the arithmetic."""
    return [
        {
            "player": seat_name(names, e.seat),
            "points": score_value(e.points, scale),
            "rule": e.rule,
            "detail": for_people(e.detail, names),
        }
        for e in events
    ]


class PortWatcher(threading.Thread):
    """Watches the table on ``port`` and publishes its picture; when the port goes away (the
    table unplugged or restarted) it says so and opens the port again every second."""

    def __init__(self, hub, port, db_path=None, interval=0.2, timeout=2.0):
        super().__init__(name="watch " + port, daemon=True)
        self.hub = hub
        self.port = port
        self.db_path = db_path
        self.interval = interval
        self.timeout = timeout
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            try:
                self._watch()
            except (CommandError, TransportError, OSError) as exc:
                self.hub.publish(self.port, {"status": "unplugged", "text": "no table on %s (%s); waiting for it" % (self.port, exc)})
                self.stopping.wait(1.0)

    def _watch(self):
        try:
            db = open_ruleset_db(self.db_path)  # this thread's own connection: sqlite3 wants one per thread
        except CommandError:
            db = None  # a database this tool cannot read (the history pages say why): presets only
        view = TableView(None, db)
        try:
            view.link = open_link(_LinkArgs(self.port, self.timeout), on_event=view.on_event)
            try:
                while not self.stopping.is_set():
                    view.refresh()
                    self.hub.publish(self.port, picture_of(view))
                    view.link.poll_events(self.interval)
            finally:
                view.link.close()
        finally:
            if db is not None:
                db.close()

    def stop(self):
        self.stopping.set()


class _LinkArgs:
    """The options ``connect.open_link`` reads, for a port given by the watcher."""

    def __init__(self, port, timeout):
        self.port = port
        self.timeout = timeout
        self.link = None
