"""The host's database of journal records pulled from tables, and of rulesets synced: a SQLite
file (the default, one PC) or a club's PostgreSQL database (``--db postgresql://...``).

Tables::

    journals  one row per journal a table has had: device (the table's id, ``tiletable-<hex>``),
              identity (the journal's, random, made with it; '' for a table whose firmware
              reports none, and for what was stored before identities), the boot counter at
              the last pull (it only grows within one journal)
    tables    device -> the name the table reported at the last pull that reported one ('' for
              none yet: a name is set once, and a table whose flash lost it keeps it) and the
              journal pulled then: a different one means a wiped, replaced or re-deployed
              journal, or another table with the same id
    records   (journal, seq) -> record type, payload, session id: every journal record as
              the table wrote it (the journal's sequence number is the key, so importing the
              same record twice stores it once, and two journals that both count from 1
              never meet)
    sessions  one row per session header: journal, device, first_seq, ruleset, hash, players
              (JSON), boot, firmware, time, result (the REC_END payload, JSON, or NULL), and
              how many records it holds
    rulesets  hash -> name, document: every ruleset this PC synced (noted before it is sent)
              or imported, so a session can be replayed with the exact ruleset it was played with
    players   the club's register of people: id -> name (unique), the name the pages and
              `tiletable players` show
    player_names  every name a person is known by -> their player: their name in the register,
              each name they played under (a session's names are registered when it is stored:
              a new name is a new player) and the names merged into theirs. A rename or a merge
              changes only these two tables: the sessions keep the names played under.
    events, event_rounds, round_sessions  a club night or a tournament (name, day, kind), its
              rounds numbered from 1, and the sessions played in each round at which table:
              a session is in at most one round, linked by its id, never rewritten (events.py)
    seasons, teams, team_players, fixtures, legs, leg_players  a league season with its points
              per leg and per match, its teams and their players (the register's ids), its
              fixtures (home, away, day) and each fixture's legs: singles or doubles, the
              players of each side, and the session that decided it, if any (league.py)
    live_tables  device -> the table's live picture as the PC beside it last published it to
              the club's server, that PC, and when it was heard from (serve/club.py; a SQLite
              file keeps it empty: its page shows only the tables its own PC watches)

Both engines run one schema and one set of queries, the same SQL text (psycopg 3 for
PostgreSQL, Python's sqlite3 for SQLite: the default needs nothing installed and starts in no
time); the few places they differ (placeholders, column types, how a line or a date is
written, how a batch of rows is inserted, how writers take turns, the schema's marks) are the
two dialect classes at the end. The schema and each
migration are SQL text (``_SCHEMA``, ``MIGRATIONS``), run statement by statement by ``_run_script``.

A SQLite file is marked with ``PRAGMA application_id`` so a foreign file is refused rather than
written into, and ``PRAGMA user_version`` is its schema version; a PostgreSQL database keeps
both in its table ``tiletable_schema``. An older database is migrated in place. A damaged one is
found on demand (``check``, `tiletable sessions --check`): reading years of sessions takes seconds.

A new database gets its marks and its whole schema in one transaction, and an older one all its
migrations in one, so a program killed at any instant leaves either the database as it found it
(empty, which the next program creates) or the finished one; on PostgreSQL the programs that
open a new database at once take turns (an advisory lock), and the first creates it. Many
programs may use one database: readers never wait, and every write is one transaction. On
SQLite it takes the file's write lock before it reads anything (BEGIN IMMEDIATE), waiting
BUSY_TIMEOUT for another program's write before calling the file in use. On PostgreSQL the
writers of one journal take turns and the others never wait for each other: each import
takes its journal's advisory lock, and a command that stores several things at once (import,
sync) also the database's.
"""
import contextlib
import functools
import json
import os
import sqlite3
import time

from tiletable_host import dbtarget
from tiletable_host.errors import CommandError

APPLICATION_ID = 0x54544442  # "TTDB"
SCHEMA_VERSION = 6
MAX_PLAYER_NAME = 40  # characters of a name in the register
BUSY_TIMEOUT = 2.0  # seconds to wait for another program's write before calling the file in use
# Seconds a server lets one of our write transactions sit idle before it ends the session: ours
# never wait between statements, so only a program that died or lost its network (the server
# would not notice for hours) comes to it, and its locks stop holding up the other PCs.
SERVER_IDLE_TIMEOUT = 60

# The schema, in SQLite's words: the PostgreSQL dialect maps its types (``_PostgreSQL.ddl``).
_SESSIONS = """
CREATE TABLE %s (
    id INTEGER PRIMARY KEY,
    journal INTEGER NOT NULL REFERENCES journals (id),
    device TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    hash TEXT NOT NULL,
    players TEXT NOT NULL,
    boot INTEGER,
    firmware TEXT,
    time INTEGER,
    result TEXT,
    records INTEGER NOT NULL DEFAULT 0,
    who TEXT NOT NULL DEFAULT '',
    outcome TEXT NOT NULL DEFAULT 'in progress',
    UNIQUE (journal, first_seq)
)"""
_RECORDS = """
CREATE TABLE %s (
    journal INTEGER NOT NULL REFERENCES journals (id),
    seq INTEGER NOT NULL,
    type INTEGER NOT NULL,
    payload BLOB NOT NULL,
    session INTEGER REFERENCES sessions (id),
    PRIMARY KEY (journal, seq)
)"""
_JOURNALS = """
CREATE TABLE journals (
    id INTEGER PRIMARY KEY,
    device TEXT NOT NULL,
    identity TEXT NOT NULL,
    boot INTEGER NOT NULL DEFAULT 0,
    UNIQUE (device, identity)
)"""
_TABLES = """
CREATE TABLE tables (
    device TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    journal INTEGER REFERENCES journals (id)
)"""
_RECORDS_BY_SESSION = "CREATE INDEX records_by_session ON records (session, seq)"
_RULESETS = """
CREATE TABLE rulesets (
    hash TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    document TEXT NOT NULL
)"""
_PLAYERS = """
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
)"""
_PLAYER_NAMES = """
CREATE TABLE player_names (
    name TEXT PRIMARY KEY,
    player INTEGER NOT NULL REFERENCES players (id)
)"""
_EVENTS = """
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    day TEXT NOT NULL,
    kind TEXT NOT NULL,
    UNIQUE (name, day)
)"""
_EVENT_ROUNDS = """
CREATE TABLE event_rounds (
    id INTEGER PRIMARY KEY,
    event INTEGER NOT NULL REFERENCES events (id),
    number INTEGER NOT NULL,
    UNIQUE (event, number)
)"""
_ROUND_SESSIONS = """
CREATE TABLE round_sessions (
    session INTEGER NOT NULL REFERENCES sessions (id),
    round INTEGER NOT NULL REFERENCES event_rounds (id),
    table_name TEXT NOT NULL,
    PRIMARY KEY (session)
)"""
_SEASONS = """
CREATE TABLE seasons (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    singles INTEGER NOT NULL,
    doubles INTEGER NOT NULL,
    leg_win INTEGER NOT NULL,
    leg_draw INTEGER NOT NULL,
    match_win INTEGER NOT NULL,
    match_draw INTEGER NOT NULL
)"""
_TEAMS = """
CREATE TABLE teams (
    id INTEGER PRIMARY KEY,
    season INTEGER NOT NULL REFERENCES seasons (id),
    name TEXT NOT NULL,
    UNIQUE (season, name)
)"""
_TEAM_PLAYERS = """
CREATE TABLE team_players (
    team INTEGER NOT NULL REFERENCES teams (id),
    player INTEGER NOT NULL REFERENCES players (id),
    PRIMARY KEY (team, player)
)"""
_FIXTURES = """
CREATE TABLE fixtures (
    id INTEGER PRIMARY KEY,
    season INTEGER NOT NULL REFERENCES seasons (id),
    home INTEGER NOT NULL REFERENCES teams (id),
    away INTEGER NOT NULL REFERENCES teams (id),
    day TEXT NOT NULL,
    UNIQUE (home, away, day)
)"""
_LEGS = """
CREATE TABLE legs (
    id INTEGER PRIMARY KEY,
    fixture INTEGER NOT NULL REFERENCES fixtures (id),
    number INTEGER NOT NULL,
    kind TEXT NOT NULL,
    session INTEGER REFERENCES sessions (id),
    UNIQUE (fixture, number),
    UNIQUE (session)
)"""
_LEG_PLAYERS = """
CREATE TABLE leg_players (
    leg INTEGER NOT NULL REFERENCES legs (id),
    side TEXT NOT NULL,
    place INTEGER NOT NULL,
    player INTEGER NOT NULL REFERENCES players (id),
    PRIMARY KEY (leg, player)
)"""
_NIGHTS_AND_LEAGUES = ";\n".join((_EVENTS, _EVENT_ROUNDS, _ROUND_SESSIONS, _SEASONS, _TEAMS, _TEAM_PLAYERS, _FIXTURES, _LEGS, _LEG_PLAYERS)) + ";\n"
# The club's live view (serve/club.py): not history, so neither copied nor checked (``TABLES``).
# ``connected``/``stopped`` are 0 or 1; ``change`` counts the row's pictures; ``updated`` is the
# database server's clock, in seconds since 1970, when the PC was last heard from.
_LIVE_TABLES = """
CREATE TABLE live_tables (
    device TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    pc TEXT NOT NULL,
    port TEXT NOT NULL,
    publisher TEXT NOT NULL,
    connected INTEGER NOT NULL,
    stopped INTEGER NOT NULL DEFAULT 0,
    picture TEXT NOT NULL,
    change INTEGER NOT NULL,
    updated INTEGER NOT NULL
)"""
_SCHEMA = ";\n".join((_JOURNALS, _TABLES, _SESSIONS % "sessions", _RECORDS % "records", _RECORDS_BY_SESSION, _RULESETS, _LIVE_TABLES,
                       _PLAYERS, _PLAYER_NAMES)) + ";\n" + _NIGHTS_AND_LEAGUES
TABLES = ("journals", "tables", "sessions", "records", "rulesets", "players", "player_names", "events", "event_rounds", "round_sessions",
          "seasons", "teams", "team_players", "fixtures", "legs", "leg_players")  # every table of the history, each before those that refer to it
_MARKS = "tiletable_schema"  # PostgreSQL: the table of the application id and the schema version


def _statements(script):
    """The statements of a script of ours (each ends with ``;`` at the end of a line)."""
    return [statement.strip() for statement in script.split(";\n") if statement.strip()]


def _fill_who_and_outcome(db):
    """Schema 2's texts of the sessions stored before it, written as `sessions` shows them."""
    rows = db.execute("SELECT id, players, result FROM sessions").fetchall()
    for session, players, result in rows:
        names = json.loads(players)
        db.execute("UPDATE sessions SET who = ?, outcome = ? WHERE id = ?", (who_text(names), outcome_text(result, names), session))


def _fill_register(db):
    """Schema 5's register: a player for each name the sessions stored before it were played
    under, in the order they first played."""
    for (players,) in db.execute("SELECT players FROM sessions ORDER BY id").fetchall():
        db._register(json.loads(players))


# MIGRATIONS[v]: (SQL script, Python step or None) taking a database from schema version v to
# v + 1, inside the one transaction that runs them all. A PostgreSQL database starts at schema 3:
# the steps below run on SQLite files only, and a step after them is written, like the schema,
# in words both engines take (SQLite's types, which the PostgreSQL dialect maps).
MIGRATIONS = {
    # Each session keeps its record count and the texts `sessions` lists (its players and its
    # outcome), so listing years of sessions counts and decodes nothing.
    1: (
        """
ALTER TABLE sessions ADD COLUMN records INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN who TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN outcome TEXT NOT NULL DEFAULT 'in progress';
UPDATE sessions SET records = (SELECT count(*) FROM records r WHERE r.session = sessions.id);
""",
        _fill_who_and_outcome,
    ),
    # Records and sessions are filed under their journal (``journals``): what was stored
    # before goes under each table's journal from before identities (identity ''), which the
    # next pull of a table that reports an identity takes as its own when the table's journal
    # goes on from it (pull.py), and the boot counters of ``devices`` move there.
    2: (
        ";\n".join((
            _JOURNALS,
            "INSERT INTO journals (device, identity, boot) SELECT device, '', max(boot) FROM"
            " (SELECT device, boot FROM devices UNION ALL SELECT DISTINCT device, 0 FROM sessions"
            " UNION ALL SELECT DISTINCT device, 0 FROM records) AS known GROUP BY device ORDER BY device",
            _TABLES,
            "INSERT INTO tables (device, journal) SELECT device, id FROM journals",
            _SESSIONS % "sessions_3",
            "INSERT INTO sessions_3 (id, journal, device, first_seq, ruleset, hash, players, boot, firmware, time, result,"
            " records, who, outcome) SELECT s.id, j.id, s.device, first_seq, ruleset, hash, players, s.boot, firmware, time,"
            " result, records, who, outcome FROM sessions s JOIN journals j ON j.device = s.device",
            _RECORDS % "records_3",
            "INSERT INTO records_3 (journal, seq, type, payload, session)"
            " SELECT j.id, seq, type, payload, session FROM records r JOIN journals j ON j.device = r.device",
            "DROP TABLE records",
            "DROP TABLE sessions",
            "DROP TABLE devices",
            "ALTER TABLE sessions_3 RENAME TO sessions",
            "ALTER TABLE records_3 RENAME TO records",
            _RECORDS_BY_SESSION,
        )) + ";\n",
        None,
    ),
    # The tables of a club's room, live: each PC beside a table publishes its picture there.
    3: (_LIVE_TABLES + ";\n", None),
    # The club's register of players, filled from the names the sessions were played under.
    4: (_PLAYERS + ";\n" + _PLAYER_NAMES + ";\n", _fill_register),
    # Club nights and tournaments with their rounds, and league seasons with their fixtures.
    5: (_NIGHTS_AND_LEAGUES, None),
}


def who_text(players):
    """The players as `sessions` lists them: ``ann, bob``."""
    return ", ".join(str(name) for name in players)


def outcome_text(result_json, players=(), scale=1):
    """An end record's payload as a short text (``over: ann 61, bob -40``); ``in progress`` for
    none. ``scale``: score units per point or chip (``people.score_scale``: Buki's 2)."""
    from tiletable_host.people import scores_text  # with the engine: only when a session is stored

    if result_json is None:
        return "in progress"
    result = json.loads(result_json)
    text = str(result.get("reason", "ended"))
    if "scores" in result:
        text += ": " + scores_text(players, result["scores"], scale)
    return text


def default_path():
    """``$XDG_DATA_HOME/tiletable/tiletable.db``, else ``~/.local/share/tiletable/tiletable.db``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "tiletable", "tiletable.db")


def _schema_version(conn, path):
    """A SQLite file's schema version, or None for an empty file (new, or one whose creation
    was cut off: nothing of it was committed).

    :raises CommandError: for another program's file, or one a newer tiletable wrote.
    """
    app_id, tables, version = conn.execute(  # one statement: one moment of a file another program may be creating
        "SELECT (SELECT application_id FROM pragma_application_id), (SELECT count(*) FROM sqlite_master),"
        " (SELECT user_version FROM pragma_user_version)"
    ).fetchone()
    if app_id == 0 and tables == 0:
        return None
    if app_id != APPLICATION_ID:
        raise CommandError("%s is not a tiletable database (it belongs to another program); pass another --db" % path)
    return _known(version, path)


def _known(version, path):
    if version > SCHEMA_VERSION:
        raise CommandError(
            "database %s was written by a newer tiletable (schema %d; this one knows up to %d): upgrade tiletable"
            % (path, version, SCHEMA_VERSION)
        )
    return version


def _use_wal(conn):
    """Put the file in WAL mode: readers never wait for a writer (a `pull` while `show` runs),
    and a crash loses nothing. The switch needs the file to itself for a moment, and SQLite
    says "locked" at once, without waiting, to a program switching it while another one does
    (two programs that both find a new file): so it is tried again until BUSY_TIMEOUT."""
    deadline = time.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if not _busy(exc) or time.monotonic() > deadline:
                raise
        time.sleep(0.005)


def _busy(exc):
    """Whether an sqlite3 error means another program holds the file."""
    reason = str(exc)
    return "locked" in reason or "busy" in reason


def _database_errors(method):
    """A Database method whose database errors (another program's lock, a full disk, a damaged
    file, a lost server) come out as ``database_error``'s one line."""

    @functools.wraps(method)
    def checked(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except self.dialect.errors as exc:
            raise database_error(self.path, exc, self.target) from exc

    return checked


def _integer(value):
    """A header's number as the database keeps it: an int a 64-bit column holds, else None."""
    fits = isinstance(value, int) and not isinstance(value, bool) and -(2**63) <= value < 2**63
    return value if fits else None


def _text(value):
    """A header's word as the database keeps it: PostgreSQL's text holds no NUL character, so
    neither engine keeps one (one table's odd header must not stop its pulls into a server)."""
    return str(value).replace("\x00", "\ufffd")


class ConflictError(CommandError):
    """A record already stored under the same device and sequence number has other bytes."""


class Database:
    """An open tiletable database. Use ``Database.open(target)``; close with ``close()``.
    ``path`` is what messages name (a URL without its password), ``target`` what was opened.

    Example::

        db = Database.open(default_path())   # or "postgresql://club@server/club"
        added = db.import_records("tiletable", records)
    """

    def __init__(self, target, connection, dialect):
        self.target = target
        self.path = dbtarget.redact(target)
        self.conn = connection
        self.dialect = dialect
        self._writing_now = False
        self._names_seen = set()

    @classmethod
    def open(cls, target, create=True):
        """Open (and with ``create``, initialise or migrate) the database ``target``: a SQLite
        file's path, or a ``postgresql://`` URL.

        :raises CommandError: for a file that is not SQLite, a database that belongs to another
            program, is in use by another program, was made by a newer tiletable, is missing
            (or, on a server, has no schema yet) when ``create`` is False, a file in a folder
            that does not exist (only the default path's are made), or a server that cannot be
            reached or refuses the login.
        """
        if dbtarget.is_server(target):
            return cls._open_server(target, create)
        return cls._open_file(target, create)

    @classmethod
    def _open_file(cls, path, create):
        if not create and not os.path.exists(path):
            raise CommandError("no database at %s (run `tiletable pull` first, or pass --db)" % path)
        if os.path.isdir(path):
            raise CommandError("%s is a folder; pass a database file with --db" % path)
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder) and os.path.abspath(path) != os.path.abspath(default_path()):
            # only the default's folders are made: a missing folder in --db is a typing mistake
            raise CommandError("no folder %s for the database %s; create it first, or pass another --db" % (folder, path))
        try:
            os.makedirs(folder, exist_ok=True)
            # isolation_level None: sqlite3 begins no transaction of its own (it would read before it locks)
            conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise CommandError("cannot open database %s: %s" % (path, getattr(exc, "strerror", None) or exc))
        return cls(path, conn, _SQLite())._prepared(create)

    @classmethod
    def _open_server(cls, url, create):
        conn = dbtarget.connect(url, autocommit=True)  # transactions are ours: BEGIN ... COMMIT
        return cls(url, conn, _PostgreSQL())._prepared(create)

    def _prepared(self, create):
        """This database, created or migrated when it needs it; closed when that fails."""
        try:
            self.dialect.prepare(self, create)
        except self.dialect.errors as exc:
            self.close()
            raise database_error(self.path, exc, self.target) from None
        except BaseException:
            self.close()
            raise
        return self

    def _create_or_migrate(self, version):
        """Inside the transaction that holds the write lock: the schema and its marks for a new
        database (``version`` None), else the migrations from ``version``."""
        if version is None:
            self.dialect.mark(self, SCHEMA_VERSION, new=True)  # marked before anything else
            self._run_script(_SCHEMA)
            return
        for step in range(version, SCHEMA_VERSION):
            script, then = MIGRATIONS[step]
            self._run_script(script)
            if then is not None:
                then(self)
        self.dialect.mark(self, SCHEMA_VERSION, new=False)

    def _run_script(self, script):
        for statement in _statements(script):
            self.conn.execute(self.dialect.ddl(statement))

    def execute(self, sql, params=()):
        """Run one statement written for SQLite's sqlite3 (``?`` placeholders) on either engine;
        the cursor (fetchone, fetchall, iteration)."""
        return self.conn.execute(self.dialect.sql(sql), params)

    def _insert_rows(self, table, columns, rows):
        """INSERT ``rows`` (tuples of ``columns``, given by name and SQLite type) into ``table``
        in as few statements as the engine likes."""
        if rows:
            self.dialect.insert_rows(self, table, columns, rows)

    @contextlib.contextmanager
    def _writing(self, journal=None, everything=False):
        """One write transaction, committed when the block ends and rolled back when it raises;
        inside another one it is part of that one. It waits for the other writers of
        ``journal`` (and with ``everything``, for the other commands that store several things
        at once) before it reads anything, so nothing it read changes before it writes."""
        if self._writing_now:
            self.dialect.lock(self, journal, False)
            yield
            return
        self.conn.execute(self.dialect.begin)
        self._writing_now = True
        try:
            self.dialect.lock(self, journal, everything)
            yield
            self.dialect.commit(self)
        except BaseException:
            with contextlib.suppress(*self.dialect.errors):  # a lost server has rolled it back itself
                self.conn.execute("ROLLBACK")
            raise
        finally:
            self._writing_now = False

    @contextlib.contextmanager
    def transaction(self):
        """Make the writes in the block one transaction: all of them are stored, or none (a
        command that stores several things, and fails or is killed between them)."""
        try:
            with self._writing(everything=True):
                yield
        except self.dialect.errors as exc:
            raise database_error(self.path, exc, self.target) from exc

    def check(self):
        """Read the whole database (slow on a large one: on demand only).

        :raises CommandError: naming what is damaged.
        """
        try:
            self.dialect.check(self)
        except self.dialect.errors as exc:
            raise database_error(self.path, exc, self.target) from None

    def close(self):
        self.conn.close()

    # ----- journal records

    @_database_errors
    def journal_id(self, device, identity=""):
        """The row of ``device``'s journal ``identity`` in ``journals``, made when new (by
        this program or another one at the same moment)."""
        find = "SELECT id FROM journals WHERE device = ? AND identity = ?"
        row = self.execute(find, (device, identity)).fetchone()
        if row is None:
            with self._writing():
                self.execute("INSERT INTO journals (device, identity) VALUES (?, ?) ON CONFLICT DO NOTHING", (device, identity))
            row = self.execute(find, (device, identity)).fetchone()
        return row[0]

    @_database_errors
    def last_seq(self, device, identity=""):
        """The highest sequence number stored for ``device``'s journal ``identity`` (0 when none)."""
        row = self.execute(
            "SELECT max(seq) FROM records r JOIN journals j ON j.id = r.journal WHERE device = ? AND identity = ?", (device, identity)
        ).fetchone()
        return row[0] or 0

    def import_records(self, device, records, identity=""):
        """Store ``(seq, rtype, payload)`` records of ``device``'s journal ``identity`` in one
        transaction; returns how many were new. A record already stored with the same bytes
        is skipped.

        :raises ConflictError: when a stored record has the same sequence number but other
            bytes (two tables with one device name, or a journal that was wiped, both from a
            firmware that reports no journal identity).
        """
        try:
            return self._import(device, identity, records)
        except self.dialect.errors as exc:  # disk full, read-only file, locked by another program, a lost server
            raise database_error(self.path, exc, self.target) from exc

    def _import(self, device, identity, records):
        """What is stored already is read in one statement and the new records written in one
        batch (on a server each statement is a round trip: one per record was 14 times slower)."""
        from tiletable.record import REC_END, REC_HEADER  # the engine's: listing and showing need none of it

        records = [(seq, rtype, bytes(payload)) for seq, rtype, payload in records]
        journal = self.journal_id(device, identity)
        if not records:
            return 0
        new = []  # rows of records
        self._names_seen = set()  # the players' names of the sessions it stores (``_add_session``)
        ends = []  # (session id, result)
        counts = {}  # session id -> records added to it
        with self._writing(journal):
            seqs = [seq for seq, _, _ in records]
            stored = {
                seq: (rtype, bytes(payload))
                for seq, rtype, payload in self.execute(
                    "SELECT seq, type, payload FROM records WHERE journal = ? AND seq BETWEEN ? AND ?", (journal, min(seqs), max(seqs))
                )
            }
            session = None
            for seq, rtype, payload in records:
                held = stored.get(seq)
                if held is not None:
                    if held != (rtype, payload):
                        raise ConflictError(
                            "record %d of %s differs from the copy in %s; is this another table with the same name?"
                            % (seq, device, self.path)
                        )
                    continue
                stored[seq] = (rtype, payload)  # a record given twice is stored once
                if rtype == REC_HEADER:
                    session = self._add_session(journal, device, seq, payload)
                elif session is None:
                    session = self._session_of(journal, seq)
                new.append((journal, seq, rtype, payload, session))
                if rtype == REC_END and session is not None:
                    ends.append((session, payload.decode()))
                counts[session] = counts.get(session, 0) + 1
            self._insert_rows("records", (("journal", "INTEGER"), ("seq", "INTEGER"), ("type", "INTEGER"), ("payload", "BLOB"), ("session", "INTEGER")), new)
            # in one order whatever the sessions: two pulls registering the same new names at
            # once (a server's) wait for each other's rows, never each for the other's
            self._register(sorted(self._names_seen))
            for session_id, result in ends:
                self.execute("UPDATE sessions SET result = ?, outcome = ? WHERE id = ?", (result, _text(self._outcome(session_id, result)), session_id))
            for session_id, count in counts.items():
                if session_id is not None:
                    self.execute("UPDATE sessions SET records = records + ? WHERE id = ?", (count, session_id))
        return len(new)

    def _outcome(self, session_id, result):
        """The outcome text `sessions` lists, with the players' names and Buki's chips."""
        from tiletable_host.sessionlog import session_scale  # it imports the engine: only when ending a session

        session = self.session(session_id)
        return outcome_text(result, session["players"], session_scale(self, session))

    def _add_session(self, journal, device, seq, payload):
        header = json.loads(bytes(payload).decode())
        players = header.get("players", [])
        firmware = header.get("firmware")
        cursor = self.execute(
            "INSERT INTO sessions (journal, device, first_seq, ruleset, hash, players, boot, firmware, time, who)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?){returning}",
            (
                journal,
                device,
                seq,
                _text(header.get("ruleset", "?")),
                _text(header.get("hash", "")),
                json.dumps(players),
                _integer(header.get("boot")),
                None if firmware is None else _text(firmware),
                _integer(header.get("time")),
                _text(who_text(players if isinstance(players, list) else [players])),
            ),
        )
        self._names_seen.update(name for name in (players if isinstance(players, list) else []) if isinstance(name, str))
        return self.dialect.inserted_id(cursor)

    def _session_of(self, journal, seq):
        """The session that record ``seq`` of ``journal`` belongs to: the latest header at or before it."""
        row = self.execute(
            "SELECT id FROM sessions WHERE journal = ? AND first_seq <= ? ORDER BY first_seq DESC LIMIT 1", (journal, seq)
        ).fetchone()
        return row[0] if row else None

    @_database_errors
    def last_boot(self, device, identity=""):
        """The boot counter of ``device``'s journal ``identity`` at the last pull (0 when never pulled)."""
        row = self.execute("SELECT boot FROM journals WHERE device = ? AND identity = ?", (device, identity)).fetchone()
        return row[0] if row else 0

    @_database_errors
    def newest_session(self, device, identity=""):
        """``(first_seq, hash, boot)`` of the newest session stored from that journal, or None."""
        row = self.execute(
            "SELECT first_seq, hash, s.boot FROM sessions s JOIN journals j ON j.id = s.journal"
            " WHERE j.device = ? AND identity = ? ORDER BY first_seq DESC LIMIT 1",
            (device, identity),
        ).fetchone()
        return None if row is None else tuple(row)

    @_database_errors
    def table_journal(self, device):
        """The identity of the journal last pulled from ``device``, or None when never pulled."""
        row = self.execute("SELECT identity FROM tables t JOIN journals j ON j.id = t.journal WHERE t.device = ?", (device,)).fetchone()
        return row[0] if row else None

    @_database_errors
    def name_journal(self, device, identity):
        """The journal ``device`` reported before identities ('') is the one it now names
        ``identity`` (pull.py checks that it goes on from what is stored); nothing changes when
        a journal of that identity is stored already."""
        with self._writing():
            self.execute(
                "UPDATE journals SET identity = ? WHERE device = ? AND identity = ''"
                " AND NOT EXISTS (SELECT 1 FROM journals named WHERE named.device = ? AND named.identity = ?)",
                (identity, device, device, identity),
            )

    @_database_errors
    def remember_pull(self, device, identity, boot, name):
        """After a pull: the journal's boot counter, and the table's name and journal. A table's
        name is set once: a table that reports none (its flash wiped by a re-deploy) keeps the
        one it had here; one that reports another is called by it."""
        journal = self.journal_id(device, identity)
        with self._writing():
            self.execute("UPDATE journals SET boot = ? WHERE id = ?", (boot, journal))
            self.execute(
                "INSERT INTO tables (device, name, journal) VALUES (?, ?, ?)"
                " ON CONFLICT (device) DO UPDATE SET name = CASE WHEN excluded.name = '' THEN tables.name ELSE excluded.name END,"
                " journal = excluded.journal",
                (device, name, journal),
            )

    # ----- sessions

    @_database_errors
    def sessions(self):
        """Every session as a dict (id, device, first_seq, ruleset, hash, players, boot,
        firmware, time, result, records, started, who, outcome, journal: its identity, table:
        the table's name as people set it, else its device name), oldest first."""
        return [_session_dict(row) for row in self.execute(_SESSIONS_QUERY + " ORDER BY s.id")]

    @_database_errors
    def listing(self, row_format):
        """Every session as one line of text, oldest first: ``row_format`` (SQLite's printf,
        where ``%!-20s`` pads by characters, as Python does) applied to id, started, ruleset,
        table (its name, else its device name), records, who and outcome. What `tiletable
        sessions` prints, formatted by the database, decoding no JSON and making no tuple in
        Python: on years of sessions that takes a third of the time."""
        return [row[0] for row in self.execute(_LISTING_QUERY, (self.dialect.row_format(row_format),))]

    @_database_errors
    def session(self, session_id):
        """One session (see ``sessions``). :raises CommandError: when there is no such session."""
        row = self.execute(_SESSIONS_QUERY + " WHERE s.id = ?", (session_id,)).fetchone()
        if row is None:
            raise CommandError("no session %d in %s (see `tiletable sessions`)" % (session_id, self.path))
        return _session_dict(row)

    @_database_errors
    def session_records(self, session_id):
        """``(seq, rtype, payload bytes)`` of a session, in order."""
        rows = self.execute("SELECT seq, type, payload FROM records WHERE session = ? ORDER BY seq", (session_id,))
        return [(seq, rtype, bytes(payload)) for seq, rtype, payload in rows]

    @_database_errors
    def session_count(self):
        return self.execute("SELECT count(*) FROM sessions").fetchone()[0]

    @_database_errors
    def record_count(self):
        return self.execute("SELECT count(*) FROM records").fetchone()[0]

    # ----- rulesets

    @_database_errors
    def remember_ruleset(self, ruleset_hash, name, document):
        with self._writing():
            self.execute(
                "INSERT INTO rulesets (hash, name, document) VALUES (?, ?, ?)"
                " ON CONFLICT (hash) DO UPDATE SET name = excluded.name, document = excluded.document",
                (ruleset_hash, name, document),
            )

    @_database_errors
    def ruleset_document(self, ruleset_hash):
        row = self.execute("SELECT document FROM rulesets WHERE hash = ?", (ruleset_hash,)).fetchone()
        return row[0] if row else None


    # ----- the register of players

    def _register(self, names):
        """Inside a write: each of a session's ``names`` that nobody is known by becomes a new
        player of that name (``nobody``: a seat named by its number, ``P2``). Another program
        registering the same name at once makes one player of it: the second insert waits for
        the first and does nothing."""
        for name in names:
            if nobody(name):
                continue
            name = _text(name)
            if self.execute("SELECT 1 FROM player_names WHERE name = ?", (name,)).fetchone() is None:
                self.execute("INSERT INTO players (name) VALUES (?) ON CONFLICT DO NOTHING", (name,))
                self.execute("INSERT INTO player_names (name, player) SELECT ?, id FROM players WHERE name = ? ON CONFLICT DO NOTHING", (name, name))

    @_database_errors
    def players(self):
        """The register, in alphabetical order (capitals or not): ``{"id", "name", "names"}`` for
        each player, ``names`` every other name they are known by (played under, or merged into
        theirs), in that order too."""
        found = {}
        for player, name in self.execute("SELECT id, name FROM players"):
            found[player] = {"id": player, "name": name, "names": []}
        for name, player in self.execute("SELECT name, player FROM player_names"):
            if player in found and name != found[player]["name"]:
                found[player]["names"].append(name)
        for player in found.values():
            player["names"].sort(key=_alphabetical)
        return sorted(found.values(), key=lambda player: _alphabetical(player["name"]))  # in Python: one order on both engines

    @_database_errors
    def register_names(self):
        """Every name known -> the register's name of its player (``annie`` -> ``ann`` after a
        merge; ``ann`` -> ``ann``)."""
        return dict(self.execute("SELECT n.name, p.name FROM player_names n JOIN players p ON p.id = n.player").fetchall())

    def _owner(self, name):
        """``(id, register name)`` of the player known by ``name``, or None."""
        row = self.execute("SELECT p.id, p.name FROM player_names n JOIN players p ON p.id = n.player WHERE n.name = ?", (name,)).fetchone()
        return None if row is None else tuple(row)

    def _player(self, name, action):
        """The id of the player whose register name is ``name``.

        :raises CommandError: for a name nobody has, or one that is another name of someone."""
        owner = self._owner(name)
        if owner is None:
            raise CommandError("nobody is named %r in the register (%s)" % (name, self._close_text(name) or "see `tiletable players`"))
        if owner[1] != name:
            raise CommandError("%r is another name of %s: %s %s" % (name, owner[1], action, owner[1]))
        return owner[0]

    def _close_text(self, name):
        close = close_names(name, self.register_names())
        return "did you mean %s?" % " or ".join(repr(n) for n in close) if close else ""

    @_database_errors
    def add_player(self, name):
        """A new player ``name`` (``player_name`` checks it). :raises CommandError: when
        someone is known by that name already."""
        name = player_name(name)
        with self._writing(everything=True):
            owner = self._owner(name)
            if owner is not None:
                raise CommandError("%r is taken: %s" % (name, "a player of that name is in the register" if owner[1] == name else "it is another name of %s" % owner[1]))
            self._not_in_other_capitals(name, None)
            self.execute("INSERT INTO players (name) VALUES (?)", (name,))
            self.execute("INSERT INTO player_names (name, player) SELECT ?, id FROM players WHERE name = ?", (name, name))
        return name

    def _not_in_other_capitals(self, name, player):
        """:raises CommandError: when someone other than ``player`` is known by ``name`` in
        other capitals (``Ann`` for ``ann``): one person, most likely, typed another way."""
        for known, owner, owner_name in self.execute(
                "SELECT n.name, p.id, p.name FROM player_names n JOIN players p ON p.id = n.player WHERE lower(n.name) = lower(?)", (name,)):
            if owner != player:
                raise CommandError("%r is %s%s in other capitals; to call them %s: tiletable players rename %s %s" % (
                    name, owner_name, "" if known == owner_name else " (as %s)" % known, _quoted(name), _quoted(owner_name), _quoted(name)))

    @_database_errors
    def rename_player(self, old, new):
        """The player ``old`` is called ``new`` from now on; ``old`` stays one of their names
        (sessions played under it are theirs). :raises CommandError: for an unknown ``old``, or
        a ``new`` another player is known by (merge them instead)."""
        new = player_name(new)
        with self._writing(everything=True):
            player = self._player(old, "rename")
            if new == old:
                raise CommandError("%s is named %r already" % (old, new))
            owner = self._owner(new)
            if owner is not None and owner[0] != player:
                raise CommandError("%r is taken by %s; to make them one player: tiletable players merge %s %s" % (
                    new, owner[1], _quoted(old), _quoted(owner[1])))
            if owner is None:
                self._not_in_other_capitals(new, player)
            self.execute("UPDATE players SET name = ? WHERE id = ?", (new, player))
            if owner is None:
                self.execute("INSERT INTO player_names (name, player) VALUES (?, ?)", (new, player))
        return new

    @_database_errors
    def merge_players(self, source, into):
        """``source`` and ``into`` are one person: every name of ``source`` becomes one of
        ``into``'s, and ``source`` leaves the register. Returns how many sessions ``source``
        brought. :raises CommandError: for an unknown name, a merge into oneself, or two players
        who sat at one table (two people)."""
        with self._writing(everything=True):
            gone = self._player(source, "merge")
            kept = self._player(into, "merge into")
            if gone == kept:
                raise CommandError("cannot merge %s into itself" % source)
            names = {}
            for name, player in self.execute("SELECT name, player FROM player_names WHERE player IN (?, ?)", (gone, kept)):
                names[name] = player
            brought = 0
            for session, players in self.execute("SELECT id, players FROM sessions ORDER BY id").fetchall():
                listed = json.loads(players)
                seated = {names.get(name) for name in (listed if isinstance(listed, list) else []) if isinstance(name, str)}
                if gone in seated and kept in seated:
                    raise CommandError("%s and %s played at one table (session %d): they are two people, not one" % (source, into, session))
                brought += gone in seated
            self.execute("UPDATE player_names SET player = ? WHERE player = ?", (kept, gone))
            for table, group in (("team_players", "team"), ("leg_players", "leg")):  # a team or a leg has them once
                self.execute("DELETE FROM %s WHERE player = ? AND %s IN (SELECT %s FROM %s WHERE player = ?)" % (table, group, group, table), (gone, kept))
                self.execute("UPDATE %s SET player = ? WHERE player = ?" % table, (kept, gone))
            self.execute("DELETE FROM players WHERE id = ?", (gone,))
        return brought

    @_database_errors
    def copy_register(self, players):
        """Learn another database's register (``players()``): each of its names this one does
        not know goes to the player here known by that player's name (else by another of its
        names), or to a new player of that name. What this database knows stays as it is.
        Returns how many names were new."""
        added = 0
        with self._writing(everything=True):
            for player in players:
                names = [player["name"]] + player["names"]
                owners = [self._owner(name) for name in names]
                unknown = [name for name, owner in zip(names, owners) if owner is None]
                if not unknown:
                    continue
                known = [owner for owner in owners if owner is not None]
                if known:
                    target = known[0][0]
                else:
                    self.execute("INSERT INTO players (name) VALUES (?)", (player["name"],))
                    target = self.execute("SELECT id FROM players WHERE name = ?", (player["name"],)).fetchone()[0]
                for name in unknown:
                    self.execute("INSERT INTO player_names (name, player) VALUES (?, ?)", (name, target))
                added += len(unknown)
        return added


def player_name(name):
    """``name`` as the register keeps it: without spaces around it.

    :raises CommandError: for one that cannot name a person at a table: empty, several lines,
        a comma (``--players`` lists names with commas), over MAX_PLAYER_NAME characters, or a
        seat's number (``P2``: how a table names a seat without a player)."""
    import re

    name = name.strip()
    if not name:
        raise CommandError("a player's name cannot be empty")
    if any(ord(c) < 32 or ord(c) == 127 for c in name) or "," in name:
        raise CommandError("a player's name is one line of text without commas: %r" % name)
    if len(name) > MAX_PLAYER_NAME:
        raise CommandError("%r is %d characters; a player's name is at most %d" % (name, len(name), MAX_PLAYER_NAME))
    if re.fullmatch(r"P\d+", name):
        raise CommandError("%r is how a table names a seat without a player; choose a person's name" % name)
    return name


def nobody(name):
    """Whether a session's name for a seat names nobody: empty, or a seat's number (``P2``: a
    game started at the table names its seats so)."""
    import re

    return not isinstance(name, str) or not name.strip() or re.fullmatch(r"P\d+", name) is not None


def close_names(name, known, n=3):
    """Up to ``n`` register names close to ``name`` (a typo, another case), closest first;
    ``known``: ``register_names()``."""
    import difflib

    lowered = {}
    for alias, player in known.items():
        lowered.setdefault(alias.lower(), player)
    found = []
    for alias in difflib.get_close_matches(name.lower(), list(lowered), n=n * 2, cutoff=0.6):
        if lowered[alias] not in found:
            found.append(lowered[alias])
    return found[:n]


def _alphabetical(name):
    return (name.casefold(), name)


def _quoted(name):
    return '"%s"' % name if " " in name else name


# Every session field, and the texts a person reads: started ("2024-03-01 19:30 UTC" or "time
# unknown", ``{started}``: each engine writes a date its own way), who ("ann, bob") and outcome
# ("target 141-204"), the last two kept when stored so that listing years of sessions decodes
# no JSON; and the table as people named it.
_TABLE = "coalesce(nullif(t.name, ''), s.device)"
_FROM = " FROM sessions s JOIN journals j ON j.id = s.journal LEFT JOIN tables t ON t.device = s.device"
_SESSIONS_QUERY = (
    "SELECT s.id, s.device, first_seq, ruleset, hash, players, s.boot, firmware, time, result, records, {started}, who, outcome,"
    " identity, %s" % _TABLE + _FROM
)
_LISTING_QUERY = "SELECT {format}(?, s.id, {started}, ruleset, %s, records, who, outcome)" % _TABLE + _FROM + " ORDER BY s.id"


def database_error(path, exc, target=None):
    """The one-line CommandError for a database error (sqlite3's or psycopg's) on the database
    ``path`` (as messages name it; ``target``: the URL opened, whose password never shows)."""
    if not isinstance(exc, sqlite3.Error):
        return _server_error(path, exc, target)
    reason = str(exc)
    if _busy(exc):
        return CommandError("database %s is in use by another program; try again when it has finished" % path)
    if "not a database" in reason:
        return CommandError("%s is not a tiletable database (%s)" % (path, reason))
    if "malformed" in reason or "corrupt" in reason:
        return CommandError("database %s is damaged (%s); restore a backup or pass another --db" % (path, reason))
    return CommandError("cannot use database %s: %s" % (path, reason))


def _server_error(path, exc, target):
    """A psycopg error on an open server database, by its SQLSTATE class."""
    reason = " ".join(str(exc).split()) or type(exc).__name__
    if target:
        reason = dbtarget.strip_password(reason, target)
    import psycopg

    state = getattr(exc, "sqlstate", None) or ""
    lost = isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)) and not state
    if lost or state.startswith("08") or state in ("57P01", "57P02", "57P03", "25P03"):  # 25P03: SERVER_IDLE_TIMEOUT
        return CommandError("lost the database server of %s (%s); what was not committed is not stored, try again" % (path, reason))
    if state in ("55P03", "40P01", "40001"):
        return CommandError("database %s is in use by another program; try again when it has finished" % path)
    if state == "42501":
        return CommandError("the database server refused %s: %s (ask its owner for the rights)" % (path, reason))
    if state.startswith("53"):
        return CommandError("the database server of %s is out of room (%s)" % (path, reason))
    if state.startswith("XX"):
        return CommandError("database %s is damaged (%s); restore a backup or pass another --db" % (path, reason))
    return CommandError("cannot use database %s: %s" % (path, reason))


def _session_dict(row):
    keys = ("id", "device", "first_seq", "ruleset", "hash", "players", "boot", "firmware", "time", "result", "records",
            "started", "who", "outcome", "journal", "table")
    session = dict(zip(keys, row))
    session["players"] = json.loads(session["players"])
    session["result"] = json.loads(session["result"]) if session["result"] else None
    return session


# ----- the engines' differences: everything else is the same SQL text


class _SQLite:
    """A SQLite file: sqlite3's ``?`` placeholders and printf; the file's write lock (BEGIN
    IMMEDIATE) makes every write wait for the others, so there is nothing else to lock."""

    errors = (sqlite3.Error,)
    begin = "BEGIN IMMEDIATE"
    _WORDS = {
        "{started}": "coalesce(strftime('%Y-%m-%d %H:%M UTC', {known_time}, 'unixepoch'), 'time unknown')",
        "{format}": "printf",
        "{returning}": "",
    }

    def __init__(self):
        self._said = {}

    def sql(self, text):
        said = self._said.get(text)
        if said is None:
            said = self._said[text] = _words(text, self._WORDS)
        return said

    def ddl(self, statement):
        return statement

    def row_format(self, row_format):
        return row_format

    @staticmethod
    def inserted_id(cursor):
        return cursor.lastrowid

    @staticmethod
    def insert_rows(db, table, columns, rows):
        """One statement run for each row (in SQLite, a statement is a call, not a round trip)."""
        insert = "INSERT INTO %s (%s) VALUES (%s)" % (table, ", ".join(name for name, _ in columns), ", ".join("?" * len(columns)))
        db.conn.executemany(insert, rows)

    def prepare(self, db, create):
        """Create or migrate the file, each in one transaction, when it needs it (checked first
        without a lock: another program's long write does not hold up a reader)."""
        version = _schema_version(db.conn, db.path)
        if db.conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            _use_wal(db.conn)
        if version == SCHEMA_VERSION:
            return
        with db._writing():
            db._create_or_migrate(_schema_version(db.conn, db.path))  # again: another program may have done it meanwhile

    @staticmethod
    def mark(db, version, new):
        if new:
            db.conn.execute("PRAGMA application_id = %d" % APPLICATION_ID)
        db.conn.execute("PRAGMA user_version = %d" % version)

    @staticmethod
    def lock(db, journal, everything):
        """Nothing: BEGIN IMMEDIATE holds the file's write lock."""

    @staticmethod
    def commit(db):
        db.conn.execute("COMMIT")

    @staticmethod
    def check(db):
        health = db.conn.execute("PRAGMA quick_check").fetchone()[0]
        if health != "ok":  # "*** in database main ***\nOn tree page 3 ...": one line, without the banner
            health = "; ".join(line for line in health.splitlines() if not line.startswith("***"))
            raise CommandError("database %s is damaged (%s); restore a backup or pass another --db" % (db.path, health))


class _PostgreSQL:
    """A PostgreSQL database through psycopg 3: ``%s`` placeholders, PostgreSQL's types and
    ``format``, a schema-version table, and advisory locks (held to the end of the
    transaction) where SQLite has its one write lock."""

    _WORDS = {
        "{started}": "coalesce(to_char(to_timestamp({known_time}) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI \"UTC\"'), 'time unknown')",
        "{format}": "format",
        "{returning}": " RETURNING id",
    }
    _TYPES = (  # SQLite's column types in the schema -> PostgreSQL's
        (r"\bINTEGER PRIMARY KEY\b", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
        (r"\bINTEGER\b", "BIGINT"),
        (r"\bBLOB\b", "BYTEA"),
    )
    @property
    def begin(self):
        """READ COMMITTED whatever the server's default: a statement that follows a lock sees
        what the writer before it committed. synchronous_commit on: a COMMIT that returned is on
        the server's disk, so the table may delete what it acknowledges after it. And an idle
        timeout (SERVER_IDLE_TIMEOUT) for a program that dies in the middle."""
        return (
            "BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL synchronous_commit = on;"
            " SET LOCAL idle_in_transaction_session_timeout = %d" % (SERVER_IDLE_TIMEOUT * 1000)
        )
    _SCHEMA_LOCK = APPLICATION_ID  # pg_advisory_xact_lock(bigint): creating or migrating the schema
    _EVERYTHING = 0  # pg_advisory_xact_lock(APPLICATION_ID, 0): a command storing several things
    # pg_advisory_xact_lock(APPLICATION_ID, journal id): one journal's writers (ids start at 1)

    def __init__(self):
        import psycopg

        self.errors = (psycopg.Error,)
        self._said = {}

    def sql(self, text):
        said = self._said.get(text)
        if said is None:
            said = self._said[text] = _words(text.replace("%", "%%").replace("?", "%s"), self._WORDS)
        return said

    def ddl(self, statement):
        import re  # here: a command on a SQLite file does not load it

        for pattern, replacement in self._TYPES:
            statement = re.sub(pattern, replacement, statement)
        return statement

    @staticmethod
    def row_format(row_format):
        """SQLite's printf format as PostgreSQL's ``format``: ``%!-20s`` -> ``%-20s``, ``%7d`` ->
        ``%7s`` (format pads by characters, and writes a number as its digits)."""
        import re

        return re.sub(r"%!?(-?\d*)[sd]", r"%\1s", row_format)

    @staticmethod
    def inserted_id(cursor):
        return cursor.fetchone()[0]

    def insert_rows(self, db, table, columns, rows):
        """One statement, one round trip, whatever the number of rows: each column goes as an
        array, and the server unnests them into rows (an INSERT per row was 14 times slower)."""
        names = ", ".join(name for name, _ in columns)
        arrays = ", ".join("%%s::%s[]" % self.ddl(kind) for _, kind in columns)
        db.conn.execute("INSERT INTO %s (%s) SELECT * FROM unnest(%s)" % (table, names, arrays), [list(column) for column in zip(*rows)])

    def prepare(self, db, create):
        """Create or migrate the schema when it needs it: checked first without a lock, then
        again holding the schema's advisory lock, in the transaction that does it (the programs
        that open a new database at once take turns, and the first creates it)."""
        version = self._version_at_once(db)
        if version is None:
            foreign = self._foreign_tables(db)
            if foreign:
                # another program may have created the schema since that first look: its marks
                # are committed with its tables, so marks read after the tables are there too
                version = self._version(db)
                if version is None:
                    raise CommandError(
                        "database %s has tables of another program (%s) and no tiletable schema; pass another --db" % (db.path, foreign)
                    )
        if version == SCHEMA_VERSION:
            return
        if version is None:
            if not create:
                raise CommandError(
                    "database %s has no tiletable schema yet: nothing was stored in it (run `tiletable pull --db` or"
                    " `tiletable db copy` into it first)" % db.path
                )
        with db._writing():
            db.execute("SELECT pg_advisory_xact_lock(?::bigint)", (self._SCHEMA_LOCK,))
            db._create_or_migrate(self._version(db))

    # The tables of those names in the schema CREATE TABLE would make them in, read from the
    # catalog by a query of its own (to_regclass would trust this connection's cache of names,
    # which still misses a table another program created while we waited for the lock).
    _EXISTING = (
        "SELECT string_agg(relname, ', ' ORDER BY relname) FROM pg_catalog.pg_class"
        " WHERE relname = ANY(?::text[]) AND relnamespace = current_schema()::regnamespace"
    )

    @classmethod
    def _version(cls, db):
        """The schema version, or None for a database without tiletable's schema."""
        if not db.execute(cls._EXISTING, ([_MARKS],)).fetchone()[0]:
            return None
        return cls._checked(db, db.execute("SELECT application_id, version FROM %s" % _MARKS).fetchone())

    @classmethod
    def _version_at_once(cls, db):
        """``_version`` in one round trip, outside a transaction (where a failed statement
        spoils nothing): every command's first look, on a server that may be far away."""
        import psycopg

        try:
            marks = db.execute("SELECT application_id, version FROM %s" % _MARKS).fetchone()
        except psycopg.errors.UndefinedTable:
            return None
        return cls._checked(db, marks)

    @staticmethod
    def _checked(db, marks):
        app_id, version = marks
        if app_id != APPLICATION_ID:
            raise CommandError("%s is not a tiletable database (it belongs to another program); pass another --db" % db.path)
        return _known(version, db.path)

    @classmethod
    def _foreign_tables(cls, db):
        """The names of tiletable's tables that exist already in a database without its marks."""
        return db.execute(cls._EXISTING, (list(TABLES),)).fetchone()[0]

    @staticmethod
    def mark(db, version, new):
        if new:
            db.execute("CREATE TABLE %s (application_id BIGINT NOT NULL, version INTEGER NOT NULL)" % _MARKS)
            db.execute("INSERT INTO %s (application_id, version) VALUES (?, ?)" % _MARKS, (APPLICATION_ID, version))
        else:
            db.execute("UPDATE %s SET version = ?" % _MARKS, (version,))

    def lock(self, db, journal, everything):
        if everything:
            db.execute("SELECT pg_advisory_xact_lock(?::integer, ?::integer)", (APPLICATION_ID, self._EVERYTHING))
        if journal is not None:
            db.execute("SELECT pg_advisory_xact_lock(?::integer, ?::integer)", (APPLICATION_ID, journal % 0x7FFFFFFF + 1))

    @staticmethod
    def commit(db):
        """COMMIT, and make sure it was one: a transaction a failed statement aborted answers
        COMMIT with ROLLBACK, and nothing of it is stored."""
        status = db.conn.execute("COMMIT").statusmessage
        if status != "COMMIT":
            raise CommandError("database %s did not store the transaction (the server answered %s); try again" % (db.path, status))

    @staticmethod
    def check(db):
        """Read every row of every table, every column of it (a damaged page is an error), and
        the schema's marks."""
        _PostgreSQL._version(db)
        for table in TABLES:
            db.execute("SELECT sum(length(row::text)) FROM %s AS row" % table).fetchone()


# A session's time when it is one both engines write as a date (years 1 to 9999), else NULL
# ("time unknown"): a table with a wrong clock must not stop PostgreSQL listing every session.
_KNOWN_TIME = "CASE WHEN time BETWEEN -62135596800 AND 253402300799 THEN time END"


def _words(text, words):
    for word, said in words.items():
        text = text.replace(word, said)
    return text.replace("{known_time}", _KNOWN_TIME)
