"""A full journal never stops the table (issue 18), on the simulated table over its pty: the
game in progress goes on and stays journalled into the reserve kept for it; a new game is
refused, on the display and over the link, until the PC pulls and acknowledges; only
acknowledged sessions are rotated away."""
import pytest

from tiletable.engine.rulesets import find_ruleset
from tiletable.proto.messages import E_JOURNAL_FULL
from tiletable.record import REC_GAP, REC_HEADER, REC_TIMED_ACTION
from tiletable.runtime.journal import Journal
from tiletable.runtime.starter import JOURNAL_FULL_MESSAGE
from tiletable_host.run import ScriptedGame
from tiletable_host.simtable import SimulatedTable
from tiletable_host.transport import DeviceError
from tiletable_host.transport_serial import SerialTransport

LEFT = 1200  # bytes under the journal's budget: room for a game's header, not for its hand


def _fill(root):
    """An unacknowledged old session that leaves ``LEFT`` bytes of the device's budget."""
    journal = Journal(root + "/journal")
    journal.start_session("muggins", find_ruleset("muggins").hash, ["old", "game"], "fill")
    while journal.max_bytes - journal.total_bytes() > LEFT:
        journal.log_action("5-5")
    journal.end_session({"reason": "stopped"})
    journal.close()


def _pull_all(link):
    """Every record on the device, and its last sequence number."""
    records = []
    while True:
        got, last = link.journal_pull(records[-1][0] if records else 0)
        if not got:
            return last, records
        records.extend(got)


@pytest.fixture
def full_table(table_root):
    _fill(table_root)
    table = SimulatedTable.start(root=table_root)
    link = SerialTransport(table.port, timeout=30.0)  # bounds a lost reply only (a loaded PC may starve the device)
    link.hello()
    yield table, link
    link.close()
    table.stop()


def test_a_full_journal_keeps_the_game_and_refuses_the_next_until_pulled(full_table):
    table, link = full_table
    session = link.game_start("muggins", ["ann", "bob"])
    game = ScriptedGame(table.control, link, find_ruleset("muggins"), 2, 18, lambda hand_over: None)
    game.play(1)  # a whole hand: well past the budget, into the reserve
    status = link.journal_status()
    assert status["full"] == 1 and status["dropped"] == 0 and status["bytes"] > status["max_bytes"], status
    link.game_stop()
    menu = link.state()

    with pytest.raises(DeviceError) as refused:
        link.game_start("muggins", ["ann", "bob"])
    assert refused.value.code == E_JOURNAL_FULL and refused.value.message == JOURNAL_FULL_MESSAGE
    table.control.wait(50)  # the display shows what the table drew at its next tick
    assert table.control.display()[0] == "FULL"
    after = link.state()
    del after["longest_us"], menu["longest_us"]  # each service's longest step: not the table's state
    assert after.pop("last_error") == [E_JOURNAL_FULL, JOURNAL_FULL_MESSAGE] and after == menu

    last, records = _pull_all(link)
    played = [r for r in records if r[0] >= session]
    assert played[0][1] == REC_HEADER and REC_GAP not in [r[1] for r in played]
    actions = [payload for seq, rtype, payload in played if rtype == REC_TIMED_ACTION]
    assert len(actions) == len(game.state.history) > 20, "the hand is journalled whole"
    link.journal_ack(last)
    assert link.game_start("muggins", ["ann", "bob"]) > last  # room again: acknowledged sessions went
    _, kept = _pull_all(link)
    assert kept[0][0] == session, "the old session was rotated away; the played one, newest acked, was kept"
