"""Many writers, nothing lost (issue 41): a club's PCs pull their tables into one PostgreSQL
database at once.

Eight simulated tables (sim/device.py behind ptys, each with three sessions on its flash) are
pulled by eight processes at once, each pull killed (``os._exit``, as ``kill -9``) at a
moment drawn from a seeded generator and started again, until one completes: every record is
stored once, every session is whole at every moment, and no table is told a record is safe
before it is committed (each pull checks that before each JOURNAL_ACK, from a connection of
its own). The moments are events of the pull itself (a statement sent, a request on the
link), so what is checked does not depend on the machine's speed, though how the pulls
interleave does.

Then pull, import and sync from several PCs wait for each other no longer than their own
transaction: one program is held inside its write transaction while the others run; each
other one finishes, or is waiting for that program's locks alone and finishes once it commits.
"""
import multiprocessing
import os
import random
import subprocess
import sys

import pytest

from cli import run_captured
from journal_games import play_into_journal, write_record_files
from soak import size
from tiletable.record import REC_HEADER, iter_records
from tiletable.runtime.journal import Journal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import killed_pull  # noqa: E402

TABLES = 8
SESSIONS = 3  # per table
ACTIONS = size(24, 120)  # per session at most
KILLS = size(1, 8)  # kills at random moments per table, then one at its JOURNAL_ACK, then a pull left to finish
# records per transaction, table by table: many commits and moments between them, or one commit
# at the end of the pull (the one just before the JOURNAL_ACK)
COMMIT_RECORDS = (7, 1000)
EVENTS = size(60, 200)  # about the events of a whole pull of a table (a pull resumed has fewer; one with nothing new 16)
WAIT = 300  # seconds for a program that is not stuck (a loaded machine); never reached when it works


def _journal_records(root):
    journal = Journal(root + "/journal")
    buf = bytearray(1024 * 1024)
    records = list(iter_records(memoryview(buf)[: journal.read_since(0, buf)]))
    journal.close()
    return records


def _fill(root, seed):
    """Three ended sessions on the flash of the table in ``root``; its records."""
    os.makedirs(root + "/journal")
    journal = Journal(root + "/journal")
    for number in range(SESSIONS):
        if not play_into_journal(journal, seed=seed * 10 + number, max_actions=ACTIONS).is_over():
            journal.end_session({"reason": "stopped"})  # ended: the table resumes no session at boot
    journal.close()
    return _journal_records(root)


def _query(url, sql, *params):
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql, params).fetchall()


def _broken_sessions(url):
    """Sessions whose record count is not the records they hold (none, at every moment)."""
    return _query(url, "SELECT id FROM sessions s WHERE records <> (SELECT count(*) FROM records r WHERE r.session = s.id)")


class _Table:
    """One simulated table and the schedule of its pulls: kill points (``ack``: at the
    JOURNAL_ACK), then a pull that is left to finish."""

    def __init__(self, number, root, rng):
        from tiletable_host.simtable import SimulatedTable

        self.number = number
        self.expected = _fill(root, number)
        self.table = SimulatedTable.start(root=root)
        self.schedule = [rng.randint(1, EVENTS) for _ in range(KILLS)] + ["ack", 0]
        self.commit_records = COMMIT_RECORDS[number % len(COMMIT_RECORDS)]
        self.rounds = []  # (kill point, exit status, output)
        self.process = None

    def start_pull(self, url):
        """Start the next pull of the schedule."""
        self.kill_at = self.schedule[len(self.rounds)]
        argv = [sys.executable, os.path.join(HERE, "killed_pull.py"), self.table.port, url,
                str(killed_pull.AT_ACK if self.kill_at == "ack" else self.kill_at), str(self.commit_records)]
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def finished(self):
        """The pull that ran, once it has ended: (kill point, exit status, output); else None."""
        if self.process is None or self.process.poll() is None:
            return None
        output = self.process.communicate()[0]
        self.rounds.append((self.kill_at, self.process.returncode, output))
        self.process = None
        return self.rounds[-1]

    def last_round(self):
        return len(self.rounds) == len(self.schedule)

    def acknowledged(self):
        """What the table says it has been told is safe (over its port, as a PC asks)."""
        from tiletable_host.transport_serial import SerialTransport

        link = SerialTransport(self.table.port, timeout=30.0)
        try:
            link.hello()
            return link.journal_status()["acked"], link.device_info["device"]
        finally:
            link.close()


@pytest.fixture
def tables(tmp_path):
    rng = random.Random(41)
    made = []
    try:
        for number in range(1, TABLES + 1):
            made.append(_Table(number, str(tmp_path / ("table%d" % number)), rng))
        yield made
    finally:
        for table in made:
            if table.process is not None:
                table.process.kill()
                table.process.wait()
            table.table.stop()


def test_eight_tables_pulled_at_once_killed_and_restarted_lose_and_duplicate_nothing(tables, postgres_url):
    import time

    for table in tables:  # eight PCs at once into a database none has created yet
        table.start_pull(postgres_url)
    running = list(tables)
    deadline = time.monotonic() + WAIT * 4
    while running:
        assert time.monotonic() < deadline, "pulls stuck: %s" % [(t.number, t.kill_at) for t in running]
        for table in list(running):
            done = table.finished()
            if done is None:
                continue
            kill_at, status, output = done
            where = "table %d, pull %d (killed at %s): %s" % (table.number, len(table.rounds), kill_at, output)
            assert status in ((0,) if kill_at == 0 else (0, killed_pull.KILLED)), where
            acked, device = table.acknowledged()
            if _query(postgres_url, "SELECT to_regclass('records')")[0][0] is None:  # every pull so far killed before the schema's commit
                assert acked == 0, where
            else:
                committed = _query(postgres_url, "SELECT coalesce(max(seq), 0) FROM records r JOIN journals j ON j.id = r.journal WHERE device = %s", device)
                assert acked <= committed[0][0], where
                assert _broken_sessions(postgres_url) == [], where
            if table.last_round():
                running.remove(table)
            else:
                table.start_pull(postgres_url)
        time.sleep(0.05)  # a look at the pulls now and then: what they do is not ordered by it

    assert sum(1 for table in tables for _, status, _ in table.rounds if status == killed_pull.KILLED) >= TABLES
    for table in tables:
        acked, device = table.acknowledged()
        stored = _query(postgres_url, "SELECT seq, type, payload FROM records r JOIN journals j ON j.id = r.journal WHERE device = %s ORDER BY seq", device)
        assert [(seq, rtype, bytes(payload)) for seq, rtype, payload in stored] == table.expected, "table %d" % table.number
        assert acked == table.expected[-1][0]
        sessions = _query(postgres_url, "SELECT first_seq, records FROM sessions WHERE device = %s ORDER BY first_seq", device)
        headers = [seq for seq, rtype, _ in table.expected if rtype == REC_HEADER]
        assert [first for first, _ in sessions] == headers and len(headers) == SESSIONS
        ends = headers[1:] + [table.expected[-1][0] + 1]
        assert [count for _, count in sessions] == [end - first for first, end in zip(headers, ends)]
    assert _query(postgres_url, "SELECT count(*) FROM journals") == [(TABLES,)]
    assert _query(postgres_url, "SELECT count(*) FROM records") == [(sum(len(t.expected) for t in tables),)]


# ----- several PCs wait for each other no longer than a transaction

FORK = multiprocessing.get_context("fork")


def _local_table(root, device):
    """A table in this process (its storage the folder ``root``) whose id is ``device``."""
    from tiletable.proto.server import LinkServer
    from tiletable_host.transport_local import FIRMWARE, LocalTransport

    class Table(LocalTransport):
        def _boot(self):
            super()._boot()
            self.server = LinkServer(self.rulestore, self.journal, FIRMWARE, device)

    return Table(root, timeout=30)


def _played(root, device, seed):
    """A table ``device`` with two ended sessions on its flash."""
    table = _local_table(root, device)
    for number in range(2):
        if not play_into_journal(table.journal, seed=seed + number, max_actions=16).is_over():
            table.journal.end_session({"reason": "stopped"})
    table.journal.close()
    return root


def _record_files(tmp_path):
    """The sessions of a laptop's table as record files (what a PC imports); every PC
    importing has the same files."""
    root = _played(str(tmp_path / "laptop"), "tiletable-laptop", 7)
    db_path = str(tmp_path / "laptop.db")
    assert run_captured(["pull", "--no-ack", "--db", db_path], _local_table(root, "tiletable-laptop"))[0] == 0
    return write_record_files(db_path, tmp_path)


def _program(kind, tmp_path, url, name):
    """``(work, args)`` of a program of ``kind`` on the club's database, as PC ``name`` runs it."""
    if kind == "pull":
        root = _played(str(tmp_path / name), "tiletable-" + name, sum(map(ord, name)))
        return lambda: run_captured(["pull", "--db", url], _local_table(root, "tiletable-" + name))
    if kind == "import":
        files = _record_files(tmp_path / name)
        return lambda: run_captured(["import"] + files + ["--db", url])
    if kind == "sync":
        root = str(tmp_path / name)
        return lambda: run_captured(["sync", "--db", url], _local_table(root, "tiletable-" + name))
    assert kind == "sessions"
    return lambda: run_captured(["sessions", "--db", url])


# the statement a held program is held at: inside its write transaction, its locks taken
_HELD_AT = {"pull": "INSERT INTO records", "import": "INSERT INTO records", "sync": "INSERT INTO rulesets"}


def _start(work, name, hold_at=None):
    """``work()`` in a forked child whose connections are named ``name`` on the server; with
    ``hold_at``, it stops as its first statement starting so begins, until ``release`` is set.
    Returns (process, result pipe, held event, release event)."""
    receive, send = FORK.Pipe(duplex=False)
    held, release = FORK.Event(), FORK.Event()

    def child():
        os.environ["PGAPPNAME"] = name
        if hold_at:
            import psycopg

            from tiletable_host import db as dbmod

            dbmod.SERVER_IDLE_TIMEOUT = WAIT  # held on purpose: the server must not end it as a dead program's

            execute = psycopg.Cursor.execute

            def holding(self, query, *args, **kwargs):
                if not held.is_set() and str(query).lstrip().startswith(hold_at):
                    held.set()
                    release.wait(WAIT)
                return execute(self, query, *args, **kwargs)

            psycopg.Cursor.execute = holding
        send.send(work())

    process = FORK.Process(target=child)
    process.start()
    send.close()
    return process, receive, held, release


def _blockers(url, name):
    """The server processes that the program named ``name`` waits for, or None while it waits for none."""
    rows = _query(url, "SELECT pg_blocking_pids(pid) FROM pg_stat_activity WHERE application_name = %s", name)
    waiting = [pid for (pids,) in rows for pid in pids]
    return waiting or None


def _finished(process, receive):
    result = receive.recv() if receive.poll(WAIT) else None
    process.join(WAIT)
    return result


@pytest.mark.parametrize("holder", ["pull", "import", "sync"])
def test_pull_import_and_sync_from_several_pcs_wait_for_each_other_no_longer_than_a_transaction(tmp_path, postgres_url, holder):
    import time

    from tiletable_host.db import Database

    Database.open(postgres_url).close()
    held_work = _program(holder, tmp_path, postgres_url, "held")
    others = {kind: _program(kind, tmp_path, postgres_url, "pc-" + kind) for kind in ("pull", "import", "sync", "sessions")}
    process, receive, held, release = _start(held_work, "held", _HELD_AT[holder])
    try:
        assert held.wait(WAIT), "the held program never reached %r" % _HELD_AT[holder]
        holder_pid = _query(postgres_url, "SELECT pid FROM pg_stat_activity WHERE application_name = 'held'")[0][0]
        running = {kind: _start(work, "pc-" + kind) for kind, work in others.items()}
        # each one finishes, or ends up waiting for the held program (and those in line before it
        # for the same lock) until it commits; waiting for another one that is running is a wait
        # for that one's transaction, and is looked at again
        must_wait = {"import", "sync"} if holder in ("import", "sync") else set()  # those store several things at once
        results, waited = {}, {}
        deadline = time.monotonic() + WAIT
        while len(results) + len(waited) < len(running):
            assert time.monotonic() < deadline, "neither finished nor waiting: %s" % sorted(set(running) - set(results) - set(waited))
            for kind, (child, pipe, _, _) in running.items():
                if kind in results or kind in waited:
                    continue
                if pipe.poll():
                    results[kind] = _finished(child, pipe)
                else:
                    blockers = _blockers(postgres_url, "pc-" + kind)
                    if blockers is not None and holder_pid in blockers:
                        waited[kind] = blockers
            time.sleep(0.02)  # a look now and then: nothing is ordered by it
        assert sorted(waited) == sorted(must_wait), (waited, results)
        in_line = {pid for (pid,) in _query(postgres_url, "SELECT pid FROM pg_stat_activity WHERE application_name = ANY(%s)", ["pc-" + kind for kind in waited])}
        assert all(set(blockers) <= {holder_pid} | in_line for blockers in waited.values()), waited
        assert all(result[0] == 0 for result in results.values()), results
        release.set()
        assert _finished(process, receive)[0] == 0
        for kind in waited:
            result = _finished(running[kind][0], running[kind][1])
            assert result[0] == 0, result
    finally:
        release.set()
        process.join(WAIT)
    db = Database.open(postgres_url)
    sessions = db.sessions()
    db.close()
    # two tables pulled with a held pull, else one; the laptop's sessions imported once, by one PC or two
    assert len(sessions) == {"pull": 6, "import": 4, "sync": 4}[holder]
    assert _broken_sessions(postgres_url) == []
