"""``tiletable event``: a club night or a tournament, its rounds, and who played where.

An event has rounds numbered from 1; each round holds the sessions played in it and at which
table. A session is linked to at most one round by its id: its records stay as the table
wrote them. The ranking counts the finished sessions of every round: wins first, then the
points scored, and the same place for the same wins and points. In a partnership game (four
players, partners opposite) each pair of partners is ranked too.

    tiletable event add "Friday night" --date 2026-12-04            # a night; --kind tournament
    tiletable event round 1                                         # round 1, then 2, ...
    tiletable event attach 1 1 --session 12 13                      # sessions by number
    tiletable event attach 1 2 --tables "Table 1,Table 2" --from "2026-12-04 19:00" --until "2026-12-04 21:00"
    tiletable event detach 13                                       # session 13 was put in by mistake
    tiletable event show 1                                          # rounds, tables, rankings
    tiletable event                                                 # every event
"""
import argparse
import calendar
import time

from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.errors import CommandError
from tiletable_host.register import finished, registered, winners

KINDS = ("night", "tournament")


def configure(parser):
    parser.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())
    commands = parser.add_subparsers(dest="event_command", metavar="{add,round,attach,detach,show}")
    add = commands.add_parser("add", help="a new club night or tournament", description="Add a club night or a tournament.")
    add.add_argument("name", metavar="NAME")
    add.add_argument("--date", required=True, help="the day it is played, YYYY-MM-DD")
    add.add_argument("--kind", choices=KINDS, default="night", help="a club night (the default) or a tournament")
    round_ = commands.add_parser("round", help="add the next round to an event", description="Add the next round to EVENT.")
    round_.add_argument("event", metavar="EVENT", type=int)
    attach = commands.add_parser(
        "attach", help="put sessions in a round", description="Put sessions in ROUND of EVENT: by number, or every session"
        " of the given tables that started in a time window (UTC, as the pages show it).")
    attach.add_argument("event", metavar="EVENT", type=int)
    attach.add_argument("round", metavar="ROUND", type=int)
    attach.add_argument("--session", type=int, nargs="+", default=[], metavar="N", help="sessions by number (`tiletable sessions`)")
    attach.add_argument("--tables", help="the tables' names, separated by commas")
    attach.add_argument("--from", dest="since", metavar="'YYYY-MM-DD HH:MM'", help="the window's start (UTC)")
    attach.add_argument("--until", metavar="'YYYY-MM-DD HH:MM'", help="the window's end (UTC)")
    attach.add_argument("--table", dest="table_name", help="the table's name in this round, when not the name the table reports")
    detach = commands.add_parser("detach", help="take sessions out of their round", description="Take sessions out of the round they are in.")
    detach.add_argument("session", metavar="SESSION", type=int, nargs="+")
    show = commands.add_parser("show", help="an event's rounds, tables and rankings", description="Show EVENT's rounds and rankings.")
    show.add_argument("event", metavar="EVENT", type=int)
    for sub in (add, round_, attach, detach, show):  # after the command too, as `tiletable players` takes it
        sub.add_argument("--db", default=argparse.SUPPRESS, help=dbtarget.HELP % dbmod.default_path())


def do_event(args):
    target = dbtarget.resolve(args.db, dbmod.default_path())
    command = args.event_command
    db = dbmod.Database.open(target, create=command in ("add", "round", "attach", "detach"))
    try:
        if command == "add":
            event = add_event(db, args.name, args.date, args.kind)
            print("event %d: %s, a %s on %s" % (event, args.name.strip(), args.kind, args.date))
        elif command == "round":
            print("round %d of event %d" % (add_round(db, args.event), args.event))
        elif command == "attach":
            if args.session and (args.tables or args.since or args.until):
                raise CommandError("say which sessions one way: --session N..., or --tables with --from and --until")
            sessions = args.session or window_sessions(db, args.tables, args.since, args.until)
            attached = attach_sessions(db, args.event, args.round, sessions, args.table_name)
            print("round %d of event %d: session%s %s" % (args.round, args.event, "" if len(attached) == 1 else "s", ", ".join(map(str, attached))))
        elif command == "detach":
            for session_id, (event_id, number) in zip(args.session, detach_sessions(db, args.session)):
                print("session %d is out of round %d of event %d" % (session_id, number, event_id))
        elif command == "show":
            _show(db, args.event)
        else:
            _list(db)
    finally:
        db.close()
    return 0


# ----- storage


def read(db, sql, params=()):
    """Every row of a query, a database error as its one line."""
    try:
        return db.execute(sql, params).fetchall()
    except db.dialect.errors as exc:
        raise dbmod.database_error(db.path, exc, db.target) from exc


def day(text, option="--date"):
    """``text`` when it is a day written YYYY-MM-DD. :raises CommandError: otherwise."""
    try:
        time.strptime(text, "%Y-%m-%d")
    except ValueError:
        raise CommandError("%s wants a day as YYYY-MM-DD, not %r" % (option, text)) from None
    return text


def add_event(db, name, date, kind):
    """A new event; its id. :raises CommandError: for an empty name, a bad day, or an event of
    that name on that day already."""
    name = name.strip()
    if not name:
        raise CommandError("an event's name cannot be empty")
    date = day(date)
    with db.transaction():
        if db.execute("SELECT 1 FROM events WHERE name = ? AND day = ?", (name, date)).fetchone():
            raise CommandError("there is an event %r on %s already (see `tiletable event`)" % (name, date))
        db.execute("INSERT INTO events (name, day, kind) VALUES (?, ?, ?)", (name, date, kind))
        return db.execute("SELECT id FROM events WHERE name = ? AND day = ?", (name, date)).fetchone()[0]


def events(db):
    """Every event, newest day first: ``{"id", "name", "day", "kind", "rounds", "sessions"}``."""
    rows = read(db, "SELECT e.id, e.name, e.day, e.kind, (SELECT count(*) FROM event_rounds r WHERE r.event = e.id),"
                    " (SELECT count(*) FROM round_sessions s JOIN event_rounds r ON r.id = s.round WHERE r.event = e.id)"
                    " FROM events e ORDER BY e.day DESC, e.id DESC")
    return [dict(zip(("id", "name", "day", "kind", "rounds", "sessions"), row)) for row in rows]


def event(db, event_id):
    """One event (as ``events`` lists it). :raises CommandError: when there is none."""
    found = [e for e in events(db) if e["id"] == event_id]
    if not found:
        raise CommandError("no event %d in %s (see `tiletable event`)" % (event_id, db.path))
    return found[0]


def add_round(db, event_id):
    """The next round of an event; its number."""
    with db.transaction():
        event(db, event_id)
        number = db.execute("SELECT coalesce(max(number), 0) + 1 FROM event_rounds WHERE event = ?", (event_id,)).fetchone()[0]
        db.execute("INSERT INTO event_rounds (event, number) VALUES (?, ?)", (event_id, number))
    return number


def window_sessions(db, tables, since, until):
    """The sessions of ``tables`` (names separated by commas) that started from ``since`` to
    ``until`` ('YYYY-MM-DD HH:MM', UTC). :raises CommandError: when something is missing or none is found."""
    if not (tables and since and until):
        raise CommandError("say which sessions: --session N..., or --tables with --from and --until")
    wanted = [name.strip() for name in tables.split(",") if name.strip()]
    low, high = _moment(since, "--from"), _moment(until, "--until")
    found = [s["id"] for s in db.sessions() if s["table"] in wanted and s["time"] is not None and low <= s["time"] <= high]
    if not found:
        raise CommandError("no session of %s started between %s and %s UTC" % (", ".join(wanted), since, until))
    return found


def _moment(text, option):
    try:
        return calendar.timegm(time.strptime(text.strip(), "%Y-%m-%d %H:%M"))
    except ValueError:
        raise CommandError("%s wants 'YYYY-MM-DD HH:MM' (UTC), not %r" % (option, text)) from None


def attach_sessions(db, event_id, number, session_ids, table_name=None):
    """Put sessions in round ``number`` of an event, at their table (``table_name``, else the
    name the table reports); returns their ids. All or none: :raises CommandError: for an
    unknown event, round or session, or a session in another round already."""
    with db.transaction():
        found = event(db, event_id)
        row = db.execute("SELECT id FROM event_rounds WHERE event = ? AND number = ?", (event_id, number)).fetchone()
        if row is None:
            raise CommandError("event %d has no round %d (it has %d; add one with `tiletable event round %d`)" % (
                event_id, number, found["rounds"], event_id))
        for session_id in session_ids:
            session = db.session(session_id)
            held = db.execute("SELECT e.id, e.name, r.number, r.id FROM round_sessions s JOIN event_rounds r ON r.id = s.round"
                              " JOIN events e ON e.id = r.event WHERE s.session = ?", (session_id,)).fetchone()
            if held is not None and held[3] == row[0]:
                continue
            if held is not None:
                raise CommandError("session %d is in round %d of %s (event %d) already" % (session_id, held[2], held[1], held[0]))
            db.execute("INSERT INTO round_sessions (session, round, table_name) VALUES (?, ?, ?)",
                       (session_id, row[0], (table_name or "").strip() or session["table"]))
    return list(session_ids)


def detach_sessions(db, session_ids):
    """Take sessions out of their rounds; ``(event, round number)`` each was in. All or none:
    :raises CommandError: for a session in no round."""
    found = []
    with db.transaction():
        for session_id in session_ids:
            row = db.execute("SELECT r.event, r.number FROM round_sessions s JOIN event_rounds r ON r.id = s.round WHERE s.session = ?",
                             (session_id,)).fetchone()
            if row is None:
                raise CommandError("session %d is in no event's round" % session_id)
            db.execute("DELETE FROM round_sessions WHERE session = ?", (session_id,))
            found.append(tuple(row))
    return found


def rounds(db, event_id):
    """An event's rounds in order: ``{"number", "sessions": [session dict with "table" as
    played in the round]}``, players by the register's names."""
    names = db.register_names()
    by_id = {s["id"]: s for s in registered(db.sessions(), names)}
    found = {number: [] for (number,) in read(db, "SELECT number FROM event_rounds WHERE event = ? ORDER BY number", (event_id,))}
    for number, session_id, table_name in read(
            db, "SELECT r.number, s.session, s.table_name FROM round_sessions s JOIN event_rounds r ON r.id = s.round"
                " WHERE r.event = ? ORDER BY r.number, s.table_name, s.session", (event_id,)):
        found[number].append(dict(by_id[session_id], table=table_name))
    return [{"number": number, "sessions": sessions} for number, sessions in found.items()]


# ----- rankings


class Partners:
    """Which seats sit as partners in a session: in a game its ruleset plays in partnerships,
    with four players, seats 1 and 3 against 2 and 4 (from 0: 0+2 and 1+3); none otherwise."""

    def __init__(self, db):
        self.db = db
        self._known = {}

    def __call__(self, session):
        key = (session["ruleset"], session["hash"])
        if key not in self._known:
            from tiletable_host.sessionlog import resolve_ruleset  # the engine: only for a ranking

            try:
                self._known[key] = bool(resolve_ruleset(self.db, *key).params.get("partnerships"))
            except CommandError:
                self._known[key] = False
        return [(0, 2), (1, 3)] if self._known[key] and len(session["players"]) == 4 else []


def ranking(sessions, scale_of, partners_of):
    """``(players, partnerships)``: the rows of each ranking over the finished ``sessions``,
    best first: ``{"place", "name", "players", "played", "wins", "points"}``. A partnership's
    players are its two, in alphabetical order, its name them joined by " & ", its points the side's."""
    from tiletable_host.people import score_value

    players, pairs = {}, {}

    def count(table, names, won, points):
        name = " & ".join(names)
        row = table.setdefault(name, {"name": name, "players": names, "played": 0, "wins": 0, "points": 0})
        row["played"] += 1
        row["wins"] += won
        row["points"] += points

    for session in sessions:
        if not finished(session):
            continue
        won = winners(session)
        scores = [score_value(score, scale_of(session)) for score in session["result"]["scores"]]
        for seat, name in enumerate(session["players"]):
            count(players, [str(name)], seat in won, scores[seat])
        for pair in partners_of(session):
            names = sorted((str(session["players"][seat]) for seat in pair), key=lambda n: (n.casefold(), n))
            count(pairs, names, any(seat in won for seat in pair), scores[pair[0]])
    return placed(players.values()), placed(pairs.values())


def placed(rows):
    """Rows by wins, then points, then name; the same place for the same wins and points (1, 2, 2, 4)."""
    ordered = sorted(rows, key=lambda r: (-r["wins"], -r["points"], r["name"].casefold(), r["name"]))
    for index, row in enumerate(ordered):
        before = ordered[index - 1] if index else None
        tied = before is not None and (before["wins"], before["points"]) == (row["wins"], row["points"])
        row["place"] = before["place"] if tied else index + 1
    return ordered


def event_ranking(db, event_rounds):
    """The event's ``ranking`` over the sessions of all its rounds (``rounds``)."""
    from tiletable_host.sessionlog import session_scale

    scales = {}

    def scale_of(session):
        key = (session["ruleset"], session["hash"], len(session["players"]))
        if key not in scales:
            scales[key] = session_scale(db, session)
        return scales[key]

    sessions = [session for found in event_rounds for session in found["sessions"]]
    return ranking(sessions, scale_of, Partners(db))


# ----- what the command prints


def _list(db):
    found = events(db)
    if not found:
        print("no event in %s yet (add one with `tiletable event add NAME --date YYYY-MM-DD`)" % db.path)
        return
    print("%4s  %-10s  %-10s  %6s  %8s  %s" % ("id", "day", "kind", "rounds", "sessions", "name"))
    for e in found:
        print("%4d  %-10s  %-10s  %6d  %8d  %s" % (e["id"], e["day"], e["kind"], e["rounds"], e["sessions"], e["name"]))


def _show(db, event_id):
    found = event(db, event_id)
    print("%s: a %s on %s" % (found["name"], found["kind"], found["day"]))
    found_rounds = rounds(db, event_id)
    for each in found_rounds:
        print("round %d" % each["number"])
        for s in each["sessions"]:
            print("  %-12s session %d  %s  %s" % (s["table"], s["id"], s["ruleset"], ", ".join(map(str, s["players"]))))
        if not each["sessions"]:
            print("  no session yet")
    players, pairs = event_ranking(db, found_rounds)
    for title, rows in (("players", players), ("partnerships", pairs)):
        if rows:
            print("ranking of %s: place, name, played, wins, points" % title)
            for row in rows:
                print("  %3d  %-24s  %3d  %3d  %6s" % (row["place"], row["name"], row["played"], row["wins"], row["points"]))
