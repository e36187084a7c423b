"""The host's SQLite database of journal records pulled from tables, and of rulesets synced.

Tables::

    journals  one row per journal a table has had: device (the table's id, ``tiletable-<hex>``),
              identity (the journal's, random, made with it; '' for a table whose firmware
              reports none, and for what was stored before identities), the boot counter at
              the last pull (it only grows within one journal)
    tables    device -> the name the table reported at the last pull ('' for none) and the
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

The file is marked with ``PRAGMA application_id`` so a foreign SQLite file is refused rather
than written into; ``PRAGMA user_version`` is the schema version, and an older file is
migrated in place (``MIGRATIONS``). A damaged file is found on demand (``check``, `tiletable
sessions --check`): reading every page of years of sessions takes seconds.

A new file gets its marks and its whole schema in one transaction, and an older one all its
migrations in one, so a program killed at any instant leaves either the file as it found it
(empty, which the next program creates) or the finished one. Many programs may use one file:
readers never wait (WAL), and every write is one transaction that takes the write lock before
it reads anything (BEGIN IMMEDIATE), so two programs storing the same record never both find
it missing; a program waits BUSY_TIMEOUT for another's write, then says the file is in use.
"""
import contextlib
import functools
import json
import os
import sqlite3
import time

from tiletable_host.errors import CommandError

APPLICATION_ID = 0x54544442  # "TTDB"
SCHEMA_VERSION = 3
BUSY_TIMEOUT = 2.0  # seconds to wait for another program's write before calling the file in use

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
_SCHEMA = ";\n".join((_JOURNALS, _TABLES, _SESSIONS % "sessions", _RECORDS % "records", _RECORDS_BY_SESSION, _RULESETS)) + ";\n"


def _execute_script(conn, script):
    """Run the statements of ``script`` one by one inside the caller's transaction (sqlite3's
    ``executescript`` would commit it first, and run each statement in a transaction of its own)."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            conn.execute(statement)
            statement = ""


def _migrate_to_2(conn):
    """Each session keeps its record count and the texts `sessions` lists (its players and its
    outcome), so listing years of sessions counts and decodes nothing."""
    _execute_script(
        conn,
        """
ALTER TABLE sessions ADD COLUMN records INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN who TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN outcome TEXT NOT NULL DEFAULT 'in progress';
UPDATE sessions SET records = (SELECT count(*) FROM records r WHERE r.session = sessions.id);
"""
    )
    rows = conn.execute("SELECT id, players, result FROM sessions").fetchall()
    conn.executemany(
        "UPDATE sessions SET who = ?, outcome = ? WHERE id = ?",
        [(who_text(json.loads(players)), outcome_text(result, json.loads(players)), session) for session, players, result in rows],
    )


def _migrate_to_3(conn):
    """Records and sessions are filed under their journal (``journals``): what was stored
    before goes under each table's journal from before identities (identity ''), which the
    next pull of a table that reports an identity takes as its own when the table's journal
    goes on from it (pull.py), and the boot counters of ``devices`` move there."""
    for statement in (
        _JOURNALS,
        "INSERT INTO journals (device, identity, boot) SELECT device, '', max(boot) FROM"
        " (SELECT device, boot FROM devices UNION ALL SELECT DISTINCT device, 0 FROM sessions"
        " UNION ALL SELECT DISTINCT device, 0 FROM records) GROUP BY device ORDER BY device",
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
    ):
        conn.execute(statement)


# MIGRATIONS[v] takes a database from schema version v to v + 1, inside the one transaction that
# runs them all (so a migration runs its statements with conn.execute or _execute_script).
MIGRATIONS = {1: _migrate_to_2, 2: _migrate_to_3}


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
    """The file's schema version, or None for an empty file (new, or one whose creation was
    cut off: nothing of it was committed).

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


@contextlib.contextmanager
def _transaction(conn):
    """One write transaction, committed when the block ends and rolled back when it raises.
    It takes the write lock before it reads anything (BEGIN IMMEDIATE), waiting up to
    BUSY_TIMEOUT for another program's write, so nothing it read changes before it writes.
    Inside another transaction it is part of that one."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        conn.rollback()
        raise


def _database_errors(method):
    """A Database method whose sqlite3 errors (another program's lock, a full disk, a damaged
    file) come out as ``database_error``'s one line."""

    @functools.wraps(method)
    def checked(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise database_error(self.path, exc) from exc

    return checked


class ConflictError(CommandError):
    """A record already stored under the same device and sequence number has other bytes."""


class Database:
    """An open tiletable database. Use ``Database.open(path)``; close with ``close()``.

    Example::

        db = Database.open(default_path())
        added = db.import_records("tiletable", records)
    """

    def __init__(self, path, connection):
        self.path = path
        self.conn = connection

    @classmethod
    def open(cls, path, create=True):
        """Open (and with ``create``, initialise or migrate) the database at ``path``.

        :raises CommandError: for a file that is not SQLite, belongs to another program, is in
            use by another program, was made by a newer tiletable, is missing when ``create``
            is False, or is in a folder that does not exist (only the default path's are made).
        """
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
        try:
            cls._prepare(conn, path)
        except sqlite3.Error as exc:
            conn.close()
            raise database_error(path, exc)
        except BaseException:
            conn.close()
            raise
        return cls(path, conn)

    @staticmethod
    def _prepare(conn, path):
        """Create or migrate the file, each in one transaction, when it needs it (checked first
        without a lock: another program's long write does not hold up a reader)."""
        version = _schema_version(conn, path)
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            _use_wal(conn)
        if version == SCHEMA_VERSION:
            return
        with _transaction(conn):
            version = _schema_version(conn, path)  # again: another program may have done it meanwhile
            if version is None:  # marked before anything else
                conn.execute("PRAGMA application_id = %d" % APPLICATION_ID)
                conn.execute("PRAGMA user_version = %d" % SCHEMA_VERSION)
                _execute_script(conn, _SCHEMA)
            elif version < SCHEMA_VERSION:
                for step in range(version, SCHEMA_VERSION):
                    MIGRATIONS[step](conn)
                conn.execute("PRAGMA user_version = %d" % SCHEMA_VERSION)

    @contextlib.contextmanager
    def transaction(self):
        """Make the writes in the block one transaction: all of them are stored, or none (a
        command that stores several things, and fails or is killed between them)."""
        try:
            with _transaction(self.conn):
                yield
        except sqlite3.Error as exc:
            raise database_error(self.path, exc) from exc

    def check(self):
        """Read every page of the file (slow on a large database: on demand only).

        :raises CommandError: naming what is damaged.
        """
        try:
            health = self.conn.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.Error as exc:
            raise database_error(self.path, exc)
        if health != "ok":  # "*** in database main ***\nOn tree page 3 ...": one line, without the banner
            health = "; ".join(line for line in health.splitlines() if not line.startswith("***"))
            raise CommandError("database %s is damaged (%s); restore a backup or pass another --db" % (self.path, health))

    def close(self):
        self.conn.close()

    # ----- journal records

    @_database_errors
    def journal_id(self, device, identity=""):
        """The row of ``device``'s journal ``identity`` in ``journals``, made when new (by
        this program or another one at the same moment)."""
        find = "SELECT id FROM journals WHERE device = ? AND identity = ?"
        row = self.conn.execute(find, (device, identity)).fetchone()
        if row is None:
            with _transaction(self.conn):
                self.conn.execute("INSERT OR IGNORE INTO journals (device, identity) VALUES (?, ?)", (device, identity))
            row = self.conn.execute(find, (device, identity)).fetchone()
        return row[0]

    @_database_errors
    def last_seq(self, device, identity=""):
        """The highest sequence number stored for ``device``'s journal ``identity`` (0 when none)."""
        row = self.conn.execute(
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
        except sqlite3.Error as exc:  # disk full, read-only file, locked by another program
            raise database_error(self.path, exc)

    def _import(self, device, identity, records):
        from tiletable.record import REC_END, REC_HEADER  # the engine's: listing and showing need none of it

        added = 0
        counts = {}  # session id -> records added to it
        journal = self.journal_id(device, identity)
        with _transaction(self.conn):
            session = None
            for seq, rtype, payload in records:
                stored = self.conn.execute("SELECT type, payload FROM records WHERE journal = ? AND seq = ?", (journal, seq)).fetchone()
                if stored is not None:
                    if stored[0] != rtype or bytes(stored[1]) != bytes(payload):
                        raise ConflictError(
                            "record %d of %s differs from the copy in %s; is this another table with the same name?"
                            % (seq, device, self.path)
                        )
                    continue
                if rtype == REC_HEADER:
                    session = self._add_session(journal, device, seq, payload)
                elif session is None:
                    session = self._session_of(journal, seq)
                self.conn.execute(
                    "INSERT INTO records (journal, seq, type, payload, session) VALUES (?, ?, ?, ?, ?)",
                    (journal, seq, rtype, bytes(payload), session),
                )
                if rtype == REC_END and session is not None:
                    result = bytes(payload).decode()
                    self.conn.execute(
                        "UPDATE sessions SET result = ?, outcome = ? WHERE id = ?", (result, self._outcome(session, result), session)
                    )
                counts[session] = counts.get(session, 0) + 1
                added += 1
            for session_id, count in counts.items():
                self.conn.execute("UPDATE sessions SET records = records + ? WHERE id = ?", (count, session_id))
        return added

    def _outcome(self, session_id, result):
        """The outcome text `sessions` lists, with the players' names and Buki's chips."""
        from tiletable_host.sessionlog import session_scale  # it imports the engine: only when ending a session

        session = self.session(session_id)
        return outcome_text(result, session["players"], session_scale(self, session))

    def _add_session(self, journal, device, seq, payload):
        header = json.loads(bytes(payload).decode())
        players = header.get("players", [])
        cursor = self.conn.execute(
            "INSERT INTO sessions (journal, device, first_seq, ruleset, hash, players, boot, firmware, time, who)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                journal,
                device,
                seq,
                str(header.get("ruleset", "?")),
                str(header.get("hash", "")),
                json.dumps(players),
                header.get("boot"),
                header.get("firmware"),
                header.get("time"),
                who_text(players if isinstance(players, list) else [players]),
            ),
        )
        return cursor.lastrowid

    def _session_of(self, journal, seq):
        """The session that record ``seq`` of ``journal`` belongs to: the latest header at or before it."""
        row = self.conn.execute(
            "SELECT id FROM sessions WHERE journal = ? AND first_seq <= ? ORDER BY first_seq DESC LIMIT 1", (journal, seq)
        ).fetchone()
        return row[0] if row else None

    @_database_errors
    def last_boot(self, device, identity=""):
        """The boot counter of ``device``'s journal ``identity`` at the last pull (0 when never pulled)."""
        row = self.conn.execute("SELECT boot FROM journals WHERE device = ? AND identity = ?", (device, identity)).fetchone()
        return row[0] if row else 0

    @_database_errors
    def newest_session(self, device, identity=""):
        """``(first_seq, hash, boot)`` of the newest session stored from that journal, or None."""
        return self.conn.execute(
            "SELECT first_seq, hash, s.boot FROM sessions s JOIN journals j ON j.id = s.journal"
            " WHERE j.device = ? AND identity = ? ORDER BY first_seq DESC LIMIT 1",
            (device, identity),
        ).fetchone()

    @_database_errors
    def table_journal(self, device):
        """The identity of the journal last pulled from ``device``, or None when never pulled."""
        row = self.conn.execute(
            "SELECT identity FROM tables t JOIN journals j ON j.id = t.journal WHERE t.device = ?", (device,)
        ).fetchone()
        return row[0] if row else None

    @_database_errors
    def name_journal(self, device, identity):
        """The journal ``device`` reported before identities ('') is the one it now names
        ``identity`` (pull.py checks that it goes on from what is stored)."""
        with _transaction(self.conn):
            self.conn.execute("UPDATE OR IGNORE journals SET identity = ? WHERE device = ? AND identity = ''", (identity, device))

    @_database_errors
    def remember_pull(self, device, identity, boot, name):
        """After a pull: the journal's boot counter, and the table's name and journal."""
        journal = self.journal_id(device, identity)
        with _transaction(self.conn):
            self.conn.execute("UPDATE journals SET boot = ? WHERE id = ?", (boot, journal))
            self.conn.execute("INSERT OR REPLACE INTO tables (device, name, journal) VALUES (?, ?, ?)", (device, name, journal))

    # ----- sessions

    @_database_errors
    def sessions(self):
        """Every session as a dict (id, device, first_seq, ruleset, hash, players, boot,
        firmware, time, result, records, started, who, outcome, journal: its identity, table:
        the table's name as people set it, else its device name), oldest first."""
        return [_session_dict(row) for row in self.conn.execute(_SESSIONS_QUERY + " ORDER BY s.id")]

    @_database_errors
    def listing(self, row_format):
        """Every session as one line of text, oldest first: ``row_format`` (SQLite's printf,
        where ``%!-20s`` pads by characters, as Python does) applied to id, started, ruleset,
        table (its name, else its device name), records, who and outcome. What `tiletable sessions` prints, decoding no JSON
        and making no tuple in Python: on years of sessions that takes a third of the time."""
        return [row[0] for row in self.conn.execute(_LISTING_QUERY, (row_format,))]

    @_database_errors
    def session(self, session_id):
        """One session (see ``sessions``). :raises CommandError: when there is no such session."""
        row = self.conn.execute(_SESSIONS_QUERY + " WHERE s.id = ?", (session_id,)).fetchone()
        if row is None:
            raise CommandError("no session %d in %s (see `tiletable sessions`)" % (session_id, self.path))
        return _session_dict(row)

    @_database_errors
    def session_records(self, session_id):
        """``(seq, rtype, payload bytes)`` of a session, in order."""
        rows = self.conn.execute("SELECT seq, type, payload FROM records WHERE session = ? ORDER BY seq", (session_id,))
        return [(seq, rtype, bytes(payload)) for seq, rtype, payload in rows]

    @_database_errors
    def session_count(self):
        return self.conn.execute("SELECT count(*) FROM sessions").fetchone()[0]

    @_database_errors
    def record_count(self):
        return self.conn.execute("SELECT count(*) FROM records").fetchone()[0]

    # ----- rulesets

    @_database_errors
    def remember_ruleset(self, ruleset_hash, name, document):
        with _transaction(self.conn):
            self.conn.execute(
                "INSERT OR REPLACE INTO rulesets (hash, name, document) VALUES (?, ?, ?)", (ruleset_hash, name, document)
            )

    @_database_errors
    def ruleset_document(self, ruleset_hash):
        row = self.conn.execute("SELECT document FROM rulesets WHERE hash = ?", (ruleset_hash,)).fetchone()
        return row[0] if row else None


# Every session field, and the texts a person reads: started ("2024-03-01 19:30 UTC" or "time
# unknown"), who ("ann, bob") and outcome ("target 141-204"), the last two kept when stored so
# that listing years of sessions decodes no JSON; and the table as people named it.
_STARTED = "coalesce(strftime('%Y-%m-%d %H:%M UTC', time, 'unixepoch'), 'time unknown')"
_TABLE = "coalesce(nullif(t.name, ''), s.device)"
_FROM = " FROM sessions s JOIN journals j ON j.id = s.journal LEFT JOIN tables t ON t.device = s.device"
_SESSIONS_QUERY = (
    "SELECT s.id, s.device, first_seq, ruleset, hash, players, s.boot, firmware, time, result, records, %s, who, outcome,"
    " identity, %s" % (_STARTED, _TABLE) + _FROM
)
_LISTING_QUERY = "SELECT printf(?, s.id, %s, ruleset, %s, records, who, outcome)" % (_STARTED, _TABLE) + _FROM + " ORDER BY s.id"


def database_error(path, exc):
    """The one-line CommandError for an sqlite3 error on the database at ``path``, by its cause."""
    reason = str(exc)
    if _busy(exc):
        return CommandError("database %s is in use by another program; try again when it has finished" % path)
    if "not a database" in reason:
        return CommandError("%s is not a tiletable database (%s)" % (path, reason))
    if "malformed" in reason or "corrupt" in reason:
        return CommandError("database %s is damaged (%s); restore a backup or pass another --db" % (path, reason))
    return CommandError("cannot use database %s: %s" % (path, reason))


def _session_dict(row):
    keys = ("id", "device", "first_seq", "ruleset", "hash", "players", "boot", "firmware", "time", "result", "records",
            "started", "who", "outcome", "journal", "table")
    session = dict(zip(keys, row))
    session["players"] = json.loads(session["players"])
    session["result"] = json.loads(session["result"]) if session["result"] else None
    return session
