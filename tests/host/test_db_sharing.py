"""The database never half-exists, and many programs share it (the tests that take ``db_target``
or ``new_db`` run on a SQLite file and on a PostgreSQL database; locking a file is SQLite's).

A program killed at any statement (``os._exit`` in a forked child as the statement starts: no
cleanup, nothing closed, as ``kill -9``) leaves a database that opens, and a pull then
completes with nothing lost or duplicated. Programs that pull, import and sync into one
database at once are made to meet where a race would show (each waits, before it adds a
session, until the others have read what they are about to store or wait for the write lock),
so a race fails every time, not now and then; and a database another program holds gets the
one line "in use by another program" with nothing changed, on the table or in the database.
"""
import contextlib
import multiprocessing
import os
import re
import shutil
import sqlite3
from collections import Counter

import pytest

from cli import run_captured, tiletable
from dbtrace import trap_statements
from journal_games import play_into_journal, write_record_files
from tiletable.engine.rulesets import find_ruleset
from tiletable.record import iter_records
from tiletable.runtime.journal import Journal
from tiletable_host import db as dbmod
from tiletable_host import pull as pullmod
from tiletable_host.db import Database
from tiletable_host.transport_local import LocalTransport

FORK = multiprocessing.get_context("fork")
KILLED = 86  # a child's exit status when it died at its statement
STUCK = 87  # a child's exit status when another never came to where they meet
WAIT = 120  # seconds a child waits for another before the test calls it stuck (never reached when it works)


def _table(root):
    """The table whose storage is the folder ``root``, in this process; it answers at once, so
    its replies may take as long as a loaded PC needs (a timed-out reply would change the run)."""
    return LocalTransport(root, timeout=30)


def _trap_statements(on_statement):
    """Every connection the tool opens in this (forked) process, to either engine, calls
    ``on_statement(sql)`` as each of its statements starts."""
    trap_statements(on_statement)


def _in_child(work, *args):
    """Run ``work(*args)`` in a forked child; (its exit status, what it returned or None)."""
    receive, send = FORK.Pipe(duplex=False)

    def child():
        send.send(work(*args))

    process = FORK.Process(target=child)
    process.start()
    send.close()
    try:
        result = receive.recv()
    except EOFError:  # it died before it could answer
        result = None
    process.join()
    return process.exitcode, result


def _dying_at(statement, work, *args):
    """``work(*args)``, dying as its statement number ``statement`` starts (None: never);
    returns what it returned and every statement it ran."""
    seen = []

    def on_statement(sql):
        seen.append(sql)
        if len(seen) == statement:
            os._exit(KILLED)

    _trap_statements(on_statement)
    return work(*args), seen


def _kill_points(statements):
    """Where to kill: at each kind of statement's first two in every transaction (the rest
    repeat them record by record)."""
    points, seen, transaction = [], Counter(), 0
    for number, sql in enumerate(statements, 1):
        transaction += sql.startswith("BEGIN")
        kind = (transaction, re.sub(r"'[^']*'|x'[0-9a-f]*'|\d+", "?", sql, flags=re.I)[:50])
        seen[kind] += 1
        if seen[kind] <= 2:
            points.append(number)
    return points


def _journal_records(root):
    journal = Journal(root + "/journal")
    buf = bytearray(256 * 1024)
    return list(iter_records(memoryview(buf)[: journal.read_since(0, buf)]))


def _stored(db_path):
    """Every stored record, and every session's (device, first_seq, records count, records held)
    (a database whose creation was cut off holds none: it is created now, as any program would)."""
    db = Database.open(db_path)
    try:
        records = [(d, s, t, bytes(p)) for d, s, t, p in db.execute(
            "SELECT device, seq, type, payload FROM records r JOIN journals j ON j.id = r.journal ORDER BY device, seq"
        )]
        sessions = [tuple(row) for row in db.execute(
            "SELECT device, first_seq, records, (SELECT count(*) FROM records r WHERE r.session = s.id) FROM sessions s ORDER BY device, first_seq"
        )]
    finally:
        db.close()
    return records, sessions


@pytest.fixture
def played(tmp_path):
    """A table's journal (its directory) holding three whole sessions."""
    root = str(tmp_path / "played")
    device = _table(root)
    for seed in (1, 2, 3):
        play_into_journal(device.journal, seed=seed, max_actions=12)
    device.journal.close()
    return root


def _copy(path, tmp_path, name):
    """A copy of the file or folder at ``path``, as ``name`` in ``tmp_path``."""
    copy = str(tmp_path / name)
    (shutil.copytree if os.path.isdir(path) else shutil.copyfile)(path, copy)
    return copy


def _pull(device_root, db_path, commit_records):
    pullmod.COMMIT_RECORDS = commit_records  # a forked child's own module: several transactions
    return run_captured(["pull", "--db", db_path], _table(device_root))


def test_a_pull_killed_at_any_statement_of_a_new_database_leaves_one_a_pull_completes(tmp_path, played, new_db, db_engine):
    expected = [("tiletable-local",) + record for record in _journal_records(played)]
    status, (result, statements) = _in_child(_dying_at, None, _pull, _copy(played, tmp_path, "census"), new_db("census"), 10)
    assert status == 0 and result[0] == 0 and result[2] == ""
    points = _kill_points(statements)
    creates = dbmod._SCHEMA.count("CREATE ") + (db_engine == "postgresql")  # and its table of marks
    assert len(points) > 20 and sum(sql.startswith("CREATE") for sql in statements) == creates
    for statement in points:
        device = _copy(played, tmp_path, "device%d" % statement)
        db_path = new_db("t%d" % statement)
        assert _in_child(_dying_at, statement, _pull, device, db_path, 10)[0] == KILLED
        status, out, err = run_captured(["pull", "--db", db_path], _table(device))
        assert (status, err) == (0, ""), "killed at %r: %s" % (statements[statement - 1], err)
        records, sessions = _stored(db_path)
        assert records == expected, "killed at %r" % statements[statement - 1]
        assert [(first, count) for _, first, count, _ in sessions] == [(first, held) for _, first, _, held in sessions]
        assert len(sessions) == 3


SCHEMA_1 = """
CREATE TABLE sessions (id INTEGER PRIMARY KEY, device TEXT NOT NULL, first_seq INTEGER NOT NULL, ruleset TEXT NOT NULL,
    hash TEXT NOT NULL, players TEXT NOT NULL, boot INTEGER, firmware TEXT, time INTEGER, result TEXT, UNIQUE (device, first_seq));
CREATE TABLE records (device TEXT NOT NULL, seq INTEGER NOT NULL, type INTEGER NOT NULL, payload BLOB NOT NULL,
    session INTEGER REFERENCES sessions (id), PRIMARY KEY (device, seq));
CREATE INDEX records_by_session ON records (session, seq);
CREATE TABLE rulesets (hash TEXT PRIMARY KEY, name TEXT NOT NULL, document TEXT NOT NULL);
CREATE TABLE devices (device TEXT PRIMARY KEY, boot INTEGER NOT NULL);
"""


def _schema_1_copy(db_path, old_path):
    """The sessions of the database at ``db_path`` in a file of the first schema."""
    conn = sqlite3.connect(old_path)
    conn.executescript(SCHEMA_1)
    conn.execute("ATTACH ? AS new", (db_path,))
    with conn:
        conn.execute("INSERT INTO sessions SELECT id, device, first_seq, ruleset, hash, players, boot, firmware, time, result FROM new.sessions")
        conn.execute("INSERT INTO records SELECT device, seq, type, payload, session FROM new.records r JOIN new.journals j ON j.id = r.journal")
        conn.execute("INSERT INTO devices SELECT device, boot FROM new.journals")
    conn.execute("DETACH new")
    conn.execute("PRAGMA application_id = %d" % dbmod.APPLICATION_ID)
    conn.execute("PRAGMA user_version = 1")
    conn.close()


def _open_and_close(path):
    Database.open(path).close()


def test_a_migration_killed_at_any_statement_leaves_a_database_that_opens_migrated(tmp_path, played):
    db_path = str(tmp_path / "t.db")
    assert run_captured(["pull", "--db", db_path], _table(played))[0] == 0
    db = Database.open(db_path)
    listed = db.listing("%s|%s|%s|%s|%s|%s|%s")
    db.close()
    old = str(tmp_path / "old.db")
    _schema_1_copy(db_path, old)
    status, (_, statements) = _in_child(_dying_at, None, _open_and_close, _copy(old, tmp_path, "census.db"))
    assert status == 0 and any(sql.startswith("ALTER") for sql in statements)
    for statement in range(1, len(statements) + 1):
        path = _copy(old, tmp_path, "old%d.db" % statement)
        assert _in_child(_dying_at, statement, _open_and_close, path)[0] == KILLED
        db = Database.open(path)
        try:
            assert db.conn.execute("PRAGMA user_version").fetchone()[0] == dbmod.SCHEMA_VERSION
            assert db.listing("%s|%s|%s|%s|%s|%s|%s") == listed, "killed at %r" % statements[statement - 1]
        finally:
            db.close()


def _open_while_another_creates_it(path):
    """Database.open on a new file that another program has just found too, and holds for a
    moment (its write lock, before the file is in WAL mode): SQLite answers the switch to WAL
    "locked" at once then, without waiting. The other lets go as the switch is tried again."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    tries = []

    def on_statement(sql):
        if sql.startswith("PRAGMA journal_mode = WAL"):
            tries.append(sql)
            if len(tries) == 2:
                other.rollback()

    _trap_statements(on_statement)
    Database.open(path).close()
    return len(tries)


def test_a_new_file_another_program_is_creating_too_is_waited_for(tmp_path, patient):
    path = str(tmp_path / "t.db")
    assert _in_child(_open_while_another_creates_it, path) == (0, 2)
    db = Database.open(path)
    assert db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal" and db.session_count() == 0
    db.close()


class _Rendezvous:
    """Programs that meet where a race between reading and writing would show: each waits,
    before it adds a session, until every other one has read what it is about to store, is
    waiting for the write lock (SQLite's BEGIN IMMEDIATE, a PostgreSQL advisory lock), or has
    ended."""

    def __init__(self, count):
        self.ready = [FORK.Event() for _ in range(count)]
        self.barrier = FORK.Barrier(count)

    def run(self, me, work, *args):
        """``work(*args)`` as program ``me``, started with the others at once."""
        last = []

        def on_statement(sql):
            if sql.startswith("BEGIN IMMEDIATE") or "pg_advisory_xact_lock" in sql or (last and last[0].startswith("SELECT") and " FROM records " in last[0]):
                self.ready[me].set()
            if sql.startswith("INSERT INTO sessions"):
                if not all(ready.wait(WAIT) for other, ready in enumerate(self.ready) if other != me):
                    os._exit(STUCK)  # not an exception: sqlite3 would swallow it
            last[:] = [sql]

        _trap_statements(on_statement)
        try:
            self.barrier.wait(WAIT)
            return work(*args)
        finally:
            self.ready[me].set()

    def all(self, programs):
        """Run ``programs`` (each ``(work, args...)``) at once, each in its own process; their results."""
        receive, send = FORK.Pipe(duplex=False)
        processes = []
        for me, (work, *args) in enumerate(programs):

            def child(me=me, work=work, args=args):
                send.send((me, self.run(me, work, *args)))

            processes.append(FORK.Process(target=child))
            processes[-1].start()
        send.close()
        results = {}
        with contextlib.suppress(EOFError):  # every program has ended, some without an answer
            for _ in programs:
                me, result = receive.recv()
                results[me] = result
        for process in processes:
            process.join()
        assert [process.exitcode for process in processes] == [0] * len(processes)
        return [results[me] for me in range(len(programs))]


def _record_files(played, tmp_path):
    """Each session of the journal in ``played`` as a record file (three)."""
    db_path = str(tmp_path / "source.db")
    assert run_captured(["pull", "--no-ack", "--db", db_path], _table(played))[0] == 0
    return write_record_files(db_path, tmp_path)


def _import(db_path, *paths):
    return run_captured(["import"] + list(paths) + ["--db", db_path])


def test_an_import_killed_at_any_statement_stores_all_its_records_or_none_and_runs_again(tmp_path, played, new_db):
    files = _record_files(played, tmp_path)
    status, (result, statements) = _in_child(_dying_at, None, _import, new_db("census"), *files)
    assert status == 0 and result[0] == 0 and result[1].count("imported as session") == 3
    for statement in _kill_points(statements):
        db_path = new_db("t%d" % statement)
        assert _in_child(_dying_at, statement, _import, db_path, *files)[0] == KILLED
        assert len(_stored(db_path)[1]) in (0, 3), "killed at %r" % statements[statement - 1]
        status, out, err = _import(db_path, *files)
        assert (status, err) == (0, "") and out.count("session") == 3
        records, sessions = _stored(db_path)
        assert len(sessions) == 3 and all(count == held > 0 for _, _, count, held in sessions)


def _sync(device_root, db_path):
    return run_captured(["sync", "--db", db_path], _table(device_root))


@pytest.fixture
def patient(monkeypatch):
    """Programs wait for each other as long as it takes: the order is the test's, not the clock's
    (a program that waits for the others inside its transaction is not ended by the server)."""
    monkeypatch.setattr(dbmod, "BUSY_TIMEOUT", WAIT)
    monkeypatch.setattr(dbmod, "SERVER_IDLE_TIMEOUT", 2 * WAIT)


def test_programs_importing_the_same_records_at_once_store_each_once(tmp_path, played, patient, db_target):
    a, b, c = _record_files(played, tmp_path)
    db_path = db_target
    Database.open(db_path).close()
    results = _Rendezvous(3).all([(_import, db_path, a, b), (_import, db_path, a, c), (_import, db_path, b, c)])
    assert [(status, err) for status, _, err in results] == [(0, "")] * 3
    lines = "".join(out for _, out, _ in results).splitlines()
    assert sum("imported as session" in line for line in lines) == 3 and sum("already stored as" in line for line in lines) == 3
    records, sessions = _stored(db_path)
    assert len(sessions) == 3 and all(count == held > 0 for _, _, count, held in sessions)
    assert len(records) == len(set((device, seq) for device, seq, _, _ in records)) == sum(count for _, _, count, _ in sessions)


def test_programs_pulling_importing_and_syncing_into_a_new_database_at_once_all_succeed(tmp_path, played, patient, db_target):
    a, b, c = _record_files(played, tmp_path)
    db_path = db_target
    programs = [
        (_pull, _copy(played, tmp_path, "device1"), db_path, 10),
        (_pull, _copy(played, tmp_path, "device2"), db_path, 10),
        (_import, db_path, a, b, c),
        (_import, db_path, c, b, a),
        (_sync, str(tmp_path / "table"), db_path),
    ]
    results = _Rendezvous(len(programs)).all(programs)
    assert [(status, err) for status, _, err in results] == [(0, "")] * len(programs)
    records, sessions = _stored(db_path)
    pulled = [record for record in records if record[0] == "tiletable-local"]
    assert pulled == [("tiletable-local",) + record for record in _journal_records(played)]
    assert len(sessions) == 6 and all(count == held > 0 for _, _, count, held in sessions)
    assert len(records) == sum(count for _, _, count, _ in sessions)
    db = Database.open(db_path)
    assert db.execute("SELECT count(*) FROM rulesets").fetchone()[0] >= len(_table(str(tmp_path / "table")).ruleset_list())
    db.close()


@contextlib.contextmanager
def _held(path, how):
    """The database at ``path`` held by another program: writing (a write transaction open),
    or exclusive (not even read)."""
    holder = sqlite3.connect(path, isolation_level=None)
    if how == "exclusive":
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN IMMEDIATE" if how == "writing" else "BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO journals (device, identity, boot) VALUES ('another program', '', 1)")
    try:
        yield
    finally:
        holder.close()


@pytest.mark.parametrize("how", ["writing", "exclusive"])
def test_a_database_another_program_holds_is_in_use_to_pull_sync_and_import_and_nothing_changes(capsys, tmp_path, played, monkeypatch, how):
    (record, *_) = _record_files(played, tmp_path)
    monkeypatch.setattr(dbmod, "BUSY_TIMEOUT", 0.05)  # it is held until the command has given up
    path = str(tmp_path / "t.db")
    Database.open(path).close()
    device = _table(played)
    rulesets = device.ruleset_list()
    for argv in (["pull"], ["sync"], ["import", record]):
        with _held(path, how):
            status, out, err = tiletable(capsys, argv + ["--db", path], device)
        assert status == 1
        assert err == "tiletable: %s: database %s is in use by another program; try again when it has finished\n" % (argv[0], path)
        assert device.ruleset_list() == rulesets and device.journal_status()["acked"] == 0
        assert _stored(path) == ([], [])


class _Taker:
    """Another program that takes the database's write lock as statement number ``at`` of the
    command's starts (when the command does not hold it itself), and keeps it."""

    def __init__(self, path, at, connect):
        self.path, self.at, self.connect = path, at, connect
        self.count = 0
        self.holder = None

    def on_statement(self, sql):
        self.count += 1
        if self.count == self.at:
            holder = self.connect(self.path, timeout=0, isolation_level=None)
            try:
                holder.execute("BEGIN IMMEDIATE")
                self.holder = holder
            except sqlite3.OperationalError:  # the command is writing: it holds the lock
                holder.close()

    def release(self):
        if self.holder is not None:
            self.holder.close()


def _ruleset_file(tmp_path):
    path = tmp_path / "house.json"
    path.write_text(find_ruleset("muggins").to_json(), encoding="utf-8")
    return path


def _command(command, tmp_path, played, name):
    """``(argv, table)`` of a command of each kind, on a new database and a copy of the table."""
    db_path = str(tmp_path / ("%s.db" % name))
    device = _table(_copy(played, tmp_path, name))
    argv = {"pull": ["pull"], "sync": ["sync", _ruleset_file(tmp_path)], "import": ["import"] + sorted(tmp_path.glob("game*.tgr"))}[command]
    return [str(arg) for arg in argv] + ["--db", db_path], device, db_path


@pytest.mark.parametrize("command", ["pull", "sync", "import"])
def test_a_database_another_program_takes_at_any_statement_gets_one_line_and_nothing_half_done(capsys, tmp_path, played, monkeypatch, command):
    _record_files(played, tmp_path)
    monkeypatch.setattr(dbmod, "BUSY_TIMEOUT", 0.05)  # it is held until the command has given up
    connect = sqlite3.connect
    statements = []
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: _traced(connect(*a, **k), statements.append))
    argv, device, _ = _command(command, tmp_path, played, "census")
    assert tiletable(capsys, argv, device)[0] == 0
    for at in _kill_points(statements):
        argv, device, db_path = _command(command, tmp_path, played, "at%d" % at)
        taker = _Taker(db_path, at, connect)
        monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: _traced(connect(*a, **k), taker.on_statement))
        try:
            status, _, err = tiletable(capsys, argv, device)
        finally:
            taker.release()
        where = "taken at %r" % statements[at - 1]
        assert (status, err) in ((0, ""), (1, "tiletable: %s: database %s is in use by another program; try again when it has finished\n" % (command, db_path))), where
        records, sessions = _stored(db_path) if os.path.exists(db_path) else ([], [])
        if status:  # nothing half done: on the table, and in the database
            assert device.ruleset_list() == {} and device.journal_status()["acked"] == 0, where
            assert command == "pull" or sessions == [], where
        assert all(count == held for _, _, count, held in sessions), where
        monkeypatch.setattr(sqlite3, "connect", connect)
        assert tiletable(capsys, argv, device)[0] == 0, where
        assert len(_stored(db_path)[1]) == (0 if command == "sync" else 3), where


def _traced(conn, on_statement):
    conn.set_trace_callback(lambda sql: on_statement(sql.lstrip()))
    return conn
