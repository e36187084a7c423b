"""The register of players on both engines: every name played under is in it after a pull,
the secretary adds, renames and merges (`tiletable players`) without a session record
changing, an older database gets its register from its sessions, and `db copy`/`db check`
carry and check it."""
import json

import pytest

from cli import tiletable
from journal_games import play_into_journal
from tiletable.record import REC_HEADER
from tiletable_host import db as dbmod
from tiletable_host.db import Database
from tiletable_host.register import check_players, player_counts, registered
from tiletable_host.transport_local import LocalTransport


def _header(players):
    return json.dumps({"players": players, "ruleset": "muggins", "time": 1700000000}).encode()


def _stored(db_target, *sessions):
    """A database holding a session header for each list of names in ``sessions``."""
    db = Database.open(db_target)
    try:
        db.import_records("tiletable-x", [(n + 1, REC_HEADER, _header(players)) for n, players in enumerate(sessions)])
    finally:
        db.close()
    return db_target


def _register(db_target):
    db = Database.open(db_target, create=False)
    try:
        return [(p["name"], p["names"]) for p in db.players()]
    finally:
        db.close()


def _records(db_target):
    db = Database.open(db_target, create=False)
    try:
        return db.execute("SELECT journal, seq, type, payload, session FROM records ORDER BY journal, seq").fetchall(), db.sessions()
    finally:
        db.close()


def test_a_pull_puts_each_name_played_under_in_the_register_once(capsys, tmp_path, db_target):
    device = LocalTransport(str(tmp_path / "device"))
    play_into_journal(device.journal, seed=1)
    play_into_journal(device.journal, players=("bob", "cy"), seed=2)
    assert tiletable(capsys, ["pull", "--db", db_target], device)[0] == 0
    assert _register(db_target) == [("ann", []), ("bob", []), ("cy", [])]
    status, out, err = tiletable(capsys, ["players", "--db", db_target])
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == ["player", "sessions", "wins", "also", "known", "as"]
    assert [line.split()[:2] for line in lines[1:]] == [["ann", "1"], ["bob", "2"], ["cy", "1"]]


def test_a_seat_named_by_its_number_is_nobody(db_target):
    _stored(db_target, ["P1", "bob"], ["ann", "P2", "P1"])  # a game started at the table names its seats so
    assert _register(db_target) == [("ann", []), ("bob", [])]


def test_add_rename_and_merge_change_the_register_and_never_a_session(capsys, db_target):
    _stored(db_target, ["ann", "bob"], ["annie", "bob"], ["annie", "cy"])
    before = _records(db_target)

    def players(*argv):
        status, out, err = tiletable(capsys, ["players"] + list(argv) + ["--db", db_target])
        return status, (out + err).strip()

    assert players("add", "  Dee Smith ") == (0, "Dee Smith is in the register")
    assert players("rename", "bob", "Bob Jones") == (0, "bob is Bob Jones now (sessions played as bob stay theirs)")
    assert players("merge", "annie", "ann") == (0, "annie is ann now: 2 sessions more for ann")
    assert _register(db_target) == [("ann", ["annie"]), ("Bob Jones", ["bob"]), ("cy", []), ("Dee Smith", [])]  # capitals or not
    assert _records(db_target) == before  # the trusted history is as the tables wrote it
    db = Database.open(db_target)
    try:
        names = db.register_names()
        assert names == {"ann": "ann", "annie": "ann", "bob": "Bob Jones", "Bob Jones": "Bob Jones", "cy": "cy", "Dee Smith": "Dee Smith"}
        counts = player_counts(db.sessions(), names)
        assert {name: row["played"] for name, row in counts.items()} == {"ann": 3, "Bob Jones": 2, "cy": 1}
        assert [s["players"] for s in registered(db.sessions(), names)] == [["ann", "Bob Jones"], ["ann", "Bob Jones"], ["ann", "cy"]]
    finally:
        db.close()
    assert players("rename", "Bob Jones", "bob") == (0, "Bob Jones is bob now (sessions played as Bob Jones stay theirs)")
    assert players("rename", "bob", "Bob") == (0, "bob is Bob now (sessions played as bob stay theirs)")  # their own name in capitals
    assert _register(db_target)[1] == ("Bob", ["bob", "Bob Jones"])


def test_db_may_come_before_or_after_the_players_command(capsys, tmp_path):
    first, second = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    assert tiletable(capsys, ["players", "--db", first, "add", "ann"])[0] == 0
    assert tiletable(capsys, ["players", "add", "bob", "--db", second])[0] == 0
    assert _register(first) == [("ann", [])] and _register(second) == [("bob", [])]


def test_each_mistake_is_one_line(capsys, db_target):
    _stored(db_target, ["ann", "bob"], ["annie", "cy"], ["ann", "annie"])

    def error(*argv):
        status, out, err = tiletable(capsys, ["players"] + list(argv) + ["--db", db_target])
        assert status == 1 and out == "" and err.count("\n") == 1, (out, err)
        return err.strip()

    assert error("add", "bob") == "tiletable: players: 'bob' is taken: a player of that name is in the register"
    assert error("add", "") == "tiletable: players: a player's name cannot be empty"
    assert error("add", "ann,bob") == "tiletable: players: a player's name is one line of text without commas: 'ann,bob'"
    assert error("add", "P3").startswith("tiletable: players: 'P3' is how a table names a seat without a player")
    assert error("add", "Bob") == "tiletable: players: 'Bob' is bob in other capitals; to call them Bob: tiletable players rename bob Bob"
    assert error("rename", "cy", "BOB") == "tiletable: players: 'BOB' is bob in other capitals; to call them BOB: tiletable players rename bob BOB"
    assert error("rename", "bbo", "x") == "tiletable: players: nobody is named 'bbo' in the register (did you mean 'bob'?)"
    assert error("rename", "zed", "x") == "tiletable: players: nobody is named 'zed' in the register (see `tiletable players`)"
    assert error("rename", "bob", "ann") == "tiletable: players: 'ann' is taken by ann; to make them one player: tiletable players merge bob ann"
    assert error("rename", "bob", "bob") == "tiletable: players: bob is named 'bob' already"
    assert error("merge", "cy", "cy") == "tiletable: players: cannot merge cy into itself"
    assert error("merge", "annie", "ann") == "tiletable: players: annie and ann played at one table (session 3): they are two people, not one"
    assert _register(db_target) == [("ann", []), ("annie", []), ("bob", []), ("cy", [])]  # nothing changed


def test_a_database_of_schema_4_gets_its_register_from_its_sessions(db_target):
    _stored(db_target, ["cy", "bob"], ["ann", "bob"])
    db = Database.open(db_target)
    try:
        with db.transaction():
            for table in reversed(dbmod.TABLES[dbmod.TABLES.index("players"):]):  # the register and what came after it
                db.execute("DROP TABLE %s" % table)
            if db_target.startswith("postgresql"):
                db.execute("UPDATE tiletable_schema SET version = 4")
            else:
                db.conn.execute("PRAGMA user_version = 4")
    finally:
        db.close()
    assert _register(db_target) == [("ann", []), ("bob", []), ("cy", [])]
    db = Database.open(db_target)
    try:
        assert db.execute("SELECT id, name FROM players ORDER BY id").fetchall() == [(1, "cy"), (2, "bob"), (3, "ann")]  # as they first played
    finally:
        db.close()


def test_db_copy_carries_the_register_and_check_finds_it_broken(capsys, tmp_path, new_db):
    src = _stored(new_db("src"), ["ann", "bob"], ["annie", "cy"])
    assert tiletable(capsys, ["players", "merge", "annie", "ann", "--db", src])[0] == 0
    assert tiletable(capsys, ["players", "rename", "cy", "Cy Young", "--db", src])[0] == 0
    assert tiletable(capsys, ["players", "add", "dee", "--db", src])[0] == 0
    dst = new_db("dst")
    status, out, err = tiletable(capsys, ["db", "copy", src, dst])
    assert (status, err) == (0, "") and out.rstrip().endswith("4 players (6 new names), 0 events, 0 league seasons")
    assert _register(dst) == _register(src) == [("ann", ["annie"]), ("bob", []), ("Cy Young", ["cy"]), ("dee", [])]
    status, out, _ = tiletable(capsys, ["db", "copy", src, dst])
    assert status == 0 and out.rstrip().endswith("4 players (0 new names), 0 events, 0 league seasons")
    assert tiletable(capsys, ["db", "check", "--db", dst])[0] == 0
    db = Database.open(dst)
    try:
        with db.transaction():
            db.execute("DELETE FROM player_names WHERE name IN ('bob', 'annie')")
            db.execute("UPDATE players SET name = 'Cy' WHERE name = 'Cy Young'")
    finally:
        db.close()
    status, out, err = tiletable(capsys, ["db", "check", "--db", dst])
    assert status == 1 and err.endswith(": 4 problems found\n")
    assert out.splitlines() == [
        "player 2 of the register is not known by their own name bob",
        "player 3 of the register is not known by their own name Cy",
        "session 1 was played by bob, whom the register does not know",
        "session 2 was played by annie, whom the register does not know",
    ]


def test_a_game_started_from_the_pc_takes_names_from_the_register(db_target):
    _stored(db_target, ["ann", "bob"], ["annie", "cy"])
    db = Database.open(db_target)
    try:
        db.merge_players("annie", "ann")
        assert check_players(db, ["annie", "cy"]) == ["ann", "cy"]  # another name of ann's: the register's name
        with pytest.raises(dbmod.CommandError, match=r"^nobody is named 'bbo' in the register \(did you mean 'bob'\?\); add a new player with --new-player$"):
            check_players(db, ["ann", "bbo"])
        with pytest.raises(dbmod.CommandError, match=r"^ann is in --players twice \(as ann and annie\)$"):
            check_players(db, ["ann", "annie"])
        assert check_players(db, ["ann", "dee"], add_new=True) == ["ann", "dee"]
        assert [p["name"] for p in db.players()] == ["ann", "bob", "cy", "dee"]
    finally:
        db.close()


def test_a_new_database_takes_any_names_and_keeps_them(new_db):
    db = Database.open(new_db())
    try:
        assert check_players(db, ["ann", "bob"]) == ["ann", "bob"]  # nobody to mistake them for
        with pytest.raises(dbmod.CommandError, match="is how a table names a seat"):
            check_players(db, ["P1", "bob"])
        assert db.players() == []  # they join the register when their game is pulled
    finally:
        db.close()
