"""``tiletable db copy`` between SQLite and PostgreSQL both ways, and ``tiletable db check``.

A copy holds everything its source does (journals with their boot counters, records, sessions
with their results, rulesets, the tables' names), run twice it stores nothing twice, and killed
at a statement inside a transaction (``os._exit`` in a forked child: nothing closed or rolled
back, as ``kill -9``) it finishes when run again. ``check`` finds each kind of inconsistency, one line
each, on either engine.
"""
import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys

import pytest

import pgcluster
from tiletable_host.db import SCHEMA_VERSION
from cli import tiletable
from journal_games import play_into_journal
from tiletable.record import REC_END
from tiletable_host import dbcommand, dbtarget
from tiletable_host.db import Database
from tiletable_host.transport_local import LocalTransport

FORK = multiprocessing.get_context("fork")
KILLED = 86
ENGINES = ("sqlite", "postgresql")


def _target(request, tmp_path, engine, name):
    """A new, empty database of ``engine``: a SQLite path, or a PostgreSQL URL."""
    if engine == "sqlite":
        return str(tmp_path / ("%s.db" % name))
    return request.getfixturevalue("postgres_cluster").create_database()


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    """The tile game record of docs/RECORD.md, as a file to import."""
    path = tmp_path_factory.mktemp("record") / "game.tgr"
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "RECORD.md"), encoding="utf-8") as handle:
        path.write_text(handle.read().split("```tgr\n")[1].split("```")[0], encoding="utf-8")
    return str(path)


def _fill(capsys, tmp_path, db, record_file, seeds=(1, 2, 3)):
    """Everything a club's database holds: a named table's sessions (the last one in progress),
    the same table's earlier, wiped journal, an imported record, rulesets."""
    wiped = LocalTransport(str(tmp_path / "wiped"))
    play_into_journal(wiped.journal, seed=seeds[0])
    assert tiletable(capsys, ["pull", "--db", db], wiped)[0] == 0
    table = LocalTransport(str(tmp_path / "table"))
    assert tiletable(capsys, ["name", "Table 3"], table)[0] == 0
    for seed in seeds[1:]:
        play_into_journal(table.journal, seed=seed)
    play_into_journal(table.journal, seed=99, max_actions=7)  # in progress
    status, out, err = tiletable(capsys, ["pull", "--db", db], table)
    assert status == 0, err
    assert tiletable(capsys, ["import", record_file, "--db", db])[0] == 0


def _contents(target):
    """Everything ``target`` holds, as a comparable value free of its own row numbers."""
    db = Database.open(target, create=False)
    try:
        journals = {journal: (device, identity) for journal, device, identity, _ in dbcommand.journals(db)}
        sessions = sorted(
            (journals[_journal_of(db, s["id"])], s["first_seq"], s["ruleset"], s["hash"], json.dumps(s["players"]), s["boot"],
             s["firmware"], s["time"], json.dumps(s["result"]), s["records"], s["who"], s["outcome"], s["table"], tuple(db.session_records(s["id"])))
            for s in db.sessions()
        )
        records = sorted((journals[journal],) + record for journal in journals for record in dbcommand.journal_records(db, journal, 0))
        return {
            "journals": sorted((device, identity, boot) for _, device, identity, boot in dbcommand.journals(db)),
            "tables": sorted(tuple(row) for row in dbcommand.tables(db)),
            "rulesets": sorted(tuple(row) for row in dbcommand.rulesets(db)),
            "sessions": sessions,
            "records": records,
        }
    finally:
        db.close()


def _unnamed(held):
    """The sessions of ``_contents`` without the table's name (a club's database keeps its own)."""
    return {s[:12] + s[13:] for s in held["sessions"]}


def _journal_of(db, session_id):
    return dbcommand._rows(db, "SELECT journal FROM sessions WHERE id = %d" % session_id)[0][0]


@pytest.fixture
def source(capsys, tmp_path, record_file):
    """The laptop's filled SQLite file (a test's PostgreSQL source is copied from it: ``_source_of``)."""
    path = str(tmp_path / "laptop.db")
    _fill(capsys, tmp_path, path, record_file)
    return path


def _source_of(request, capsys, tmp_path, engine, laptop):
    """The filled database of ``engine``: the laptop's file, or a server copy of it."""
    if engine == "sqlite":
        return laptop
    server = _target(request, tmp_path, engine, "server")
    assert tiletable(capsys, ["db", "copy", laptop, server])[0] == 0
    return server


def test_the_example_holds_every_kind_of_thing(source):
    held = _contents(source)
    assert len(held["journals"]) == 3 and len(held["rulesets"]) >= 1 and held["tables"][0][1] == "Table 3"
    assert len(held["sessions"]) == 5 and sum(s[8] == "null" for s in held["sessions"]) == 2  # the record's, and one at the table
    assert len({identity for _, identity, _ in held["journals"]}) == 3
    assert sorted(boot for device, _, boot in held["journals"] if device == "tiletable-local")[0] > 0  # boots to copy


@pytest.mark.parametrize("pair", [("sqlite", "sqlite"), ("sqlite", "postgresql"), ("postgresql", "sqlite"),
                                  ("postgresql", "postgresql")], ids="-to-".join)
def test_a_copy_holds_everything_and_a_second_copy_adds_nothing(request, capsys, tmp_path, source, pair):
    from_, to = pair
    src = _source_of(request, capsys, tmp_path, from_, source)
    dst = _target(request, tmp_path, to, "copy")
    status, out, err = tiletable(capsys, ["db", "copy", src, dst])
    assert (status, err) == (0, "")
    assert out.startswith("copied %s into %s: 5 sessions (5 new), " % (src, dst)) and out.count("\n") == 1
    assert _contents(dst) == _contents(source)
    status, out, err = tiletable(capsys, ["db", "copy", src, dst])
    assert (status, err) == (0, "")
    assert "5 sessions (0 new)" in out and "(0 new) of 3 journals" in out and "rulesets (0 new)" in out
    assert _contents(dst) == _contents(source)
    assert tiletable(capsys, ["db", "check", "--db", dst])[:2] == (0, "%s: no problems found\n" % dst)


def _copy_killed_at(src, dst, statement, nth):
    """``db copy`` in a forked child that dies (no cleanup, nothing rolled back) as its ``nth``
    statement that starts with ``statement`` is sent, on either engine (inside a write
    transaction but for a COMMIT, which is then never sent); returns the child's exit status."""

    def child():
        from dbtrace import trap_statements

        dbcommand.BATCH = 40
        seen = []

        def on_statement(sql):
            if sql.startswith(statement):
                seen.append(sql)
                if len(seen) == nth:
                    os._exit(KILLED)

        trap_statements(on_statement)
        os._exit(tiletable_status(["db", "copy", src, dst]))

    process = FORK.Process(target=child)
    process.start()
    process.join()
    return process.exitcode


def tiletable_status(argv):
    from tiletable_host import main as cli

    return cli.run(cli.build_parser().parse_args(argv))


@pytest.mark.parametrize("pair", [("sqlite", "sqlite"), ("sqlite", "postgresql"), ("postgresql", "sqlite")], ids="-to-".join)
@pytest.mark.parametrize("killed_at", [("INSERT INTO sessions", 2), ("INSERT INTO records", 3), ("UPDATE sessions SET result", 2),
                                       ("UPDATE sessions SET records", 7), ("COMMIT", 9)], ids=lambda at: "%s-%d" % at)
def test_a_copy_killed_halfway_finishes_when_run_again(request, capsys, tmp_path, source, pair, killed_at):
    from_, to = pair
    src = _source_of(request, capsys, tmp_path, from_, source)
    dst = _target(request, tmp_path, to, "copy")
    assert _copy_killed_at(src, dst, *killed_at) == KILLED
    status, out, err = tiletable(capsys, ["db", "copy", src, dst])
    assert (status, err) == (0, "")
    assert _contents(dst) == _contents(source)
    assert tiletable(capsys, ["db", "check", "--db", dst])[0] == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_a_copy_into_a_club_database_keeps_what_it_holds(request, capsys, tmp_path, record_file, engine):
    """A laptop's sessions join a club's: both kept, and the club's name for a table it knows stays."""
    club = _target(request, tmp_path, engine, "club")
    _fill(capsys, tmp_path / "club", club, record_file, seeds=(11, 12, 13))
    laptop = str(tmp_path / "laptop.db")
    _fill(capsys, tmp_path / "laptop", laptop, record_file, seeds=(21, 22, 23))
    db = Database.open(laptop)
    db.remember_pull("tiletable-local", db.table_journal("tiletable-local"), 7, "Kitchen")
    db.close()
    club_before, laptop_held = _contents(club), _contents(laptop)
    status, out, err = tiletable(capsys, ["db", "copy", laptop, club])
    assert (status, err) == (0, "")
    assert "5 sessions (4 new)" in out  # the imported record is the same one
    after = _contents(club)
    assert _unnamed(after) == _unnamed(club_before) | _unnamed(laptop_held)
    assert after["tables"] == club_before["tables"] and after["tables"][0][1] == "Table 3"
    assert tiletable(capsys, ["db", "check", "--db", club])[0] == 0


def test_a_copy_onto_itself_is_refused(capsys, source):
    status, _, err = tiletable(capsys, ["db", "copy", source, os.path.join(os.path.dirname(source), ".", os.path.basename(source))])
    assert status == 1 and err == "tiletable: db: %s and %s/./%s are the same database\n" % (
        source, os.path.dirname(source), os.path.basename(source))


def test_a_missing_source_is_one_line_and_makes_no_destination(capsys, tmp_path):
    status, _, err = tiletable(capsys, ["db", "copy", str(tmp_path / "none.db"), str(tmp_path / "dst.db")])
    assert status == 1 and err.startswith("tiletable: db: no database at %s" % (tmp_path / "none.db")) and err.count("\n") == 1
    assert not (tmp_path / "dst.db").exists()


def test_a_password_in_a_url_is_never_printed(request, capsys, source, postgres_cluster):
    postgres_cluster.create_role("club", "horse-staple")
    url = postgres_cluster.create_database()
    name = pgcluster.database_name(url)
    postgres_cluster.execute('ALTER DATABASE "%s" OWNER TO club' % name)
    with_password = postgres_cluster.url(name, user="club", password="horse-staple")
    status, out, err = tiletable(capsys, ["db", "copy", source, with_password])
    assert status == 0 and "horse" not in out + err and dbtarget.redact(with_password) in out
    status, out, err = tiletable(capsys, ["db", "check", "--db", with_password])
    assert status == 0 and "horse" not in out + err
    wrong = postgres_cluster.url(name, user="club", password="battery")
    status, out, err = tiletable(capsys, ["db", "copy", source, wrong])
    assert status == 1 and "refused the login for club" in err and "battery" not in out + err


# ----- db check


def _execute(target, *statements):
    """Change a database behind tiletable's back (as a bug or a hand-made edit would)."""
    if dbtarget.is_server(target):
        with dbtarget.connect(target) as conn:
            conn.execute("SET session_replication_role = replica")  # the server's own reference checks off, as SQLite's are
            for statement in statements:
                conn.execute(statement)
        return
    conn = sqlite3.connect(target)
    with conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()


def _ids(target):
    db = Database.open(target, create=False)
    try:
        return [s["id"] for s in db.sessions()], {s["id"]: s for s in db.sessions()}
    finally:
        db.close()


@pytest.mark.parametrize("engine", ENGINES)
def test_check_finds_each_inconsistency_on_its_own_line(request, capsys, tmp_path, source, engine):
    target = _source_of(request, capsys, tmp_path, engine, source)
    assert tiletable(capsys, ["db", "check", "--db", target]) == (0, "%s: no problems found\n" % target, "")
    ids, sessions = _ids(target)
    first, second, third = ids[:3]
    end_seq = [seq for seq, rtype, _ in _session_records(target, second) if rtype == REC_END][0]
    _execute(
        target,
        "UPDATE sessions SET records = records + 2 WHERE id = %d" % first,
        "UPDATE records SET session = 9999 WHERE session = %d AND seq = %d" % (third, sessions[third]["first_seq"] + 1),
        "DELETE FROM records WHERE session = %d AND seq = %d" % (second, end_seq),
        "UPDATE sessions SET records = records - 1 WHERE id = %d" % second,
    )
    status, out, err = tiletable(capsys, ["db", "check", "--db", target])
    assert status == 1 and err == "tiletable: db: %s: 4 problems found\n" % target
    journal = _journal_of_session(target, third)
    assert out.splitlines() == [
        "session %d says it holds %d records, but %d are filed under it" % (first, sessions[first]["records"] + 2, sessions[first]["records"]),
        "session %d says it holds %d records, but %d are filed under it" % (third, sessions[third]["records"], sessions[third]["records"] - 1),
        "record %d of journal %d is filed under session 9999, which does not exist" % (sessions[third]["first_seq"] + 1, journal),
        "session %d has a result but no end record" % second,
    ]


def _session_records(target, session_id):
    db = Database.open(target, create=False)
    try:
        return db.session_records(session_id)
    finally:
        db.close()


def _journal_of_session(target, session_id):
    db = Database.open(target, create=False)
    try:
        return _journal_of(db, session_id)
    finally:
        db.close()


@pytest.mark.parametrize("engine", ENGINES)
def test_check_finds_records_filed_under_the_wrong_session_and_journals_missing(request, capsys, tmp_path, source, engine):
    target = _source_of(request, capsys, tmp_path, engine, source)
    ids, sessions = _ids(target)
    by_journal = {}
    for session_id in ids:
        by_journal.setdefault(_journal_of_session(target, session_id), []).append(session_id)
    journal, (earlier, later) = next((j, s[:2]) for j, s in by_journal.items() if len(s) >= 2)
    moved = sessions[later]["first_seq"] + 1
    _execute(
        target,
        "UPDATE records SET session = %d WHERE journal = %d AND seq = %d" % (earlier, journal, moved),
        "UPDATE sessions SET records = records + 1 WHERE id = %d" % earlier,
        "UPDATE sessions SET records = records - 1 WHERE id = %d" % later,
        "UPDATE tables SET journal = 777",
    )
    status, out, _ = tiletable(capsys, ["db", "check", "--db", target])
    assert status == 1
    assert out.splitlines() == [
        "record %d of journal %d is filed under session %d, but session %d starts after it and before that record"
        % (moved, journal, earlier, later),
        "table tiletable-local's last journal 777 does not exist",
    ]


def _scribble(path):
    """Damage a SQLite file's third page (a b-tree page), as a failing disk would."""
    data = bytearray(open(path, "rb").read())
    for i in range(4096 * 2 + 8, min(len(data), 4096 * 3)):
        data[i] = 0x5A
    open(path, "wb").write(bytes(data))


def test_check_reads_every_page_of_a_sqlite_file(capsys, tmp_path, source):
    _scribble(source)
    status, out, err = tiletable(capsys, ["db", "check", "--db", source])
    assert status == 1 and out.startswith("damaged: ") and err.startswith("tiletable: db: %s: " % source)


def test_check_finds_a_table_of_another_schema(capsys, source):
    _execute(source, "ALTER TABLE sessions DROP COLUMN outcome")
    status, out, _ = tiletable(capsys, ["db", "check", "--db", source])
    assert status == 1 and out.startswith("the sessions table is not as schema %d has it (" % SCHEMA_VERSION) and out.count("\n") == 1


def test_check_of_a_missing_database(capsys, tmp_path):
    status, out, err = tiletable(capsys, ["db", "check", "--db", str(tmp_path / "none.db")])
    assert status == 1 and out == "" and err == "tiletable: db: no database at %s (pass another --db)\n" % (tmp_path / "none.db")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_destination_holding_other_bytes_for_a_record_is_refused_in_one_line(request, capsys, tmp_path, source, engine):
    dst = _target(request, tmp_path, engine, "copy")
    assert tiletable(capsys, ["db", "copy", source, dst])[0] == 0
    ids, sessions = _ids(dst)
    changed = sessions[ids[1]]["first_seq"] + 3
    _execute(dst, "UPDATE records SET payload = %s WHERE seq = %d AND session = %d" % (
        "'\\x00'::bytea" if engine == "postgresql" else "x'00'", changed, ids[1]))
    status, out, err = tiletable(capsys, ["db", "copy", source, dst])
    assert status == 1 and out == ""
    assert err == "tiletable: db: record %d of tiletable-local differs from the copy in %s; is this another table with the same name?\n" % (
        changed, dst)


def test_check_of_a_file_whose_name_looks_like_a_uri(capsys, tmp_path, source):
    odd = str(tmp_path / "club night?#1 %20.db")
    assert tiletable(capsys, ["db", "copy", source, odd])[0] == 0
    assert tiletable(capsys, ["db", "check", "--db", odd]) == (0, "%s: no problems found\n" % odd, "")
    _scribble(odd)
    status, out, _ = tiletable(capsys, ["db", "check", "--db", odd])
    assert status == 1 and out.startswith("damaged: ")
    assert "club night" not in os.listdir(tmp_path)  # the file named, not the start of its name as a URI


def test_the_debug_log_of_a_copy_never_shows_a_password(capsys, source, postgres_cluster):
    """``--debug`` logs the server's connections (psycopg's own lines): a password in SRC or DST
    is taken out of them, as from those of a --db."""
    postgres_cluster.create_role("club_debug", "Horse-Staple-9")
    url = postgres_cluster.create_database()
    postgres_cluster.execute('ALTER DATABASE "%s" OWNER TO club_debug' % pgcluster.database_name(url))
    with_password = postgres_cluster.url(pgcluster.database_name(url), user="club_debug", password="Horse-Staple-9")
    for argv in (["db", "copy", source, with_password], ["db", "copy", with_password, source + ".back"],
                 ["db", "check", "--db", with_password]):
        result = subprocess.run([sys.executable, "-m", "tiletable_host.main", "--debug"] + argv, capture_output=True, text=True,
                                timeout=300)
        assert result.returncode == 0, result.stderr
        assert "connection attempt" in result.stderr and "Horse-Staple" not in result.stderr + result.stdout, argv


def test_an_unexpected_error_naming_src_or_dst_never_shows_its_password(capsys, monkeypatch, tmp_path):
    """The last net under every message (main.run): a password of SRC or DST, as of a --db."""
    from tiletable_host import db as dbmod

    def broken(target, create=True):
        raise RuntimeError("something new went wrong with %s" % target)

    monkeypatch.setattr(dbmod.Database, "open", broken)
    url = "postgresql://club:Horse-Staple-9@/club?host=%s" % tmp_path
    for argv in (["db", "copy", url, str(tmp_path / "x.db")], ["db", "copy", str(tmp_path / "x.db"), url]):
        status, _, err = tiletable(capsys, argv)
        assert status == 1 and "unexpected error (RuntimeError: something new went wrong with" in err
        assert "Horse-Staple" not in err
