"""``tiletable enrol`` and ``tiletable inventory`` against the simulated table through real
pyserial on a pty. Enrolment runs as a separate process, as a person would start it; the
test plays the person at the table, laying and lifting stickers when the command says so."""
import os
import subprocess
import sys

import pytest

from cli import tiletable
from tiletable import tagrecord
from tiletable.engine.tiles import parse_tile
from tiletable_host.simtable import SimulatedTable

TILE = tagrecord.KIND_TILE


@pytest.fixture
def table():
    simulated = SimulatedTable.start()
    yield simulated
    simulated.stop()


class EnrolRun:
    """``tiletable enrol`` as a child process; ``expect`` reads its output up to a line."""

    def __init__(self, table, *options):
        argv = [sys.executable, "-m", "tiletable_host.main", "enrol", "--port", table.port, "--wait", "20"] + list(options)
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        self.lines = []

    def expect(self, fragment):
        """Read lines until one contains ``fragment``; returns it (fails at the end of output)."""
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError("enrol ended before %r; it printed %r; stderr %r" % (fragment, self.lines, self.process.stderr.read()))
            self.lines.append(line.rstrip("\n"))
            if fragment in line:
                return line

    def finish(self):
        """Read the rest of the output (through the same text stream ``expect`` reads, which
        may hold buffered lines already), wait for the end; returns (status, stderr)."""
        self.lines += self.process.stdout.read().splitlines()
        err = self.process.stderr.read()
        return self.process.wait(timeout=30), err


def record_of(table, sticker):
    uid, record = table.control.tag(sticker)
    return uid, tagrecord.decode(bytes.fromhex(record))


def test_enrol_writes_blank_tags_refuses_a_reused_one_and_enrols_a_locked_one_by_uid(table):
    control = table.control
    run = EnrolRun(table, "--set", "5", "--only", "0-0,0-1,1-1")
    run.expect("[1/3] lay 0-0 on zone 0")
    control.place(0, "blank:1")
    run.expect("0-0 of set 5 written to tag")
    control.remove(0)

    run.expect("[2/3] lay 0-1 on zone 0")
    control.place(0, "blank:1")  # the sticker just enrolled as 0-0, laid again at once by mistake
    assert "is 0-0 of set 5: lift it" in run.expect("lift it")
    run.expect("lift the last piece off zone 0")
    control.remove(0)
    control.place(0, "blank:2")
    run.expect("0-1 of set 5 written to tag")
    control.remove(0)

    run.expect("[3/3] lay 1-1 on zone 0")
    control.place(0, "locked:1")
    line = run.expect("by its UID")
    assert "refused page 4" in line and "as 1-1 of set 5" in line
    control.remove(0)
    status, err = run.finish()
    assert status == 0, err
    assert run.lines[-1] == "set 5: 3 pieces enrolled (2 written, 0 already enrolled, 1 by UID)"

    assert record_of(table, "blank:1")[1] == (TILE, 5, parse_tile("0-0"))
    assert record_of(table, "blank:2")[1] == (TILE, 5, parse_tile("0-1"))
    # the UID table survives a power cut: the locked sticker still reads as 1-1 afterwards
    control.reset()
    control.place(3, "locked:1")
    status, out, err = tiletable_inventory(table, "--set", "5", "--zones", "3", "--wait", "1")
    assert "zone 3: 1-1 of set 5, tag %s" % control.tag("locked:1")[0] in out


def tiletable_inventory(table, *options):
    argv = [sys.executable, "-m", "tiletable_host.main", "inventory", "--port", table.port] + list(options)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout, done.stderr


def test_enrol_keeps_a_tag_that_is_already_the_piece_and_needs_rewrite_for_another(table):
    control = table.control
    control.place(0, "3-5")  # the simulated set 1 is enrolled already
    run = EnrolRun(table, "--set", "1", "--only", "3-5,6-6")
    run.expect("[1/2] lay 3-5")
    run.expect("is 3-5 of set 1 already: kept")
    run.expect("[2/2] lay 6-6")
    run.expect("lift the last piece")
    control.remove(0)
    control.place(0, "4-4")
    assert "tag" in run.expect("run with --rewrite to enrol it again")
    run.process.kill()
    run.finish()
    assert record_of(table, "4-4")[1] == (TILE, 1, parse_tile("4-4"))  # untouched


def test_enrol_refuses_while_a_game_is_in_progress(capsys, table):
    assert tiletable(capsys, ["sync", "--port", table.port])[0] == 0
    from tiletable_host.transport_serial import SerialTransport

    link = SerialTransport(table.port)
    link.hello()
    link.game_start("muggins", ["ann", "bob"])
    link.close()
    status, out, err = tiletable(capsys, ["enrol", "--port", table.port, "--set", "2"])
    assert status == 1
    assert err == "tiletable: enrol: a game is in progress on the table: stop it before enrolling tags\n"


def test_inventory_of_a_complete_set_is_healthy(capsys, table):
    control = table.control
    tiles = ["%d-%d" % (a, b) for a in range(7) for b in range(a, 7)]
    for zone in range(4):
        control.place(zone, *tiles[zone * 7 : zone * 7 + 7])
    status, out, err = tiletable(capsys, ["inventory", "--port", table.port, "--set", "1", "--wait", "2"])
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("inventory of set 1 (double-six dominoes, 28 pieces): lay the pieces on zones 0,1,2,3,4,5,6,7,8")
    assert sum(1 for line in lines if " of set 1, tag " in line) == 28
    assert lines[-2:] == ["set 1: 28 of 28 pieces found, 0 missing", "set 1 is complete and every tag reads well"]


def test_inventory_reports_missing_duplicate_foreign_set_and_blank_tags(capsys, table):
    control = table.control
    run = EnrolRun(table, "--set", "1", "--only", "3-5", "--rewrite", "--zone", "8")
    run.expect("[1/1] lay 3-5")
    control.place(8, "blank:7")  # a second tag for 3-5: a duplicate of the set's own
    run.expect("written to tag")
    assert run.finish()[0] == 0
    tiles = ["%d-%d" % (a, b) for a in range(7) for b in range(a, 7) if (a, b) != (6, 6)]
    for zone in range(4):
        control.place(zone, *tiles[zone * 7 : zone * 7 + 7])
    control.place(4, "blank:8")
    status, out, err = tiletable(capsys, ["inventory", "--port", table.port, "--set", "1", "--wait", "1.5"])
    assert status == 1
    lines = out.splitlines()
    uid7 = control.tag("blank:7")[0]
    uid8 = control.tag("blank:8")[0]
    uid35 = control.tag("3-5")[0]
    assert "set 1: 27 of 28 pieces found, 1 missing" in lines
    assert "  missing: 6-6" in lines
    assert "  duplicate: 3-5 on tags %s" % ", ".join(sorted([uid7, uid35])) in lines
    assert "  unusable: tag %s on zone 4: blank" % uid8 in lines
    assert lines[-1] == "set 1 needs attention"


def test_inventory_and_enrol_name_bad_arguments(capsys, table):
    status, out, err = tiletable(capsys, ["enrol", "--port", table.port, "--set", "1", "--only", "3-9"])
    assert (status, err) == (1, "tiletable: enrol: --only: 3-9 is not one of the double-six dominoes\n")
    status, out, err = tiletable(capsys, ["enrol", "--port", table.port, "--set", "0"])
    assert (status, err) == (1, "tiletable: enrol: set 0 is out of range 1..65535\n")
    status, out, err = tiletable(capsys, ["enrol", "--port", table.port, "--set", "1", "--zone", "12", "--wait", "1"])
    assert status == 1 and "no zone 12 on this table (0..8)" in err


def test_inventory_counts_the_91_tiles_of_a_double_twelve_set(capsys, table):
    control = table.control
    tiles = ["%d-%d" % (a, b) for a in range(13) for b in range(a, 13)]
    for zone in range(9):  # 10 or 11 tiles on each zone
        control.place(zone, *tiles[zone::9])
    status, out, err = tiletable(capsys, ["inventory", "--port", table.port, "--set", "1", "--pieces", "d12", "--wait", "2"])
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("inventory of set 1 (double-twelve dominoes (Mexican Train), 91 pieces)")
    assert sum(1 for line in lines if " of set 1, tag " in line) == 91
    assert lines[-2:] == ["set 1: 91 of 91 pieces found, 0 missing", "set 1 is complete and every tag reads well"]
