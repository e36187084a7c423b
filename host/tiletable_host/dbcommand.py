"""``tiletable db``: move a database between SQLite and PostgreSQL, and check one.

``db copy SRC DST`` copies everything SRC holds into DST (made when missing): its rulesets,
every journal with its records in order (each session is stored as a pull stores it, with
its result and record count), the journals' boot counters, the tables' names and the register
of players (each name DST does not know joins the player it belongs to in SRC), and the
events and league seasons with their rounds, teams, fixtures and legs (a session is known in
both by its journal and first record, a player by name, an event by name and day). It may be
stopped at any moment and run again: it goes on from what DST holds, and stores nothing
twice. DST may already hold sessions (a club's database): they stay, and a table DST knows
keeps the name and journal DST has for it, and a name DST knows stays its player's there.
Session numbers are DST's own.

``db check [--db DB]`` reads the whole database: on SQLite every page first (integrity_check),
then on either engine tiletable's own consistency (every session's record count, every record
filed under an existing session of its own journal, results, journals, tables, every name
played under known to the register, and the events' and leagues' sessions, players and legs). One line per
finding; exit status 1 when there is any.

    tiletable db copy ~/.local/share/tiletable/tiletable.db postgresql://club@server/club
    tiletable db check --db postgresql://club@server/club
"""
import json
import os
import sqlite3
from urllib.parse import quote

from tiletable.record import REC_END, REC_HEADER
from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.errors import CommandError
from tiletable_host.progress import Progress

BATCH = 2000  # records per transaction of a copy: a kill loses at most one batch's work
SHOWN = 20  # findings of one kind printed before "... and N more"


def configure(parser):
    commands = parser.add_subparsers(dest="db_command", metavar="{copy,check}", required=True)
    copy = commands.add_parser(
        "copy", help="copy every journal, session and ruleset of SRC into DST (SQLite file or postgresql:// URL)",
        description="Copy every journal, record, session, ruleset and table name of SRC into DST, either of them"
        " a SQLite file or a postgresql:// URL. Stopped and run again, it goes on; run twice, it stores nothing twice.",
    )
    copy.add_argument("source", metavar="SRC", help="the database to copy from")
    copy.add_argument("destination", metavar="DST", help="the database to copy into (made when missing)")
    check = commands.add_parser(
        "check", help="read the whole database and report every inconsistency, one line each",
        description="Read the whole database (on SQLite every page first) and report each inconsistency on one line;"
        " exit status 1 when there is any.",
    )
    check.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())


def do_db(args):
    if args.db_command == "copy":
        return do_copy(args.source, args.destination)
    return do_check(dbtarget.resolve(args.db, dbmod.default_path()))


# ----- reading what the Database API does not list (plain SQL, the same text on both engines:
# every value in it is an integer this module formats, so no placeholder style is needed)


def _rows(db, sql):
    """Every row of ``sql`` on ``db`` (either engine)."""
    try:
        return db.execute(sql).fetchall()
    except db.dialect.errors as exc:  # the engine's own words, on one line
        raise CommandError("cannot read %s: %s" % (db.path, " ".join(str(exc).split())))


def journals(db):
    """``(id, device, identity, boot)`` of every journal, in the order they were first stored."""
    return _rows(db, "SELECT id, device, identity, boot FROM journals ORDER BY id")


def journal_records(db, journal, after, limit=None, up_to=None):
    """``(seq, type, payload bytes)`` of journal ``journal`` after ``after`` (and up to ``up_to``),
    in order; the first ``limit`` of them."""
    rows = _rows(db, "SELECT seq, type, payload FROM records WHERE journal = %d AND seq > %d%s ORDER BY seq%s" % (
        journal, after, "" if up_to is None else " AND seq <= %d" % up_to, "" if limit is None else " LIMIT %d" % limit))
    return [(seq, rtype, bytes(payload)) for seq, rtype, payload in rows]


def tables(db):
    """``(device, name, journal identity or None)`` of every table, by device."""
    return _rows(db, "SELECT t.device, t.name, j.identity FROM tables t LEFT JOIN journals j ON j.id = t.journal ORDER BY t.device")


def rulesets(db):
    """``(hash, name, document)`` of every ruleset stored, by hash."""
    return _rows(db, "SELECT hash, name, document FROM rulesets ORDER BY hash")


def raise_boot(db, journal, boot):
    """A journal's boot counter becomes ``boot`` when that is higher (it only grows)."""
    with db.transaction():
        db.execute("UPDATE journals SET boot = %d WHERE id = %d AND boot < %d" % (boot, journal, boot))


# ----- db copy


def _same(source, destination):
    if dbtarget.is_server(source) or dbtarget.is_server(destination):
        return source == destination
    return os.path.exists(destination) and os.path.samefile(source, destination)


def copy(source_db, destination_db, progress=lambda records: None):
    """Copy everything ``source_db`` holds into ``destination_db`` (two open Databases);
    returns a dict of what was copied and how much of it was new. ``progress(records)`` is
    told how many records are done after each batch."""
    done = {"journals": 0, "records": 0, "new records": 0, "rulesets": 0, "new rulesets": 0, "tables": 0}
    sessions_before = destination_db.session_count()
    for ruleset_hash, name, document in rulesets(source_db):  # first: a session's outcome text needs its ruleset
        done["rulesets"] += 1
        if destination_db.ruleset_document(ruleset_hash) is None:
            destination_db.remember_ruleset(ruleset_hash, name, document)
            done["new rulesets"] += 1
    # before the sessions: a name they were played under joins its player, not a new one
    players = source_db.players()
    done["players"] = len(players)
    done["new names"] = destination_db.copy_register(players)
    for journal, device, identity, boot in journals(source_db):
        done["journals"] += 1
        copied_to = destination_db.journal_id(device, identity)
        after = 0
        while True:
            batch = journal_records(source_db, journal, after, BATCH)
            if not batch:
                break
            held = {record[0]: record for record in journal_records(destination_db, copied_to, after, up_to=batch[-1][0])}
            missing = [record for record in batch if held.get(record[0]) != record]  # another record there: import refuses it
            if missing:
                done["new records"] += destination_db.import_records(device, missing, identity)
            done["records"] += len(batch)
            progress(done["records"])
            after = batch[-1][0]
        raise_boot(destination_db, copied_to, boot)
    for device, name, identity in tables(source_db):
        done["tables"] += 1
        if identity is not None and destination_db.table_journal(device) is None:  # DST's own knowledge of a table wins
            destination_db.remember_pull(device, identity, destination_db.last_boot(device, identity), name)
    done["sessions"] = source_db.session_count()
    done["new sessions"] = destination_db.session_count() - sessions_before
    with destination_db.transaction():
        done["events"], done["seasons"] = copy_events_and_leagues(source_db, destination_db)
    return done


def _session_keys(db):
    """Session id -> (device, journal identity, first record): a session's name in any database."""
    return {row[0]: tuple(row[1:]) for row in _rows(db, "SELECT s.id, j.device, j.identity, s.first_seq FROM sessions s"
                                                        " JOIN journals j ON j.id = s.journal")}


def _id(db, sql, params):
    row = db.execute(sql, params).fetchone()
    return None if row is None else row[0]


def copy_events_and_leagues(source_db, destination_db):
    """Inside DST's transaction: SRC's events and seasons, each found in DST by its name (an
    event by name and day) or made, with what DST lacks of their rounds, teams, fixtures and
    legs; what DST holds stays (a session in another round there, a leg numbered there).
    Returns how many events and seasons SRC has."""
    dst = destination_db
    by_key = {key: session for session, key in _session_keys(dst).items()}
    sessions = {session: by_key.get(key) for session, key in _session_keys(source_db).items()}
    players = {}  # SRC's player id -> DST's, by the register's names (copy_register made them known)
    for player, name in _rows(source_db, "SELECT id, name FROM players"):
        players[player] = _id(dst, "SELECT player FROM player_names WHERE name = ?", (name,))
    events = _rows(source_db, "SELECT id, name, day, kind FROM events ORDER BY id")
    for event, name, day, kind in events:
        dst.execute("INSERT INTO events (name, day, kind) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", (name, day, kind))
        copied_event = _id(dst, "SELECT id FROM events WHERE name = ? AND day = ?", (name, day))
        for round_id, number in _rows(source_db, "SELECT id, number FROM event_rounds WHERE event = %d ORDER BY number" % event):
            dst.execute("INSERT INTO event_rounds (event, number) VALUES (?, ?) ON CONFLICT DO NOTHING", (copied_event, number))
            copied_round = _id(dst, "SELECT id FROM event_rounds WHERE event = ? AND number = ?", (copied_event, number))
            for session, table_name in _rows(source_db, "SELECT session, table_name FROM round_sessions WHERE round = %d" % round_id):
                if sessions.get(session) is not None:
                    dst.execute("INSERT INTO round_sessions (session, round, table_name) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                (sessions[session], copied_round, table_name))
    seasons = _rows(source_db, "SELECT id, name, singles, doubles, leg_win, leg_draw, match_win, match_draw FROM seasons ORDER BY id")
    teams = {}  # SRC's team id -> DST's
    for row in seasons:
        dst.execute("INSERT INTO seasons (name, singles, doubles, leg_win, leg_draw, match_win, match_draw)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", tuple(row[1:]))
        copied_season = _id(dst, "SELECT id FROM seasons WHERE name = ?", (row[1],))
        for team, name in _rows(source_db, "SELECT id, name FROM teams WHERE season = %d ORDER BY id" % row[0]):
            dst.execute("INSERT INTO teams (season, name) VALUES (?, ?) ON CONFLICT DO NOTHING", (copied_season, name))
            teams[team] = _id(dst, "SELECT id FROM teams WHERE season = ? AND name = ?", (copied_season, name))
            for (player,) in _rows(source_db, "SELECT player FROM team_players WHERE team = %d ORDER BY player" % team):
                dst.execute("INSERT INTO team_players (team, player) VALUES (?, ?) ON CONFLICT DO NOTHING", (teams[team], players[player]))
        for fixture, home, away, day in _rows(source_db, "SELECT id, home, away, day FROM fixtures WHERE season = %d ORDER BY id" % row[0]):
            dst.execute("INSERT INTO fixtures (season, home, away, day) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        (copied_season, teams[home], teams[away], day))
            copied_fixture = _id(dst, "SELECT id FROM fixtures WHERE home = ? AND away = ? AND day = ?", (teams[home], teams[away], day))
            for leg, number, kind, session in _rows(source_db, "SELECT id, number, kind, session FROM legs WHERE fixture = %d ORDER BY number" % fixture):
                if _id(dst, "SELECT id FROM legs WHERE fixture = ? AND number = ?", (copied_fixture, number)) is not None:
                    continue
                taken = session is not None and _id(dst, "SELECT id FROM legs WHERE session = ?", (sessions.get(session),)) is not None
                dst.execute("INSERT INTO legs (fixture, number, kind, session) VALUES (?, ?, ?, ?)",
                            (copied_fixture, number, kind, None if session is None or taken else sessions.get(session)))
                copied_leg = _id(dst, "SELECT id FROM legs WHERE fixture = ? AND number = ?", (copied_fixture, number))
                for side, place, player in _rows(source_db, "SELECT side, place, player FROM leg_players WHERE leg = %d ORDER BY side, place" % leg):
                    dst.execute("INSERT INTO leg_players (leg, side, place, player) VALUES (?, ?, ?, ?)", (copied_leg, side, place, players[player]))
    return len(events), len(seasons)


def do_copy(source, destination):
    if _same(source, destination):
        raise CommandError("%s and %s are the same database" % (dbtarget.redact(source), dbtarget.redact(destination)))
    source_db = dbmod.Database.open(source, create=False)
    try:
        destination_db = dbmod.Database.open(destination)
        try:
            with Progress("copy", source_db.record_count(), "records") as bar:  # drawn on a terminal only
                done = copy(source_db, destination_db, bar.update)
        finally:
            destination_db.close()
    finally:
        source_db.close()
    print("copied %s into %s: %d sessions (%d new), %d records (%d new) of %d journals, %d rulesets (%d new), %d tables,"
          " %d players (%d new names), %d events, %d league seasons"
          % (dbtarget.redact(source), dbtarget.redact(destination), done["sessions"], done["new sessions"], done["records"],
             done["new records"], done["journals"], done["rulesets"], done["new rulesets"], done["tables"], done["players"],
             done["new names"], done["events"], done["seasons"]))
    return 0


# ----- db check


def _integrity(path):
    """SQLite's own findings on the file at ``path``, every page read (integrity_check; the
    references between tables are consistency's); the file is opened read-only, left as it is."""
    if not os.path.isfile(path):
        raise CommandError("no database at %s (pass another --db)" % path)
    try:
        conn = sqlite3.connect("file:%s?mode=ro" % quote(os.path.abspath(path)), uri=True)
    except sqlite3.Error as exc:
        raise CommandError("cannot open database %s: %s" % (path, exc))
    try:
        damage = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        if damage == ["ok"]:
            damage = []
        return ["damaged: %s" % line for item in damage for line in item.splitlines() if not line.startswith("***")]
    except sqlite3.DatabaseError as exc:
        return ["damaged: %s" % exc]
    finally:
        conn.close()


# Each check: (what a finding says, with the row's values, and the query finding them). Every
# query is plain SQL both engines run as it is.
_CHECKS = (
    ("session %d says it holds %d records, but %d are filed under it",
     "SELECT s.id, s.records, count(r.seq) FROM sessions s LEFT JOIN records r ON r.session = s.id"
     " GROUP BY s.id, s.records HAVING s.records <> count(r.seq) ORDER BY s.id"),
    ("record %d of journal %d is filed under session %d, which does not exist",
     "SELECT r.seq, r.journal, r.session FROM records r LEFT JOIN sessions s ON s.id = r.session"
     " WHERE r.session IS NOT NULL AND s.id IS NULL ORDER BY r.journal, r.seq"),
    ("record %d of journal %d is filed under session %d, which starts at record %d of journal %d",
     "SELECT r.seq, r.journal, s.id, s.first_seq, s.journal FROM records r JOIN sessions s ON s.id = r.session"
     " WHERE s.journal <> r.journal OR r.seq < s.first_seq ORDER BY r.journal, r.seq"),
    ("record %d of journal %d is filed under session %d, but session %d starts after it and before that record",
     "SELECT r.seq, r.journal, r.session, later.id FROM records r JOIN sessions s ON s.id = r.session"
     " JOIN sessions later ON later.journal = r.journal AND later.first_seq > s.first_seq AND later.first_seq <= r.seq"
     " ORDER BY r.journal, r.seq"),
    ("record %d of journal %d is filed under no session, though session %d starts before it",
     "SELECT r.seq, r.journal, (SELECT max(s.id) FROM sessions s WHERE s.journal = r.journal AND s.first_seq <= r.seq)"
     " FROM records r WHERE r.session IS NULL"
     " AND EXISTS (SELECT 1 FROM sessions s WHERE s.journal = r.journal AND s.first_seq <= r.seq) ORDER BY r.journal, r.seq"),
    ("session %d has no header record (record %d of journal %d)",
     "SELECT s.id, s.first_seq, s.journal FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM records r"
     " WHERE r.journal = s.journal AND r.seq = s.first_seq AND r.type = %d AND r.session = s.id) ORDER BY s.id" % REC_HEADER),
    ("record %d of journal %d starts a session, but no session is stored from it",
     "SELECT r.seq, r.journal FROM records r WHERE r.type = %d AND NOT EXISTS (SELECT 1 FROM sessions s"
     " WHERE s.journal = r.journal AND s.first_seq = r.seq) ORDER BY r.journal, r.seq" % REC_HEADER),
    ("session %d has an end record but no result",
     "SELECT s.id FROM sessions s WHERE s.result IS NULL AND EXISTS (SELECT 1 FROM records r"
     " WHERE r.session = s.id AND r.type = %d) ORDER BY s.id" % REC_END),
    ("session %d has a result but no end record",
     "SELECT s.id FROM sessions s WHERE s.result IS NOT NULL AND NOT EXISTS (SELECT 1 FROM records r"
     " WHERE r.session = s.id AND r.type = %d) ORDER BY s.id" % REC_END),
    ("session %d is filed under journal %d, which does not exist",
     "SELECT s.id, s.journal FROM sessions s LEFT JOIN journals j ON j.id = s.journal WHERE j.id IS NULL ORDER BY s.id"),
    ("session %d names table %s, but its journal %d is %s's",
     "SELECT s.id, s.device, j.id, j.device FROM sessions s JOIN journals j ON j.id = s.journal"
     " WHERE j.device <> s.device ORDER BY s.id"),
    ("record %d of journal %d is filed under a journal that does not exist",
     "SELECT r.seq, r.journal FROM records r LEFT JOIN journals j ON j.id = r.journal WHERE j.id IS NULL"
     " ORDER BY r.journal, r.seq"),
    ("table %s's last journal %d does not exist",
     "SELECT t.device, t.journal FROM tables t LEFT JOIN journals j ON j.id = t.journal"
     " WHERE t.journal IS NOT NULL AND j.id IS NULL ORDER BY t.device"),
    ("table %s's last journal %d is %s's",
     "SELECT t.device, j.id, j.device FROM tables t JOIN journals j ON j.id = t.journal WHERE j.device <> t.device"
     " ORDER BY t.device"),
    ("player %d of the register is not known by their own name %s",
     "SELECT p.id, p.name FROM players p WHERE NOT EXISTS (SELECT 1 FROM player_names n WHERE n.name = p.name AND n.player = p.id)"
     " ORDER BY p.id"),
    ("the name %s belongs to player %d, who is not in the register",
     "SELECT n.name, n.player FROM player_names n LEFT JOIN players p ON p.id = n.player WHERE p.id IS NULL ORDER BY n.name"),
    ("round %d of event %d holds session %d, which does not exist",
     "SELECT r.number, r.event, s.session FROM round_sessions s JOIN event_rounds r ON r.id = s.round"
     " LEFT JOIN sessions x ON x.id = s.session WHERE x.id IS NULL ORDER BY r.event, r.number, s.session"),
    ("session %d is in round %d, which belongs to no event",
     "SELECT s.session, s.round FROM round_sessions s LEFT JOIN event_rounds r ON r.id = s.round"
     " LEFT JOIN events e ON e.id = r.event WHERE e.id IS NULL ORDER BY s.session"),
    ("leg %d of fixture %d was decided by session %d, which does not exist",
     "SELECT l.number, l.fixture, l.session FROM legs l LEFT JOIN sessions s ON s.id = l.session"
     " WHERE l.session IS NOT NULL AND s.id IS NULL ORDER BY l.fixture, l.number"),
    ("leg %d of fixture %d is %s but has %d players",
     "SELECT l.number, l.fixture, l.kind, count(p.player) FROM legs l LEFT JOIN leg_players p ON p.leg = l.id"
     " GROUP BY l.id, l.number, l.fixture, l.kind HAVING count(p.player) <> CASE WHEN l.kind = 'doubles' THEN 4 ELSE 2 END"
     " ORDER BY l.fixture, l.number"),
    ("leg %d of fixture %d has player %d on the %s side, who is not in that team",
     "SELECT l.number, l.fixture, p.player, p.side FROM leg_players p JOIN legs l ON l.id = p.leg JOIN fixtures f ON f.id = l.fixture"
     " WHERE NOT EXISTS (SELECT 1 FROM team_players m WHERE m.player = p.player"
     " AND m.team = CASE WHEN p.side = 'home' THEN f.home ELSE f.away END) ORDER BY l.fixture, l.number, p.player"),
    ("team %d has player %d, who is not in the register",
     "SELECT m.team, m.player FROM team_players m LEFT JOIN players p ON p.id = m.player WHERE p.id IS NULL ORDER BY m.team, m.player"),
)


# Every table and column the queries of this schema version use.
_COLUMNS = {
    "journals": "id, device, identity, boot",
    "tables": "device, name, journal",
    "sessions": "id, journal, device, first_seq, ruleset, hash, players, boot, firmware, time, result, records, who, outcome",
    "records": "journal, seq, type, payload, session",
    "rulesets": "hash, name, document",
    "players": "id, name",
    "player_names": "name, player",
    "events": "id, name, day, kind",
    "event_rounds": "id, event, number",
    "round_sessions": "session, round, table_name",
    "seasons": "id, name, singles, doubles, leg_win, leg_draw, match_win, match_draw",
    "teams": "id, season, name",
    "team_players": "team, player",
    "fixtures": "id, season, home, away, day",
    "legs": "id, fixture, number, kind, session",
    "leg_players": "leg, side, place, player",
}


def _schema(db):
    """Findings on the tables themselves: each one and each column there, as schema
    SCHEMA_VERSION has them (the version mark alone is what opening the database checks)."""
    for table, columns in _COLUMNS.items():
        try:
            _rows(db, "SELECT %s FROM %s WHERE 1 = 0" % (columns, table))
        except CommandError as exc:
            return ["the %s table is not as schema %d has it (%s)" % (table, dbmod.SCHEMA_VERSION, str(exc).split(": ", 1)[-1])]
    return []


def consistency(db):
    """tiletable's own findings on an open Database: (how many, one line each, at most SHOWN
    of a kind with a line saying how many more)."""
    schema = _schema(db)
    if schema:  # the other queries would only fail on it
        return len(schema), schema
    count, lines = 0, []
    for text, query in _CHECKS:
        rows = _rows(db, query)
        count += len(rows)
        lines += [text % tuple(row) for row in rows[:SHOWN]]
        if len(rows) > SHOWN:
            lines.append("... and %d more like that" % (len(rows) - SHOWN))
    unknown = _unregistered(db)
    count += len(unknown)
    lines += unknown[:SHOWN] + (["... and %d more like that" % (len(unknown) - SHOWN)] if len(unknown) > SHOWN else [])
    return count, lines


def _unregistered(db):
    """A line for each name a session was played under that the register does not know (a
    seat named by its number, ``P2``, is nobody's)."""
    known = {name for (name,) in _rows(db, "SELECT name FROM player_names")}
    lines = []
    for session, players in _rows(db, "SELECT id, players FROM sessions ORDER BY id"):
        names = json.loads(players)
        for name in names if isinstance(names, list) else []:
            if not dbmod.nobody(name) and dbmod._text(name) not in known:
                lines.append("session %d was played by %s, whom the register does not know" % (session, name))
    return lines


def check(target):
    """The findings on the database ``target`` (a path or a URL): (how many, one line each)."""
    if not dbtarget.is_server(target):
        damage = _integrity(target)
        if damage:  # reading on through a damaged file finds nothing more to trust
            return len(damage), damage
    db = dbmod.Database.open(target, create=False)
    try:
        if dbtarget.is_server(target):
            try:
                db.check()  # every row of every table read: the server's own damage
            except CommandError as exc:
                return 1, [str(exc)]
        return consistency(db)
    finally:
        db.close()


def do_check(target):
    count, lines = check(target)
    for line in lines:
        print(line)
    if count:
        raise CommandError("%s: %d problem%s found" % (dbtarget.redact(target), count, "" if count == 1 else "s"))
    print("%s: no problems found" % dbtarget.redact(target))
    return 0
