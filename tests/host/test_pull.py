"""``tiletable pull`` into a SQLite file or a PostgreSQL database (the tests that take
``db_target`` run on both): incremental, idempotent, acknowledged only when committed, whole
across device resets; and clear errors for a damaged or foreign database file."""
import io
import re
import sqlite3

import pytest

from cli import tiletable
from journal_games import play_into_journal
from tiletable.proto.messages import HELLO, JOURNAL_PULL, JOURNAL_STREAM
from tiletable.record import REC_END
from tiletable.record import iter_records
from tiletable.runtime.journal import Journal
from tiletable_host.db import SCHEMA_VERSION, ConflictError, Database
from tiletable_host.errors import CommandError
from tiletable_host.pull import pull_journal
from tiletable_host.transport import DeviceError
from tiletable_host.transport_local import LocalTransport


@pytest.fixture
def device(tmp_path):
    return LocalTransport(str(tmp_path / "device"))


def _journal_records(root):
    """Every record in a journal directory, read with the firmware's own reader."""
    journal = Journal(root)
    buf = bytearray(64 * 1024)
    return list(iter_records(memoryview(buf)[: journal.read_since(0, buf)]))


def _stored(db_path):
    db = Database.open(db_path)
    rows = db.execute("SELECT seq, type, payload FROM records ORDER BY seq").fetchall()
    db.close()
    return [(seq, rtype, bytes(payload)) for seq, rtype, payload in rows]


def test_pull_stores_every_record_and_acknowledges_them(capsys, tmp_path, device, db_target):
    play_into_journal(device.journal, seed=1)
    play_into_journal(device.journal, seed=2)
    db_path = db_target
    status, out, _ = tiletable(capsys, ["pull", "--db", db_path], device)
    assert status == 0, out
    expected = _journal_records(str(tmp_path / "device" / "journal"))
    assert _stored(db_path) == expected
    assert "pulled %d records (2 new sessions) from tiletable-local" % len(expected) in out
    assert device.journal.acked == expected[-1][0]


def test_pull_during_a_game_stores_what_is_on_flash_and_flushes_nothing(capsys, tmp_path, device, db_target):
    """The records still in the table's write buffer may yet be lost: the pull leaves them
    for the next one rather than force a flash sync in the middle of the game."""
    play_into_journal(device.journal, seed=1, max_actions=40)  # ends with a flush
    for _ in range(5):
        device.journal.log_action("6-6")
    flushes, durable = device.journal.flush_count, device.journal.durable_seq
    db_path = db_target
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    assert [r[0] for r in _stored(db_path)] == list(range(1, durable + 1))
    assert device.journal.acked == durable and device.journal.flush_count == flushes
    device.journal.flush()
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    assert [r[0] for r in _stored(db_path)] == list(range(1, durable + 6))


def test_pull_is_incremental_and_a_second_pull_adds_nothing(capsys, tmp_path, device, db_target):
    db_path = db_target
    play_into_journal(device.journal, seed=1)
    tiletable(capsys, ["pull", "--db", db_path], device)
    first = _stored(db_path)
    status, out, _ = tiletable(capsys, ["pull", "--db", db_path], device)
    assert status == 0 and out.startswith("nothing new on tiletable-local")
    assert _stored(db_path) == first
    play_into_journal(device.journal, seed=3)
    tiletable(capsys, ["pull", "--db", db_path], device)
    assert _stored(db_path) == _journal_records(str(tmp_path / "device" / "journal"))


def test_no_ack_leaves_the_table_copy_unacknowledged(capsys, tmp_path, device, db_target):
    play_into_journal(device.journal, seed=1)
    assert tiletable(capsys, ["pull", "--no-ack", "--db", db_target], device)[0] == 0
    assert device.journal.acked == 0


class OldFirmware(LocalTransport):
    """A table from before JOURNAL_STREAM: one JOURNAL_PULL frame per request."""

    def _boot(self):
        super()._boot()
        del self.server._handlers[JOURNAL_STREAM]
        self.server._capabilities.remove("journal-stream")


class ResetMidStream(LocalTransport):
    """A table that loses power as it sends frame ``at_frame`` of a journal stream."""

    def __init__(self, root, at_frame):
        super().__init__(root)
        self.at_frame = at_frame
        self.frames = 0

    def _read(self, timeout):
        if self.server.stream is not None:
            self.frames += 1
            if self.frames == self.at_frame:
                self.reset()
        return super()._read(timeout)


def _fill_with_a_game_in_progress(journal):
    for seed in range(1, 4):
        play_into_journal(journal, seed=seed)
    play_into_journal(journal, seed=9, max_actions=40)  # a session in progress at the reset


@pytest.mark.parametrize("at_pull", [1, 2, 5])
def test_a_device_reset_in_the_middle_of_a_pull_loses_and_duplicates_nothing(capsys, tmp_path, at_pull, db_target):
    device = OldFirmware(str(tmp_path / "device"))
    _fill_with_a_game_in_progress(device.journal)
    pulls = []

    def reset_at_pull(msg_type):
        assert msg_type != JOURNAL_STREAM  # the host asks an old table the old way
        if msg_type == JOURNAL_PULL:
            pulls.append(msg_type)
            if len(pulls) == at_pull:
                device.reset()
                return True
        return False

    device.before_request = reset_at_pull
    db_path = db_target
    status, out, _ = tiletable(capsys, ["pull", "--db", db_path], device)
    assert status == 0, out
    assert device.resets == 1
    stored = _stored(db_path)
    assert stored == _journal_records(str(tmp_path / "device" / "journal"))
    assert [r[0] for r in stored] == list(range(1, len(stored) + 1))


@pytest.mark.parametrize("at_frame", [1, 2, 5])
def test_a_device_reset_in_the_middle_of_a_stream_loses_and_duplicates_nothing(capsys, tmp_path, at_frame, db_target):
    device = ResetMidStream(str(tmp_path / "device"), at_frame)
    _fill_with_a_game_in_progress(device.journal)
    db_path = db_target
    status, out, _ = tiletable(capsys, ["pull", "--db", db_path], device)
    assert status == 0, out
    assert device.resets == 1 and device.frames > at_frame  # the stream went on after the reset
    stored = _stored(db_path)
    assert stored == _journal_records(str(tmp_path / "device" / "journal"))
    assert [r[0] for r in stored] == list(range(1, len(stored) + 1))


def test_a_lost_stream_frame_ends_the_run_and_the_next_resumes_after_the_last_whole_record(tmp_path):
    device = LocalTransport(str(tmp_path / "device"))
    _fill_with_a_game_in_progress(device.journal)
    device.hello()
    expected = _journal_records(str(tmp_path / "device" / "journal"))
    read = device._read

    def lose_the_third_frame(timeout, frames=[]):
        data = read(timeout)
        frames.append(data)
        return b"" if len(frames) == 3 else data

    device._read = lose_the_third_frame
    records, durable, position, done = device.journal_stream(0)
    assert not done and 0 < len(records) < len(expected) and records == expected[: len(records)]
    device._read = read
    rest, _, _, done = device.journal_stream(records[-1][0], position)
    assert done and records + rest == [r for r in expected if r[0] <= durable]


def test_a_table_without_the_stream_says_so_in_one_line(tmp_path):
    device = OldFirmware(str(tmp_path / "device"))
    device.hello()
    with pytest.raises(DeviceError, match=r"^journal stream: unsupported: journal stream is not available on this device$"):
        device.journal_stream(0)


def test_only_committed_records_are_acknowledged(capsys, tmp_path, device, monkeypatch, db_target):
    for seed in range(1, 4):
        play_into_journal(device.journal, seed=seed)
    original = Database.import_records
    calls = []

    def fail_on_second_batch(self, name, records, identity=""):
        calls.append(len(records))
        if len(calls) == 2:
            raise CommandError("cannot write to %s: disk I/O error" % self.path)
        return original(self, name, records, identity)

    monkeypatch.setattr(Database, "import_records", fail_on_second_batch)
    db_path = db_target
    status, _, err = tiletable(capsys, ["pull", "--db", db_path], device)
    assert status == 1 and err == "tiletable: pull: cannot write to %s: disk I/O error\n" % db_path
    assert len(_stored(db_path)) == calls[0]
    assert device.journal.acked == 0


def test_a_record_stored_twice_is_kept_once_and_a_different_one_is_refused(tmp_path, db_target):
    db = Database.open(db_target)
    header = b'{"boot":1,"firmware":"t","hash":"0123456789abcdef","players":["a","b"],"ruleset":"muggins","time":null}'
    records = [(1, 1, header), (2, 2, b"D0:5-5")]
    assert db.import_records("table", records) == 2
    assert db.import_records("table", records) == 0
    with pytest.raises(ConflictError, match="record 2 of table differs from the copy in .*; is this another table with the same name"):
        db.import_records("table", [(2, 2, b"D0:6-6")])
    assert db.session_records(1) == records


class NoIdentity(LocalTransport):
    """A table whose firmware is from before journal identities: HELLO and the journal status
    carry none, as to a host of the first revision."""

    def _boot(self):
        super()._boot()
        hello = self.server._handlers[HELLO]
        self.server._handlers[HELLO] = lambda fields: hello(dict(fields, proto=1))


def test_a_journal_without_identity_behind_the_database_is_reported(capsys, tmp_path, db_target):
    device = NoIdentity(str(tmp_path / "device"))
    play_into_journal(device.journal, seed=1)
    db_path = db_target
    tiletable(capsys, ["pull", "--db", db_path], device)
    wiped = NoIdentity(str(tmp_path / "wiped"))
    status, _, err = tiletable(capsys, ["pull", "--db", db_path], wiped)
    last = _stored(db_path)[-1][0]
    assert status == 1
    assert err == (
        "tiletable: pull: the journal of tiletable-local ends at record 0 but %s already holds up to %d: "
        "another table with this name, or a wiped journal\n" % (db_path, last)
    )


def _sessions_of(root):
    """Each session of the journal in ``root`` as its list of records."""
    sessions = []
    for record in _journal_records(root):
        if record[1] == 1:  # REC_HEADER
            sessions.append([])
        sessions[-1].append(record)
    return sessions


def _stored_sessions(db_path):
    db = Database.open(db_path)
    try:
        return [db.session_records(session["id"]) for session in db.sessions()]
    finally:
        db.close()


def test_a_wiped_journal_is_a_new_journal_stored_apart_with_one_line(capsys, tmp_path, device, db_target):
    for seed in (1, 2):
        play_into_journal(device.journal, seed=seed)
    db_path = db_target
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    old = device.journal.identity
    wiped = LocalTransport(str(tmp_path / "wiped"))  # the same table, its flash erased: numbering from 1 again
    play_into_journal(wiped.journal, seed=3)
    status, out, err = tiletable(capsys, ["pull", "--db", db_path], wiped)
    assert status == 0 and err == ""
    notice = [line for line in out.splitlines() if "stored apart" in line]
    assert notice == [
        "tiletable-local: its journal is %s, not %s as at the last pull into %s: a wiped or re-deployed journal, "
        "or another table with this name; its sessions are stored apart" % (wiped.journal.identity, old, db_path)
    ]
    play_into_journal(wiped.journal, seed=4)  # on past what the database held of the old journal
    play_into_journal(wiped.journal, seed=5)
    status, out, _ = tiletable(capsys, ["pull", "--db", db_path], wiped)
    assert status == 0 and "stored apart" not in out  # the journal last pulled: nothing to say
    expected = _sessions_of(str(tmp_path / "device" / "journal")) + _sessions_of(str(tmp_path / "wiped" / "journal"))
    assert _stored_sessions(db_path) == expected  # every session whole, none mixed with another


def test_two_tables_with_one_name_never_mix(capsys, tmp_path, db_target):
    """Tables A, then B, then A, then B pulled into one database under one device name: each
    session is stored whole, none has two ends."""
    a = LocalTransport(str(tmp_path / "a"))
    b = LocalTransport(str(tmp_path / "b"))
    db_path = db_target
    for table, seeds in ((a, (1,)), (b, (2, 3, 4)), (a, (5, 6)), (b, (7,))):
        for seed in seeds:
            play_into_journal(table.journal, seed=seed)
        status, out, _ = tiletable(capsys, ["pull", "--db", db_path], table)
        assert status == 0, out
    stored = _stored_sessions(db_path)
    assert all([r[1] for r in session].count(REC_END) == 1 for session in stored)
    a_sessions, b_sessions = _sessions_of(str(tmp_path / "a" / "journal")), _sessions_of(str(tmp_path / "b" / "journal"))
    assert len(stored) == len(a_sessions) + len(b_sessions) == 7
    assert sorted(stored) == sorted(a_sessions + b_sessions)


def test_the_journal_of_a_restarted_table_is_the_same_journal(capsys, tmp_path, device, db_target):
    play_into_journal(device.journal, seed=1)
    db_path = db_target
    tiletable(capsys, ["pull", "--db", db_path], device)
    identity = device.journal.identity
    device.reset()  # a power cut: the journal opened again from its flash
    play_into_journal(device.journal, seed=2)
    status, out, _ = tiletable(capsys, ["pull", "--db", db_path], device)
    assert device.journal.identity == identity and status == 0 and "stored apart" not in out
    assert _stored_sessions(db_path) == _sessions_of(str(tmp_path / "device" / "journal"))


def test_a_file_that_is_not_sqlite_gives_a_clear_error(capsys, tmp_path, device):
    path = tmp_path / "t.db"
    path.write_bytes(b"this is a text file, not a database\n" * 200)
    status, _, err = tiletable(capsys, ["pull", "--db", str(path)], device)
    assert status == 1
    assert err == "tiletable: pull: %s is not a tiletable database (file is not a database)\n" % path


def test_a_foreign_sqlite_database_is_refused_and_left_alone(capsys, tmp_path, device):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(str(path))
    conn.execute("CREATE TABLE songs (title TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    status, _, err = tiletable(capsys, ["pull", "--db", str(path)], device)
    assert status == 1
    assert err == "tiletable: pull: %s is not a tiletable database (it belongs to another program); pass another --db\n" % path
    assert path.read_bytes() == before


def test_a_damaged_database_is_reported(capsys, tmp_path, device):
    play_into_journal(device.journal, seed=1)
    path = tmp_path / "t.db"
    tiletable(capsys, ["pull", "--db", str(path)], device)
    data = bytearray(path.read_bytes())
    page = 4096
    for i in range(page * 2 + 8, min(len(data), page * 3)):  # scribble over a b-tree page
        data[i] = 0x5A
    path.write_bytes(bytes(data))
    status, _, err = tiletable(capsys, ["sessions", "--check", "--db", str(path)], device)
    assert status == 1
    assert err.startswith("tiletable: sessions: database %s is damaged (" % path) and err.count("\n") == 1


# Schema 2, as tiletable wrote it before journals had identities (host/tiletable_host/db.py at 45fb863).
SCHEMA_2 = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY, device TEXT NOT NULL, first_seq INTEGER NOT NULL, ruleset TEXT NOT NULL,
    hash TEXT NOT NULL, players TEXT NOT NULL, boot INTEGER, firmware TEXT, time INTEGER, result TEXT,
    records INTEGER NOT NULL DEFAULT 0, who TEXT NOT NULL DEFAULT '', outcome TEXT NOT NULL DEFAULT 'in progress',
    UNIQUE (device, first_seq)
);
CREATE TABLE records (
    device TEXT NOT NULL, seq INTEGER NOT NULL, type INTEGER NOT NULL, payload BLOB NOT NULL,
    session INTEGER REFERENCES sessions (id), PRIMARY KEY (device, seq)
);
CREATE INDEX records_by_session ON records (session, seq);
CREATE TABLE rulesets (hash TEXT PRIMARY KEY, name TEXT NOT NULL, document TEXT NOT NULL);
CREATE TABLE devices (device TEXT PRIMARY KEY, boot INTEGER NOT NULL);
PRAGMA application_id = 1414808642;
PRAGMA user_version = 2;
"""


def _schema_2_file(path, device_root, listed):
    """A schema-2 database holding the journal in ``device_root`` as tiletable-local's, as a
    pull wrote it then; ``listed``: the listing line of each session (from a schema-3 pull)."""
    import json

    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_2)
    with conn:
        session = None
        for seq, rtype, payload in _journal_records(device_root):
            if rtype == 1:
                header = json.loads(payload)
                _, started, ruleset, _, count, who, outcome = listed.pop(0).split("|")
                session = conn.execute(
                    "INSERT INTO sessions (device, first_seq, ruleset, hash, players, boot, firmware, time, records, who, outcome)"
                    " VALUES ('tiletable-local', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (seq, ruleset, header["hash"], json.dumps(header["players"]), header["boot"], header["firmware"],
                     header["time"], int(count), who, outcome),
                ).lastrowid
            elif rtype == REC_END:
                conn.execute("UPDATE sessions SET result = ? WHERE id = ?", (payload.decode(), session))
            conn.execute("INSERT INTO records VALUES ('tiletable-local', ?, ?, ?, ?)", (seq, rtype, payload, session))
        conn.execute("INSERT INTO devices VALUES ('tiletable-local', 2)")
    conn.close()


@pytest.mark.parametrize("version", [1, 2])
def test_a_database_of_schema_1_or_2_is_migrated_in_place(capsys, tmp_path, device, version):
    """Its records go under the table's journal from before identities, which the next pull
    of that table takes for its journal: nothing is stored twice, nothing said."""
    for seed in (1, 2):
        play_into_journal(device.journal, seed=seed)
    device.reset()  # boot 2, as at the pull the schema-2 file stands for
    fresh = str(tmp_path / "fresh.db")
    tiletable(capsys, ["pull", "--db", fresh, "--no-ack"], device)
    db = Database.open(fresh)
    listed = db.listing("%s|%s|%s|%s|%s|%s|%s")
    db.close()
    path = str(tmp_path / "t.db")
    _schema_2_file(path, str(tmp_path / "device" / "journal"), list(listed))
    if version == 1:  # no record count nor listing texts in sessions
        conn = sqlite3.connect(path)
        with conn:
            for column in ("records", "who", "outcome"):
                conn.execute("ALTER TABLE sessions DROP COLUMN %s" % column)
            conn.execute("PRAGMA user_version = 1")
        conn.close()
    db = Database.open(path)
    assert db.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.listing("%s|%s|%s|%s|%s|%s|%s") == listed
    assert [s["journal"] for s in db.sessions()] == ["", ""] and db.last_boot("tiletable-local") == 2
    db.close()
    play_into_journal(device.journal, seed=3)
    status, out, _ = tiletable(capsys, ["pull", "--db", path], device)
    assert status == 0 and "stored apart" not in out, out
    assert _stored_sessions(path) == _sessions_of(str(tmp_path / "device" / "journal"))
    db = Database.open(path)
    assert {s["journal"] for s in db.sessions()} == {device.journal.identity}
    db.close()


def test_a_database_of_schema_2_meets_a_wiped_journal(capsys, tmp_path, device):
    """The records stored before identities are not taken for a journal that does not go on
    from them: the new one is stored apart, with the one line."""
    play_into_journal(device.journal, seed=1)
    fresh = str(tmp_path / "fresh.db")
    tiletable(capsys, ["pull", "--db", fresh], device)
    db = Database.open(fresh)
    listed = db.listing("%s|%s|%s|%s|%s|%s|%s")
    db.close()
    path = str(tmp_path / "t.db")
    _schema_2_file(path, str(tmp_path / "device" / "journal"), list(listed))
    wiped = LocalTransport(str(tmp_path / "wiped"))
    for seed in (2, 3):  # longer than the old one
        play_into_journal(wiped.journal, seed=seed)
    status, out, _ = tiletable(capsys, ["pull", "--db", path], wiped)
    assert status == 0
    assert "its journal is %s, not one without an identity as at the last pull" % wiped.journal.identity in out
    assert _stored_sessions(path) == _sessions_of(str(tmp_path / "device" / "journal")) + _sessions_of(str(tmp_path / "wiped" / "journal"))


def test_a_database_from_a_newer_tiletable_is_refused_and_left_alone(capsys, tmp_path, device):
    path = str(tmp_path / "t.db")
    Database.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 9")
    conn.close()
    status, _, err = tiletable(capsys, ["sessions", "--db", path])
    assert status == 1
    assert err == "tiletable: sessions: database %s was written by a newer tiletable (schema 9; this one knows up to %d): upgrade tiletable\n" % (path, SCHEMA_VERSION)


def test_a_database_another_program_holds_is_called_in_use(capsys, tmp_path, device):
    path = str(tmp_path / "t.db")
    Database.open(path).close()
    holder = sqlite3.connect(path)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO tables (device) VALUES ('x')")
    try:
        for argv in (["sessions", "--db", path], ["pull", "--db", path]):
            status, _, err = tiletable(capsys, argv, device)
            assert status == 1
            assert err == "tiletable: %s: database %s is in use by another program; try again when it has finished\n" % (argv[0], path)
    finally:
        holder.close()


def test_sessions_without_a_database_says_how_to_get_one(capsys, tmp_path):
    path = tmp_path / "none.db"
    status, _, err = tiletable(capsys, ["sessions", "--db", str(path)])
    assert status == 1
    assert err == "tiletable: sessions: no database at %s (run `tiletable pull` first, or pass --db)\n" % path


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_long_pull_draws_a_progress_bar_on_a_terminal(tmp_path, device, db_target):
    for seed in range(1, 4):
        play_into_journal(device.journal, seed=seed)
    device.hello()
    db = Database.open(db_target)
    screen = _Terminal()
    added, sessions, last = pull_journal(device, db, progress_stream=screen)
    drawn = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", screen.getvalue())  # without the colours and cursor moves
    assert re.search(r"pull ━+ 100%% %d/%d records" % (last, last), drawn), drawn
    assert (added, sessions) == (last, 3)


def test_nothing_to_pull_draws_no_bar(tmp_path, device, db_target):
    device.hello()
    screen = _Terminal()
    pull_journal(device, Database.open(db_target), progress_stream=screen)
    assert screen.getvalue() == ""


def test_a_table_without_identity_whose_journal_restarted_is_reported_before_anything_is_stored(capsys, tmp_path, db_target):
    device = NoIdentity(str(tmp_path / "device"))
    for seed in (1, 2):
        play_into_journal(device.journal, seed=seed)
    device.reset()
    device.reset()  # boot 3 when pulled
    db_path = db_target
    tiletable(capsys, ["pull", "--db", db_path], device)
    stored = _stored(db_path)
    wiped = NoIdentity(str(tmp_path / "wiped"))  # boot 1, and a longer journal than the first
    for seed in (3, 4, 5):
        play_into_journal(wiped.journal, seed=seed)
    status, _, err = tiletable(capsys, ["pull", "--db", db_path], wiped)
    assert status == 1
    assert err == (
        "tiletable: pull: tiletable-local reports journal boot 1 but was at boot 3 when last pulled into %s: "
        "a wiped journal, or another table with this name (its firmware gives its journal no identity: "
        "update it with `tiletable deploy`)\n" % db_path
    )
    assert _stored(db_path) == stored
