"""One Database on both engines: a SQLite file and a PostgreSQL database hold the same records,
sessions and rulesets, list them alike, and tell a missing or foreign schema in one line."""
import contextlib
import json
import multiprocessing
import os
import re

import pytest

from cli import tiletable
from dbtrace import trap_statements
from journal_games import play_into_journal
from tiletable.record import iter_records
from tiletable.runtime.journal import Journal
from tiletable_host import db as dbmod
from tiletable_host import pull as pullmod
from tiletable_host.db import ConflictError, Database
from tiletable_host.errors import CommandError
from tiletable_host.sessions import ROW
from tiletable_host.transport_local import LocalTransport


@pytest.fixture
def device(tmp_path):
    table = LocalTransport(str(tmp_path / "device"))
    for seed in (1, 2):
        play_into_journal(table.journal, seed=seed)
    return table


def _journal_records(root):
    journal = Journal(root)
    buf = bytearray(64 * 1024)
    return list(iter_records(memoryview(buf)[: journal.read_since(0, buf)]))


def test_a_pull_stores_every_record_once_and_lists_it(capsys, tmp_path, device, db_target):
    assert tiletable(capsys, ["pull", "--db", db_target], device)[0] == 0
    assert tiletable(capsys, ["pull", "--db", db_target], device)[1].startswith("nothing new on tiletable-local")
    db = Database.open(db_target, create=False)
    try:
        stored = [(seq, rtype, bytes(payload)) for seq, rtype, payload in db.execute("SELECT seq, type, payload FROM records ORDER BY seq")]
        assert stored == _journal_records(str(tmp_path / "device" / "journal"))
        sessions = db.sessions()
        assert [s["id"] for s in sessions] == [1, 2] and sum(s["records"] for s in sessions) == len(stored)
        assert sessions[0]["started"] == "2023-11-14 22:13 UTC" and sessions[0]["who"] == "ann, bob"
        assert db.session_records(2) == [r for r in stored if r[0] >= sessions[1]["first_seq"]]
        assert db.listing(ROW)[0] == "   1  2023-11-14 22:13 UTC  muggins       tiletable-local         526  ann, bob / target: ann 141, bob 204"
        db.check()
    finally:
        db.close()


def test_listing_pads_names_by_characters_on_both_engines(db_target):
    from tiletable.record import REC_HEADER

    db = Database.open(db_target)
    try:
        header = b'{"players": ["Zo\\u00eb", "J\\u00fcrgen"], "ruleset": "muggins", "time": null}'
        db.import_records("tiletable-x", [(1, REC_HEADER, header)])
        db.remember_pull("tiletable-x", "", 3, "Tisch \u00e4")
        assert db.listing("[%4d|%!-20s|%!-8s|%!-8s|%3d|%s|%s]") == ["[   1|time unknown        |muggins |Tisch \u00e4 |  1|Zo\u00eb, J\u00fcrgen|in progress]"]
        assert db.last_boot("tiletable-x") == 3 and db.table_journal("tiletable-x") == ""
    finally:
        db.close()


def test_rulesets_are_kept_by_hash_and_the_last_document_wins(db_target):
    db = Database.open(db_target)
    try:
        with db.transaction():
            db.remember_ruleset("abc", "house", "{}")
            db.remember_ruleset("abc", "house", '{"a": 1}')
        assert db.ruleset_document("abc") == '{"a": 1}' and db.ruleset_document("nope") is None
    finally:
        db.close()


def test_a_transaction_that_fails_stores_nothing(db_target):
    db = Database.open(db_target)
    try:
        with pytest.raises(RuntimeError), db.transaction():
            db.remember_ruleset("abc", "house", "{}")
            raise RuntimeError("cut off")
        assert db.ruleset_document("abc") is None
    finally:
        db.close()


def test_reading_a_server_database_without_the_schema_says_so_in_one_line(capsys, postgres_url):
    for command in (["sessions"], ["show", "1"], ["export", "1"], ["replay", "1"]):
        status, out, err = tiletable(capsys, command + ["--db", postgres_url])
        assert (status, out) == (1, ""), command
        assert err.count("\n") == 1 and "has no tiletable schema yet" in err, command
    db = Database.open(postgres_url)  # a command that writes creates it
    assert db.session_count() == 0
    db.close()


def test_a_server_database_keeps_its_marks_in_a_table(postgres_url):
    Database.open(postgres_url).close()
    db = Database.open(postgres_url, create=False)
    try:
        assert db.execute("SELECT application_id, version FROM tiletable_schema").fetchall() == [(dbmod.APPLICATION_ID, dbmod.SCHEMA_VERSION)]
    finally:
        db.close()


def test_a_server_database_of_another_program_is_refused_and_left_alone(capsys, postgres_url, postgres_cluster):
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE records (id int)")
    status, _, err = tiletable(capsys, ["sessions", "--db", postgres_url])
    assert status == 1 and "has tables of another program (records) and no tiletable schema" in err
    with pytest.raises(CommandError, match=r"has tables of another program \(records\)"):
        Database.open(postgres_url)  # nor created by a command that writes
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT to_regclass('tiletable_schema') IS NULL, to_regclass('sessions') IS NULL").fetchone() == (True, True)


def test_a_server_database_of_a_newer_tiletable_is_refused(capsys, postgres_url):
    db = Database.open(postgres_url)
    db.execute("UPDATE tiletable_schema SET version = ?", (dbmod.SCHEMA_VERSION + 1,))
    db.close()
    status, _, err = tiletable(capsys, ["sessions", "--db", postgres_url])
    assert status == 1 and "was written by a newer tiletable (schema %d" % (dbmod.SCHEMA_VERSION + 1) in err


FORK = multiprocessing.get_context("fork")
STUCK = 87  # a child's exit status when the other never came to where they meet


def _open_when_both_found_it_new(url, found, me):
    """``Database.open(url)`` that, about to take the schema's lock, waits until the other
    program has found the database without a schema too; how many CREATEs it ran."""
    creates = []

    def on_statement(sql):
        if "pg_advisory_xact_lock(%s::bigint)" in sql:
            found[me].set()
            if not found[1 - me].wait(120):
                os._exit(STUCK)
        if sql.startswith("CREATE"):
            creates.append(sql)

    trap_statements(on_statement)
    Database.open(url).close()
    return len(creates)


def test_two_programs_opening_a_new_server_database_at_once_create_it_once(postgres_url):
    found = [FORK.Event(), FORK.Event()]
    receive, send = FORK.Pipe(duplex=False)
    processes = [FORK.Process(target=lambda me=me: send.send((me, _open_when_both_found_it_new(postgres_url, found, me)))) for me in (0, 1)]
    for process in processes:
        process.start()
    send.close()
    creates = {}
    with contextlib.suppress(EOFError):
        for _ in processes:
            me, count = receive.recv()
            creates[me] = count
    for process in processes:
        process.join()
    assert [process.exitcode for process in processes] == [0, 0]
    assert sorted(creates.values()) == [0, dbmod._SCHEMA.count("CREATE ") + 1]  # and tiletable_schema
    db = Database.open(postgres_url, create=False)
    try:
        assert db.execute("SELECT count(*) FROM tiletable_schema").fetchone()[0] == 1 and db.session_count() == 0
    finally:
        db.close()


def test_a_commit_the_server_refuses_stores_nothing_and_the_pull_acknowledges_nothing(capsys, device, postgres_url, monkeypatch):
    """The server refuses the third transaction as it commits (a deferred constraint trigger):
    what the first two stored stays, nothing is acknowledged, and the next pull completes."""
    import psycopg

    monkeypatch.setattr(pullmod, "COMMIT_RECORDS", 100)
    Database.open(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(
            "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN IF NEW.seq > 250 THEN RAISE EXCEPTION 'refused as it commits'; END IF; RETURN NEW; END $$"
        )
        conn.execute("CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON records DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse()")
    status, _, err = tiletable(capsys, ["pull", "--db", postgres_url], device)
    assert status == 1 and err.count("\n") == 1 and "refused as it commits" in err
    assert device.journal.acked == 0
    db = Database.open(postgres_url)
    try:
        stored = [seq for (seq,) in db.execute("SELECT seq FROM records ORDER BY seq")]
        assert stored == list(range(1, len(stored) + 1)) and 100 <= len(stored) <= 250  # whole transactions, before the refused one
    finally:
        db.close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("DROP TRIGGER refuse ON records")
    assert tiletable(capsys, ["pull", "--db", postgres_url], device)[0] == 0
    expected = _journal_records(str(device.root) + "/journal")
    assert device.journal.acked == expected[-1][0]
    db = Database.open(postgres_url)
    try:
        assert db.record_count() == len(expected) and sum(s["records"] for s in db.sessions()) == len(expected)
    finally:
        db.close()


def test_a_commit_answered_rollback_is_an_error_not_a_success(postgres_url):
    """A transaction a failed statement aborted is answered COMMIT with ROLLBACK: were that
    taken for a commit, pull would acknowledge records the database never stored."""
    import psycopg

    db = Database.open(postgres_url)
    try:
        with pytest.raises(CommandError, match=r"did not store the transaction \(the server answered ROLLBACK\)"):
            with db._writing():
                db.remember_ruleset("abc", "house", "{}")
                with contextlib.suppress(psycopg.Error):
                    db.execute("SELECT 1 / 0")
        assert db.ruleset_document("abc") is None
    finally:
        db.close()


def _without_chart_ids(page):
    """A page without the random id pygal gives each chart it draws."""
    return re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>", page)


def test_the_history_pages_are_the_same_from_either_engine(capsys, tmp_path, postgres_url):
    """`serve --db postgresql://...` shows what `serve --db club.db` shows of the same sessions."""
    from starlette.testclient import TestClient

    from tiletable_host.serve.app import create_app
    from tiletable_host.serve.live import Hub

    table = LocalTransport(str(tmp_path / "club"))
    for seed in (1, 2):
        play_into_journal(table.journal, seed=seed)
    play_into_journal(table.journal, "block", ("cy", "di"), seed=3, max_actions=30)
    local = str(tmp_path / "club.db")
    for target in (local, postgres_url):
        assert tiletable(capsys, ["pull", "--no-ack", "--db", target], table)[0] == 0
    pages = ["/history", "/history?player=ann", "/history/session/1", "/history/session/3", "/history/session/2.tgr",
             "/history/player/ann", "/history/player/cy", "/history/standings"]
    answers = {}
    for target in (local, postgres_url):
        client = TestClient(create_app(Hub(), target))
        answers[target] = [(response.status_code, _without_chart_ids(response.text)) for response in map(client.get, pages)]
    assert [status for status, _ in answers[local]] == [200] * len(pages)
    assert answers[postgres_url] == answers[local]
    assert "in progress" in answers[local][0][1] and "ann" in answers[local][7][1]


def test_a_schema_another_program_commits_between_the_first_two_looks_is_taken(postgres_url, monkeypatch):
    """A program's first look finds no marks; before its look for foreign tables, another
    program commits the whole schema (marks and tables at once). The tables found are then
    tiletable's, not another program's: the program goes on. (It said "tables of another
    program" in 1 of the runs of three programs opening a new database at once.)"""
    Database.open(postgres_url).close()  # the other program's schema, committed
    monkeypatch.setattr(dbmod._PostgreSQL, "_version_at_once", classmethod(lambda cls, db: None))  # looked before it
    db = Database.open(postgres_url, create=False)
    try:
        assert db.session_count() == 0
    finally:
        db.close()


def test_tables_of_another_program_without_marks_are_refused(postgres_url):
    Database.open(postgres_url).close()
    db = Database.open(postgres_url)
    db.execute("DROP TABLE tiletable_schema")
    db.close()
    with pytest.raises(CommandError, match="has tables of another program .* and no tiletable schema"):
        Database.open(postgres_url)


def test_a_record_given_twice_in_one_batch_is_stored_once_and_a_different_copy_refused(db_target):
    from tiletable.record import REC_HEADER

    header = b'{"players": ["ann", "bob"], "ruleset": "muggins", "time": null}'
    db = Database.open(db_target)
    try:
        assert db.import_records("t", [(1, REC_HEADER, header), (2, 2, b"D0:5-5"), (2, 2, b"D0:5-5"), (3, 2, b"D1:6-6")]) == 3
        with pytest.raises(ConflictError, match="record 5 of t differs"):
            db.import_records("t", [(4, 2, b"D0:1-1"), (5, 2, b"D0:2-2"), (5, 2, b"D0:3-3")])
        assert db.session_records(1) == [(1, REC_HEADER, header), (2, 2, b"D0:5-5"), (3, 2, b"D1:6-6")]
        assert db.sessions()[0]["records"] == 3 and db.record_count() == 3
    finally:
        db.close()


def test_a_server_lost_in_the_middle_is_one_line(postgres_url, postgres_cluster):
    import psycopg

    db = Database.open(postgres_url)
    try:
        pid = db.execute("SELECT pg_backend_pid()").fetchone()[0]
        with psycopg.connect(postgres_cluster.url(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(CommandError, match=r"^lost the database server of postgresql://\S+ \(.*\); what was not committed is not stored, try again$"):
            db.sessions()
        with pytest.raises(CommandError, match=r"^lost the database server of "):
            db.import_records("t", [(1, 2, b"D0:5-5")])
    finally:
        db.close()


def test_a_server_database_marked_by_another_program_is_refused(capsys, postgres_url):
    db = Database.open(postgres_url)
    db.execute("UPDATE tiletable_schema SET application_id = 1")
    db.close()
    status, _, err = tiletable(capsys, ["sessions", "--db", postgres_url])
    assert (status, err) == (1, "tiletable: sessions: %s is not a tiletable database (it belongs to another program); pass another --db\n" % postgres_url)


def test_a_write_on_a_server_commits_to_its_disk_whatever_the_server_default(postgres_url):
    """The tests' cluster runs with synchronous_commit off (a COMMIT returns before the disk
    has it, and a crash may lose it): a pull's transaction turns it on for itself, since the
    table deletes what was acknowledged after that COMMIT."""
    db = Database.open(postgres_url)
    try:
        assert db.execute("SHOW synchronous_commit").fetchone()[0] == "off"
        with db._writing(journal=db.journal_id("t")):
            assert db.execute("SHOW synchronous_commit").fetchone()[0] == "on"
        assert db.execute("SHOW synchronous_commit").fetchone()[0] == "off"
    finally:
        db.close()


def test_a_program_that_goes_silent_in_a_write_holds_the_others_up_only_until_the_server_ends_it(postgres_url, monkeypatch):
    """A PC that dies or loses its network inside a transaction would hold its journal's lock
    until the server noticed (hours, through TCP); the server ends an idle write instead."""
    monkeypatch.setattr(dbmod, "SERVER_IDLE_TIMEOUT", 1)
    silent, other = Database.open(postgres_url), Database.open(postgres_url)
    try:
        writing = silent._writing(journal=silent.journal_id("t"))
        writing.__enter__()  # takes the journal's lock, then says nothing more
        assert other.import_records("t", [(1, 2, b"D0:5-5")]) == 1  # waits for the server to end the silent one
        with pytest.raises(CommandError, match="^lost the database server of "):
            silent.session_count()
    finally:
        silent.conn.close()
        other.close()


def test_a_session_time_no_calendar_holds_is_time_unknown_on_both_engines(db_target):
    """A table with a wrong clock: PostgreSQL would refuse to write the date and with it the
    whole listing; both engines say "time unknown" for it instead."""
    from tiletable.record import REC_HEADER

    db = Database.open(db_target)
    try:
        for seq, when in enumerate((2**40, -1, None, 2**62, 253402300799), 1):
            header = ('{"players": ["ann"], "ruleset": "muggins", "time": %s}' % json.dumps(when)).encode()
            db.import_records("t", [(seq, REC_HEADER, header)])
        assert [s["started"] for s in db.sessions()] == [
            "time unknown", "1969-12-31 23:59 UTC", "time unknown", "time unknown", "9999-12-31 23:59 UTC"
        ]
        assert len(db.listing(ROW)) == 5
    finally:
        db.close()


def test_a_header_no_column_holds_is_stored_all_the_same_on_both_engines(db_target):
    """Numbers past 64 bits and a NUL in a name (PostgreSQL's text holds none) would refuse the
    session, and every pull of that table after it, on one engine or both."""
    from tiletable.record import REC_END, REC_HEADER

    header = b'{"players": ["a\\u0000b", "cy"], "ruleset": "mug\\u0000gins", "time": 1180591620717411303424, "boot": -9223372036854775809}'
    db = Database.open(db_target)
    try:
        assert db.import_records("t", [(1, REC_HEADER, header), (2, REC_END, b'{"reason": "target", "scores": [61, 3]}')]) == 2
        (session,) = db.sessions()
        assert (session["who"], session["ruleset"], session["time"], session["boot"]) == ("a\ufffdb, cy", "mug\ufffdgins", None, None)
        assert session["players"] == ["a\x00b", "cy"] and session["outcome"] == "target: a\ufffdb 61, cy 3"
    finally:
        db.close()
