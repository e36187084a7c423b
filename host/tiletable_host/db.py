"""The host's SQLite database of journal records pulled from tables, and of rulesets synced.

Tables::

    records   (device, seq) -> record type, payload, session id: every journal record as
              the table wrote it (the journal's sequence number is the key, so importing the
              same record twice stores it once)
    sessions  one row per session header: device, first_seq, ruleset, hash, players (JSON),
              boot, firmware, time, result (the REC_END payload, JSON, or NULL)
    rulesets  hash -> name, document: every ruleset this PC pushed, so a session can be
              replayed with the exact ruleset it was played with
    devices   device -> the journal's boot counter at the last pull (it only grows, so a
              smaller one means a wiped journal or another table of the same name)

The file is marked with ``PRAGMA application_id`` so a foreign SQLite file is refused rather
than written into; a damaged file is found by ``PRAGMA quick_check`` at open.
"""
import json
import os
import sqlite3

from tiletable.runtime.journal import REC_END, REC_HEADER, parse_json_payload
from tiletable_host.errors import CommandError

APPLICATION_ID = 0x54544442  # "TTDB"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    device TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    hash TEXT NOT NULL,
    players TEXT NOT NULL,
    boot INTEGER,
    firmware TEXT,
    time INTEGER,
    result TEXT,
    UNIQUE (device, first_seq)
);
CREATE TABLE records (
    device TEXT NOT NULL,
    seq INTEGER NOT NULL,
    type INTEGER NOT NULL,
    payload BLOB NOT NULL,
    session INTEGER REFERENCES sessions (id),
    PRIMARY KEY (device, seq)
);
CREATE INDEX records_by_session ON records (session, seq);
CREATE TABLE rulesets (
    hash TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    document TEXT NOT NULL
);
CREATE TABLE devices (
    device TEXT PRIMARY KEY,
    boot INTEGER NOT NULL
);
"""


def default_path():
    """``$XDG_DATA_HOME/tiletable/tiletable.db``, else ``~/.local/share/tiletable/tiletable.db``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "tiletable", "tiletable.db")


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
        """Open (and with ``create``, initialise) the database at ``path``.

        :raises CommandError: for a file that is not SQLite, is damaged, belongs to another
            program, or is missing when ``create`` is False.
        """
        if not create and not os.path.exists(path):
            raise CommandError("no database at %s (run `tiletable pull` first, or pass --db)" % path)
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        try:
            conn = sqlite3.connect(path)
        except sqlite3.Error as exc:
            raise CommandError("cannot open database %s: %s" % (path, exc))
        try:
            cls._check(conn, path)
        except CommandError:
            conn.close()
            raise
        return cls(path, conn)

    @staticmethod
    def _check(conn, path):
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            health = conn.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise CommandError("%s is not a tiletable database (%s)" % (path, exc))
        if health != "ok":
            raise CommandError("database %s is damaged (%s); restore a backup or pass another --db" % (path, health))
        if app_id == 0 and tables == 0:
            with conn:
                conn.executescript(_SCHEMA)
                conn.execute("PRAGMA application_id = %d" % APPLICATION_ID)
                conn.execute("PRAGMA user_version = %d" % SCHEMA_VERSION)
            return
        if app_id != APPLICATION_ID:
            raise CommandError("%s is not a tiletable database (it belongs to another program); pass another --db" % path)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise CommandError("database %s has schema version %d; this tiletable reads version %d" % (path, version, SCHEMA_VERSION))

    def close(self):
        self.conn.close()

    # ----- journal records

    def last_seq(self, device):
        """The highest sequence number stored for ``device`` (0 when none)."""
        row = self.conn.execute("SELECT max(seq) FROM records WHERE device = ?", (device,)).fetchone()
        return row[0] or 0

    def import_records(self, device, records):
        """Store ``(seq, rtype, payload)`` records of ``device`` in one transaction; returns how
        many were new. A record already stored with the same bytes is skipped.

        :raises ConflictError: when a stored record has the same sequence number but other
            bytes (two tables with one device name, or a journal that was wiped).
        """
        try:
            return self._import(device, records)
        except sqlite3.Error as exc:  # disk full, read-only file, locked by another program
            raise CommandError("cannot write to %s: %s" % (self.path, exc))

    def _import(self, device, records):
        added = 0
        with self.conn:
            session = None
            for seq, rtype, payload in records:
                stored = self.conn.execute(
                    "SELECT type, payload FROM records WHERE device = ? AND seq = ?", (device, seq)
                ).fetchone()
                if stored is not None:
                    if stored[0] != rtype or bytes(stored[1]) != bytes(payload):
                        raise ConflictError(
                            "record %d of %s differs from the copy in %s; is this another table with the same name?"
                            % (seq, device, self.path)
                        )
                    continue
                if rtype == REC_HEADER:
                    session = self._add_session(device, seq, payload)
                elif session is None:
                    session = self._session_of(device, seq)
                self.conn.execute(
                    "INSERT INTO records (device, seq, type, payload, session) VALUES (?, ?, ?, ?, ?)",
                    (device, seq, rtype, bytes(payload), session),
                )
                if rtype == REC_END and session is not None:
                    self.conn.execute("UPDATE sessions SET result = ? WHERE id = ?", (bytes(payload).decode(), session))
                added += 1
        return added

    def _add_session(self, device, seq, payload):
        header = parse_json_payload(payload)
        cursor = self.conn.execute(
            "INSERT INTO sessions (device, first_seq, ruleset, hash, players, boot, firmware, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                device,
                seq,
                str(header.get("ruleset", "?")),
                str(header.get("hash", "")),
                json.dumps(header.get("players", [])),
                header.get("boot"),
                header.get("firmware"),
                header.get("time"),
            ),
        )
        return cursor.lastrowid

    def _session_of(self, device, seq):
        """The session that record ``seq`` belongs to: the latest header at or before it."""
        row = self.conn.execute(
            "SELECT id FROM sessions WHERE device = ? AND first_seq <= ? ORDER BY first_seq DESC LIMIT 1", (device, seq)
        ).fetchone()
        return row[0] if row else None

    def last_boot(self, device):
        """The device's boot counter at the last pull (0 when never pulled)."""
        row = self.conn.execute("SELECT boot FROM devices WHERE device = ?", (device,)).fetchone()
        return row[0] if row else 0

    def remember_boot(self, device, boot):
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO devices (device, boot) VALUES (?, ?)", (device, boot))

    # ----- sessions

    def sessions(self):
        """Every session as a dict (id, device, first_seq, ruleset, hash, players, boot,
        firmware, time, result, records), oldest first."""
        rows = self.conn.execute(
            "SELECT s.id, s.device, s.first_seq, s.ruleset, s.hash, s.players, s.boot, s.firmware, s.time, s.result,"
            " (SELECT count(*) FROM records r WHERE r.session = s.id)"
            " FROM sessions s ORDER BY s.id"
        ).fetchall()
        return [_session_dict(row) for row in rows]

    def session(self, session_id):
        """One session (see ``sessions``). :raises CommandError: when there is no such session."""
        for session in self.sessions():
            if session["id"] == session_id:
                return session
        raise CommandError("no session %d in %s (see `tiletable sessions`)" % (session_id, self.path))

    def session_records(self, session_id):
        """``(seq, rtype, payload bytes)`` of a session, in order."""
        rows = self.conn.execute("SELECT seq, type, payload FROM records WHERE session = ? ORDER BY seq", (session_id,))
        return [(seq, rtype, bytes(payload)) for seq, rtype, payload in rows]

    def session_count(self):
        return self.conn.execute("SELECT count(*) FROM sessions").fetchone()[0]

    def record_count(self):
        return self.conn.execute("SELECT count(*) FROM records").fetchone()[0]

    # ----- rulesets

    def remember_ruleset(self, ruleset_hash, name, document):
        with self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO rulesets (hash, name, document) VALUES (?, ?, ?)", (ruleset_hash, name, document)
            )

    def ruleset_document(self, ruleset_hash):
        row = self.conn.execute("SELECT document FROM rulesets WHERE hash = ?", (ruleset_hash,)).fetchone()
        return row[0] if row else None


def _session_dict(row):
    keys = ("id", "device", "first_seq", "ruleset", "hash", "players", "boot", "firmware", "time", "result", "records")
    session = dict(zip(keys, row))
    session["players"] = json.loads(session["players"])
    session["result"] = json.loads(session["result"]) if session["result"] else None
    return session
