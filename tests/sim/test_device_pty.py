"""The simulated device behind a pty, spoken to with pyserial exactly like a Pico: requests are
answered, line noise (0x03, REPL text, a half frame) neither crashes it nor changes the table."""
import os
import time

import pytest
import serial

from tiletable.proto.frame import FrameDecoder
from tiletable.proto.messages import EV_ERROR, EV_PLAY, EV_SCORE, EV_ZONE, GAME_START, HELLO, MAINTENANCE, REPLY, REVISION, STATE, decode_payload, encode_message
from player import LinePlayer, table_scores
from tiletable.engine.betting import chips_text
from tiletable_host.simtable import SimulatedTable
from tiletable_host.transport_serial import SerialTransport


@pytest.fixture
def table(tmp_path):
    table = SimulatedTable.start(runtime="cpython", root=str(tmp_path))
    yield table
    table.stop()


def frames(port, want, timeout=60.0):
    """Read frames until one of type ``want`` arrives; return every frame as (type, fields)."""
    decoder = FrameDecoder()
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = port.read(256)
        for version, msg_type, seq, payload in decoder.feed(data):
            seen.append((msg_type, decode_payload(msg_type, payload)))
            if msg_type == want:
                return seen
    raise AssertionError("no frame 0x%02x in %r" % (want, seen))


def sent_before_an_answer(port, seq):
    """Every frame the device sends before it answers a STATE request sent now: all that the
    table did before (a control command returns once the table has done it), however long
    the device process takes to write it on a loaded machine."""
    port.write(encode_message(STATE, seq))
    return frames(port, STATE | REPLY)


def request(port, msg_type, fields=None, seq=1):
    port.write(encode_message(msg_type, seq, fields))
    return frames(port, msg_type | REPLY)[-1][1]


def _device_name(table):
    """``tiletable-`` and the unique id the simulated table made with its storage."""
    with open(os.path.join(table.root, "unique-id"), "rb") as f:
        return "tiletable-" + f.read().hex()


def test_hello_over_the_pty(table):
    with serial.Serial(table.port, timeout=0.2) as port:
        reply = request(port, HELLO, {"proto": 1, "host": "pytest"})
    assert reply["device"] == _device_name(table) and "game" in reply["capabilities"]
    assert "journal" not in reply  # a host of the first revision decodes the reply it knows
    with serial.Serial(table.port, timeout=0.2) as port:
        reply = request(port, HELLO, {"proto": REVISION, "host": "pytest"})
    assert len(reply["journal"]) == 16 and reply["name"] == ""


def test_line_noise_neither_crashes_the_device_nor_changes_the_table(table):
    before = table.control.state()
    with serial.Serial(table.port, timeout=0.2) as port:
        half = encode_message(STATE, 9)[:-4]
        port.write(b"\x03\x03\r\n>>> import machine\r\n" + bytes(range(256)) + half + b"\x00\x03")
        reply = request(port, HELLO, {"proto": 1, "host": "pytest"}, seq=2)  # read after the noise
    assert table.bridge.alive()
    assert reply["device"] == _device_name(table)
    assert table.control.state() == before


def test_game_started_by_the_host_is_played_on_the_table(table):
    with serial.Serial(table.port, timeout=0.2) as port:
        reply = request(port, GAME_START, {"ruleset": "muggins", "players": ["ann", "bob"]})
        assert reply["session"] > 0
        assert table.control.display() == ["dEAL", "dEAL", "    ", "    "]
        table.control.press("ok")
        table.control.place(0, "5-5")
        seen = sent_before_an_answer(port, 2)
    actions = [fields["action"] for msg_type, fields in seen if msg_type == EV_PLAY]
    assert actions[:2] == ["D0:?", "D0:?"] and actions[-2:] == ["setter0", "5-5"]
    assert (EV_SCORE, {"seat": 0, "points": "10", "rule": "fives"}) not in seen  # manual claims: not yet scored
    assert (EV_ZONE, {"zone": 0, "tag": "5-5", "present": 1}) in seen
    assert table.control.state()["prompt"] == "bob to play"  # seat 1, by the name the host gave
    with serial.Serial(table.port, timeout=0.2) as port:
        table.control.press(0, "double")  # "muggins!": the count is claimed
        table.control.place(2, "1-2")  # seat 1 lays a tile that fits no end
        seen = sent_before_an_answer(port, 3)
    assert (EV_SCORE, {"seat": 0, "points": "10", "rule": "fives"}) in seen
    errors = [fields for msg_type, fields in seen if msg_type == EV_ERROR]
    assert errors and errors[0]["code"] == 4


def test_power_cut_of_the_device_process_resumes_the_game(table):
    control = table.control
    control.press("ok")  # muggins, 4 players
    control.press("ok")
    control.place(0, "5-5")
    control.remove(0)
    control.wait(2500)  # the journal's timed flush
    before = control.state()
    table.restart()  # the process is killed and started again; the pty stays
    assert table.control.state() == before
    assert table.control.display() == ["C 10", "   0", "   0", "   0"]  # the count still awaits its claim


def test_maintenance_request_leaves_protocol_mode(table):
    with serial.Serial(table.port, timeout=0.2) as port:
        assert request(port, MAINTENANCE) == {}
    assert table.bridge.process.wait(timeout=60) == 0  # on a Pico: main.py returns to the REPL


def test_set_clock_dates_the_session_and_is_journalled_mid_session(table):
    from tiletable.record import REC_CLOCK, REC_HEADER
    from tiletable_host.transport_serial import SerialTransport
    import json

    link = SerialTransport(table.port)
    try:
        link.hello()
        assert link.has_capability("clock")
        link.set_clock(1_800_000_000)
        link.game_start("block", ["ann", "bob"])
        link.set_clock(1_800_000_100)  # the organiser corrects the clock during the game
        records, last = link.journal_pull(0)
    finally:
        link.close()
    header = [json.loads(payload) for seq, rtype, payload in records if rtype == REC_HEADER][-1]
    assert 1_800_000_000 <= header["time"] <= 1_800_000_000 + 60
    assert [payload for seq, rtype, payload in records if rtype == REC_CLOCK] == [b"1800000100"]


def test_buki_scores_reach_the_pc_in_chips_as_the_displays_show_them(table):
    """STATE and the score events carry Buki's chips (a half chip as ``37.5``), not the
    half-chips the engine and the journal count in (issue 42); the displays agree."""
    events = []
    link = SerialTransport(table.port, timeout=2.0, on_event=lambda name, fields: events.append((name, fields)))
    try:
        link.hello()
        link.game_start("buki", ["ann", "bob", "cy", "di"])
        player = LinePlayer(table.control, "buki", 4, seed=1)  # seed 1: a stake pays 67.5 chips
        god = player.god
        player._deal()
        while god.hand_number == 0:
            player._move()
        table.control.wait(100)  # the table's loop sends its queued events before STATE is asked
        snapshot = link.state()  # the events ahead of its reply reach on_event first
        shown = table.control.display()
        for _ in range(20):  # the summary blinks: its lit half (device time, 100 ms a step)
            if all(text.strip() for text in shown):
                break
            table.control.wait(100)
            shown = table.control.display()
        link.game_stop()
    finally:
        link.close()
    chips = [score / 2 for score in god.scores]
    assert any(score % 1 for score in chips), "the seed's hand has no half chip to carry"
    assert snapshot["scores"] == chips and snapshot["scores"] == table_scores(god)
    groups = [" " * (4 - len(chips_text(score).replace(".", ""))) + chips_text(score) for score in god.scores]
    assert "".join(shown) == "".join(groups)  # four digits a seat, a decimal point lit after the 7 of 67.5
    scored = [fields for name, fields in events if name == "score event"]
    assert scored == [{"seat": e.seat, "points": chips_text(e.points), "rule": e.rule} for e in god.score_events]
    for seat in range(4):
        assert sum(float(fields["points"]) for fields in scored if fields["seat"] == seat) == chips[seat]


def test_no_other_program_can_be_given_the_control_port_before_the_device_binds_it(monkeypatch, tmp_path):
    """The control port was chosen free and let go until the device process bound it: another
    program meanwhile (another test's simulated table, whose device then listened there) could
    be given it, and this table's commands went to that table. It is held from the start."""
    import socket

    from tiletable_host.ptybridge import PtyBridge

    spawn = PtyBridge._spawn
    given = []

    def spawning(bridge):
        port = int(bridge.argv[bridge.argv.index("--control") + 1])
        with socket.socket() as other:
            try:
                other.bind(("127.0.0.1", port))  # as another program's bind or connect may be given it
                given.append(port)
            except OSError:
                pass
        spawn(bridge)

    monkeypatch.setattr(PtyBridge, "_spawn", spawning)
    table = SimulatedTable.start(runtime="cpython", root=str(tmp_path))
    try:
        assert table.control.display()[:2] == ["MUGG", "  4P"]
    finally:
        table.stop()
    assert given == []
