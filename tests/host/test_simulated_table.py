"""Every device command against the simulated table (the firmware in a child process) through
real pyserial on a pty: sync, pull, watch and run, and device resets in the middle of a sync
and of a pull, which must lose and duplicate nothing."""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import pytest

from cli import tiletable
from tiletable.engine.rulesets import find_ruleset, preset_names
from tiletable.proto.messages import JOURNAL_STREAM, RULESET_PUT_CHUNK, RULESET_PUT_DEFLATED
from tiletable.record import REC_END, REC_HEADER
from tiletable_host.db import Database
from tiletable_host.run import ScriptedGame
from tiletable_host.simtable import SimulatedTable
from tiletable_host.transport_serial import SerialTransport

TIMEOUT = 1.0  # the simulated device answers in milliseconds and restarts in under a second


class ResettingLink(SerialTransport):
    """A serial link that power-cuts the device just before its ``at``-th request of ``msg_type``;
    with ``plain``, a host from before RULESET_PUT_DEFLATED (it sends plain chunks)."""

    def __init__(self, table, msg_type, at, plain=False):
        super().__init__(table.port, timeout=TIMEOUT)
        self.table = table
        self.msg_type = msg_type
        self.at = at
        self.seen = 0
        self.plain = plain

    def hello(self, host="tiletable-host"):
        info = super().hello(host)
        if self.plain:
            info["capabilities"].remove("ruleset-deflate")
        return info

    def request(self, msg_type, fields=None, timeout=None, retries=None):
        if msg_type == self.msg_type:
            self.seen += 1
            if self.seen == self.at:
                _power_cut(self.table)
        return super().request(msg_type, fields, timeout, retries)


@pytest.fixture(scope="module")
def table():
    simulated = SimulatedTable.start()
    yield simulated
    simulated.stop()


@pytest.fixture
def link(table):
    transport = SerialTransport(table.port, timeout=TIMEOUT)
    yield transport
    transport.close()


def _power_cut(table):
    """Kill the device process and start it again; return once it runs (a control command is
    answered in its loop), so the link's next request is answered in the usual time: however
    long the boot takes on a loaded machine, it is not a reply's wait."""
    table.restart()
    table.control.state()


def _play(table, link, seed, hands):
    link.hello()
    link.game_start("muggins", ["ann", "bob"])
    game = ScriptedGame(table.control, link, find_ruleset("muggins"), 2, seed, lambda hand_over: None)
    game.play(hands)
    link.game_stop()
    return game.state


@pytest.fixture(scope="module")
def played(table):
    """Three hands in the journal: several pull replies' worth of records."""
    link = SerialTransport(table.port, timeout=TIMEOUT)
    state = _play(table, link, 3, 3)
    link.close()
    return state


def _records(db_path):
    db = Database.open(db_path)
    rows = db.conn.execute("SELECT seq, type, payload FROM records ORDER BY seq").fetchall()
    db.close()
    return [(seq, rtype, bytes(payload)) for seq, rtype, payload in rows]


def test_sync_over_the_pty_then_nothing_left_to_push(capsys, tmp_path, table, link):
    db = str(tmp_path / "t.db")
    link.close()  # the port is opened exclusively: one program at a time
    status, out, _ = tiletable(capsys, ["sync", "--force", "--db", db, "--port", table.port], None)
    assert status == 0 and "sync: %d pushed" % len(preset_names()) in out and "(verified by hash)" in out
    link.reconnect()
    status, out, _ = tiletable(capsys, ["sync", "--db", db], link)
    assert status == 0 and "sync: 0 pushed, %d unchanged" % len(preset_names()) in out


@pytest.mark.parametrize("upload, plain", [(RULESET_PUT_DEFLATED, False), (RULESET_PUT_CHUNK, True)])
def test_a_device_reset_in_the_middle_of_a_sync_loses_nothing(capsys, tmp_path, table, link, upload, plain):
    link.hello()
    for name in link.ruleset_list():
        link.ruleset_remove(name)
    link.close()
    resetting = ResettingLink(table, upload, 3, plain)
    try:
        status, out, err = tiletable(capsys, ["sync", "--force", "--db", str(tmp_path / "t.db")], resetting)
    finally:
        resetting.close()
    assert status == 0, err
    assert resetting.seen > 3  # the device was reset, and the upload went on
    link.reconnect()
    link.hello()
    assert link.ruleset_list() == {n: (1, find_ruleset(n).hash) for n in preset_names()}


class ResettingMidStream(SerialTransport):
    """A serial link that power-cuts the device once the ``at``-th frame of a journal stream
    arrived; it asks for frames of 1 KB, so a few games' journal takes several."""

    def __init__(self, table, at):
        super().__init__(table.port, timeout=TIMEOUT)
        self.stream_max = 1008
        self.table = table
        self.at = at
        self.seen = 0

    def _await_reply(self, msg_type, seq, timeout):
        reply = super()._await_reply(msg_type, seq, timeout)
        if msg_type == JOURNAL_STREAM:
            self.seen += 1
            if self.seen == self.at:
                _power_cut(self.table)
        return reply


@pytest.mark.parametrize("at", [1, 2])
def test_a_device_reset_in_the_middle_of_a_pull_loses_and_duplicates_nothing(capsys, tmp_path, table, played, at):
    interrupted = str(tmp_path / "interrupted.db")
    resetting = ResettingMidStream(table, at)
    try:
        status, out, err = tiletable(capsys, ["pull", "--no-ack", "--db", interrupted], resetting)
    finally:
        resetting.close()
    assert status == 0, err
    assert resetting.seen > at  # the reset did fall in the middle of the pull
    clean = str(tmp_path / "clean.db")
    assert tiletable(capsys, ["pull", "--no-ack", "--db", clean, "--port", table.port])[0] == 0
    stored = _records(interrupted)
    assert stored == _records(clean)
    assert [r[0] for r in stored] == list(range(1, len(stored) + 1))


def test_watch_once_shows_the_game_in_progress(capsys, table, link):
    state = _play(table, link, 11, 1)
    link.game_start("muggins", ["cy", "di"])
    game = ScriptedGame(table.control, link, find_ruleset("muggins"), 2, 4, lambda hand_over: None)
    game._deal()
    game._turn(game.state.current_player())
    status, out, _ = tiletable(capsys, ["watch", "--once"], link)
    link.game_stop()
    lines = out.splitlines()
    assert status == 0 and state.hand_number >= 1
    assert lines[0] == "muggins, hand 1, %s to act" % ("cy", "di")[game.state.current_player()]
    assert lines[1].startswith("  P1 cy") and lines[2].startswith("  P2 di")
    assert lines[3].startswith("line: ") and "boneyard 14" in lines[3]
    assert lines[4].startswith("last play: #") and " sets " in lines[4]


def test_watch_once_in_the_menu(capsys, table, link):
    status, out, _ = tiletable(capsys, ["watch", "--once"], link)
    assert status == 0 and out.startswith("table in menu mode: ")


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_run_plays_pulls_and_prints_a_session(capsys, tmp_path, runtime, monkeypatch):
    db = str(tmp_path / "run.db")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    status, out, err = tiletable(capsys, ["run", "--runtime", runtime, "--hands", "1", "--db", db])
    assert status == 0, err
    assert os.listdir(scratch) == []  # the simulated table's storage went with it
    assert out.count("to act") <= 1 and "\nhand 1 over: ann " in out  # the story, and the view once
    assert "== pull" in out and "\nhand 1\n" in out and "violations found at the reveal: none" in out
    assert "disagree" not in out
    status, out, _ = tiletable(capsys, ["replay", "1", "--db", db])
    assert status == 0 and out.splitlines()[-1].startswith("no divergence: final scores ")


def test_two_runs_into_one_database_are_two_tables_each_session_whole(capsys, tmp_path):
    """`run --db X` twice (its --help's example): each run is a new simulated table, so the
    second session is not appended to the first (one merged session with cy and dee's
    scores, and plays `show` called illegal). cy and dee are new to the register the first run
    started: --new-player adds them."""
    db = str(tmp_path / "run.db")
    for players, name in (("ann,bob", []), ("cy,dee", ["--name", "Table 2", "--new-player"])):
        status, out, err = tiletable(capsys, ["run", "--players", players, "--hands", "1", "--db", db, "--http-port", "-1"] + name)
        assert status == 0, err
        assert "violations found at the reveal: none" in out and "disagree" not in out and "illegal" not in out
        assert "stored apart" not in out  # another table, not another journal of the same one
    database = Database.open(db)
    try:
        sessions = database.sessions()
        assert [s["players"] for s in sessions] == [["ann", "bob"], ["cy", "dee"]]
        assert sessions[0]["device"] != sessions[1]["device"]
        assert [s["table"] for s in sessions] == [sessions[0]["device"], "Table 2"]
        for session in sessions:
            types = [rtype for _, rtype, _ in database.session_records(session["id"])]
            assert types.count(REC_HEADER) == 1 and types.count(REC_END) <= 1
    finally:
        database.close()


def test_each_simulated_table_has_its_own_id_and_journal_kept_across_its_restarts(tmp_path):
    first = SimulatedTable.start(root=str(tmp_path / "a"))
    other = SimulatedTable.start(root=str(tmp_path / "b"))
    try:
        link = SerialTransport(first.port, timeout=TIMEOUT)
        before = link.hello()
        link.close()
        assert re.fullmatch(r"tiletable-[0-9a-f]{16}", before["device"]) and re.fullmatch(r"[0-9a-f]{16}", before["journal"])
        first.restart()  # the same storage: the same chip, the same journal
        link = SerialTransport(first.port, timeout=TIMEOUT)
        after = link.hello()
        link.close()
        assert (after["device"], after["journal"]) == (before["device"], before["journal"])
        link = SerialTransport(other.port, timeout=TIMEOUT)
        another = link.hello()
        link.close()
        assert another["device"] != before["device"] and another["journal"] != before["journal"]
    finally:
        first.stop()
        other.stop()


def test_a_second_program_on_the_port_is_told_it_is_in_use(capsys, table, link):
    status, _, err = tiletable(capsys, ["sync", "--dry-run", "--port", table.port])
    assert status == 1
    assert err == "tiletable: sync: %s is in use by another program (another tiletable, mpremote or a terminal?)\n" % table.port


def test_sim_prints_its_port_and_serves_until_interrupted(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "tiletable_host.main", "sim", "--root", str(tmp_path / "table"), "--name", "Table 3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        found = re.match(r"simulated table on (\S+) \(control: 127\.0\.0\.1:(\d+), storage: (.+)\)$", proc.stdout.readline())
        assert found and found.group(3) == str(tmp_path / "table")
        link = SerialTransport(found.group(1), timeout=TIMEOUT)
        info = link.hello()
        assert {"game", "journal", "rulesets"} <= set(info["capabilities"]) and info["name"] == "Table 3"
        link.close()
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130 and err == "tiletable: sim: interrupted\n"
    assert os.path.isdir(str(tmp_path / "table" / "journal"))


def test_any_command_that_talks_to_the_table_gives_its_sessions_a_start_time(capsys, tmp_path):
    fresh = SimulatedTable.start()  # a table whose clock nobody has set yet
    try:
        started = time.time()
        assert tiletable(capsys, ["sync", "--dry-run", "--port", fresh.port])[0] == 0
        link = SerialTransport(fresh.port, timeout=TIMEOUT)
        link.hello()
        link.game_start("muggins", ["ann", "bob"])
        link.game_stop()
        link.close()
        db = str(tmp_path / "t.db")
        assert tiletable(capsys, ["pull", "--db", db, "--port", fresh.port])[0] == 0
    finally:
        fresh.stop()
    database = Database.open(db)
    (session,) = database.sessions()
    database.close()
    assert started - 2 <= session["time"] <= time.time() + 2


def test_show_and_export_give_each_action_its_time_by_the_tables_clock(capsys, tmp_path, table, link):
    """Two actions played 4 s and 95 s into a session (table time, fast-forwarded) come back
    with those times from `show`, `export` and the record format, and through `import` again."""
    link.hello()
    link.game_start("muggins", ["ann", "bob"])
    game = ScriptedGame(table.control, link, find_ruleset("muggins"), 2, 7, lambda hand_over: None)
    game._deal()
    table.control.wait(4000)
    game._turn(game.state.current_player())
    table.control.wait(91000)
    game._turn(game.state.current_player())
    link.game_stop()
    link.close()
    db = str(tmp_path / "t.db")
    assert tiletable(capsys, ["pull", "--no-ack", "--db", db, "--port", table.port])[0] == 0
    link.reconnect()
    session = str(Database.open(db).session_count())
    status, out, _ = tiletable(capsys, ["show", session, "--db", db])
    told = [line.split()[:3] for line in out.splitlines() if re.match(r"  #\d+ +\d+:\d\d\.\d +(ann|bob) ", line)]
    assert status == 0 and len(told) == 2, out
    (first_seq, first_at, _), (second_seq, second_at, _) = told
    assert 4.0 <= _seconds(first_at) < 6.0 and 91.0 <= _seconds(second_at) - _seconds(first_at) < 95.0
    status, out, _ = tiletable(capsys, ["export", session, "--db", db])
    rows = [json.loads(line) for line in out.splitlines()]
    elapsed = {"#%d" % row["seq"]: row["elapsed"] for row in rows if row["type"] == "action"}
    assert status == 0 and elapsed[first_seq] == _seconds(first_at) and elapsed[second_seq] == _seconds(second_at)
    assert all(isinstance(value, float) for value in elapsed.values())
    path = str(tmp_path / "timed.tgr")
    assert tiletable(capsys, ["export", session, "--format", "record", "-o", path, "--db", db])[0] == 0
    with open(path) as handle:
        text = handle.read()
    assert "\n+%s %s" % (first_at, game.state.action_str(game.state.history[14])) in text
    again = str(tmp_path / "again.db")
    assert tiletable(capsys, ["import", path, "--db", again])[0] == 0
    status, out, _ = tiletable(capsys, ["show", "1", "--db", again])
    assert status == 0
    assert [line.split()[1] for line in out.splitlines() if re.match(r"  #\d+ +\d+:\d\d\.\d +(ann|bob) ", line)] == [first_at, second_at]


def _seconds(elapsed):
    """``1:39.5`` as seconds."""
    minutes, seconds = elapsed.split(":")
    return int(minutes) * 60 + float(seconds)
