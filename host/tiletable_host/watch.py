"""``tiletable watch``: a live view of the table, redrawn as the game goes.

It shows what the table is doing (scores, whose turn, what the table asks for, its last
error) and, from the session's journal run through the PC's own engine, the open ends of the
line, the trick or the columns, and the last play with the arithmetic of its score. Watching
changes nothing on the table. (For developers: STATE, then JOURNAL_PULL without an ack; the
PLAY, SCORE and ERROR events trigger a redraw.)

    tiletable watch --port /dev/pts/4
"""
import os
import sys

from tiletable.record import REC_HEADER, parse_json_payload
from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.connect import add_link_options, close_link, open_link
from tiletable_host.errors import CommandError
from tiletable_host.people import for_people, score_event_text, score_scale, seat_label, seat_name
from tiletable_host.sessionlog import elapsed_text, replay_records, resolve_ruleset
from tiletable_host.views import table_lines



def configure(parser):
    parser.add_argument("--once", action="store_true", help="print the view once and exit")
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between redraws (default: %(default)s)")
    parser.add_argument("--db", default=None, help="database of synced rulesets, to explain custom games: " + dbtarget.HELP % dbmod.default_path())
    add_link_options(parser)


class TableView:
    """What ``watch`` shows about one table, refreshed by ``refresh()``, drawn by ``render()``."""

    def __init__(self, link, db=None):
        self.link = link
        self.db = db
        self.snapshot = {}
        self.session = None  # the journal's current session: first, names, ruleset
        self.records = []  # its records so far
        self.provisional = 0  # how many of them, at the end, were not on the table's flash yet
        self.replay = None
        self.event_error = None

    def on_event(self, name, fields):
        """An error event is the last error until the table accepts a play (a play event)."""
        if name == "error event":
            self.event_error = fields["message"]
        elif name == "play event":
            self.event_error = None

    def refresh(self):
        """Ask the table for its state and read the journal records written since the last refresh."""
        self.snapshot = self.link.state()
        if "ruleset" not in self.snapshot:
            return
        if self.provisional:  # read again: a failed flush on the table would renumber them
            del self.records[-self.provisional :]
            self.provisional = 0
        after = self.records[-1][0] if self.records else self._session_start() - 1
        while True:
            records, durable = self.link.journal_pull(after)
            if not records:
                break
            for record in records:
                if record[1] == REC_HEADER:
                    self._start_session(record)
                else:
                    self.records.append(record)
                if record[0] > durable:
                    self.provisional += 1
            after = records[-1][0]
        if self.session is not None:
            ruleset = resolve_ruleset(self.db, self.session["ruleset"], self.session["hash"])
            self.replay = replay_records(self.session, ruleset, self.records)

    def _session_start(self):
        """The first sequence number of the table's newest session (where the view starts reading)."""
        sessions = self.link.journal_sessions(0)
        return sessions[-1]["first"] if sessions else 1

    def _start_session(self, record):
        header = parse_json_payload(record[2])
        if self.session is not None:
            self.event_error = None  # a new game: the last one's error is history
        self.session = {"players": header["players"], "ruleset": header["ruleset"], "hash": header["hash"]}
        self.records = [record]
        self.provisional = 0

    def render(self):
        """The view as lines of text."""
        snap = self.snapshot
        if "ruleset" not in snap:
            menu = snap.get("menu", ["?", 0])
            return ["table in %s mode: %s for %s players chosen, no game in progress" % (snap.get("mode", "?"), menu[0], menu[1])]
        names = self.session["players"] if self.session else []
        scale = score_scale(self.replay.ruleset, snap["players"]) if self.replay is not None else 1
        to_act = snap["to_act"]
        lines = ["%s, hand %d, %s" % (snap["ruleset"], snap["hand"] + 1, turn_text(to_act, names, snap["mode"]))]
        for seat, score in enumerate(snap["scores"]):  # in the unit people read (Buki: chips)
            marker = "  <- to act" if to_act == seat else ""
            label, _, name = seat_label(names, seat).partition(" ")  # P1 alone when that is its name
            lines.append("  %s %-10s %5s%s" % (label, name, score, marker))
        if self.replay is not None:
            lines.extend(table_lines(self.replay.state, names))
            lines.extend(_last_play(self.replay, names, scale))
        if snap.get("prompt"):
            lines.append("table says: %s" % snap["prompt"])
        error = last_error(snap, self.event_error)
        if error:
            lines.append("last error: %s" % error)
        return lines


def last_error(snap, event_error):
    """The table's last error, as the table words it for people (seats from 1, by name), or
    "": STATE's (which the table clears at the next accepted play), else the last error event."""
    error = snap.get("last_error")
    return "Err%d %s" % (error[0], error[1]) if error else event_error or ""


def turn_text(to_act, names, mode):
    if mode != "game":
        return mode
    if isinstance(to_act, int):
        return "%s to act" % seat_name(names, to_act)
    return {"chance": "dealing or drawing", "all": "everyone chooses", "over": "over"}.get(to_act, str(to_act))


def _last_play(replay, names, scale):
    actions = [e for e in replay.actions() if not e.undone and e.actor is not None]
    if not actions:
        return []
    last = actions[-1]
    at = "" if last.tenths is None else " at " + elapsed_text(last.tenths)
    lines = ["last play: #%d%s %s" % (last.seq, at, for_people(last.description, names))]
    for event in last.engine_scores:
        lines.append("  " + score_event_text(event, names, scale))
    return lines


def open_ruleset_db(path):
    """The ruleset memory, if this PC has a database (watching never creates one)."""
    target = dbtarget.resolve(path, dbmod.default_path())
    if dbtarget.is_server(target) or os.path.exists(target):
        return dbmod.Database.open(target, create=False)
    return None


def do_watch(args):
    db = open_ruleset_db(args.db)
    view = TableView(None, db)
    link = open_link(args, on_event=view.on_event)
    try:
        if not link.has_capability("game"):
            raise CommandError("%s has no game runtime to watch (capabilities: %s)" % (link.device_info["device"], ", ".join(link.device_info["capabilities"])))
        view.link = link
        if args.once:
            view.refresh()
            print("\n".join(view.render()), flush=True)
            return 0
        follow(view, link, args.interval)
    finally:
        close_link(args, link)
        if db is not None:
            db.close()


def follow(view, link, interval, out=None):
    """Redraw the view until Ctrl-C: in place on a terminal (rich's live display), else as a
    new block only when something changed, so a log of the game reads once per change."""
    out = out or sys.stdout
    if out.isatty():
        from rich.console import Console
        from rich.live import Live
        from rich.text import Text

        with Live(console=Console(file=out), auto_refresh=False) as live:
            while True:
                view.refresh()
                live.update(Text("\n".join(view.render())), refresh=True)
                link.poll_events(interval)
    shown = None
    while True:
        view.refresh()
        lines = view.render()
        if lines != shown:
            out.write("\n".join(lines) + "\n\n")
            out.flush()
            shown = lines
        link.poll_events(interval)
