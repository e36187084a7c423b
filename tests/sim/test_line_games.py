"""Whole matches of every line game played on the simulated table by a scripted player.

The player lays virtual tiles on the pads and presses the buttons; the table only sees
tags and buttons. At the end the table's scores must equal the player's own engine state
(which knew every hand) and an engine replay of the table's journal.
"""
import pytest

from player import LinePlayer, choose_game, journal_sessions, local_table, replay, table_scores
from tiletable.engine.line_actions import P_DECLARE, P_LOT
from tiletable.engine.tiles import parse_tile

GAMES = [
    ("muggins", 2, ()),
    ("muggins", 4, (1,)),  # one seat scans its hand: its draws are laid on the pad too
    ("block", 2, ()),
    ("draw", 3, ()),
    ("sebastopol", 4, ()),
    ("bergen", 2, ()),
    ("sniff", 4, ()),
    ("matador", 2, ()),
    ("buki", 4, ()),
    ("all-fives-rounded", 3, ()),
    ("fives-threes", 2, ()),
    ("fives-threes", 3, (2,)),
    ("fives-threes-pairs", 4, ()),
    ("cuban", 4, ()),
    ("cuban", 4, (2,)),  # a scanned hand: the table knows its doubles
]


@pytest.mark.parametrize("name,players,scan", GAMES, ids=["%s-%dp%s" % (g, n, "-scan" if s else "") for g, n, s in GAMES])
def test_whole_match_scores_equal_the_engine_and_the_journal(table_root, name, players, scan):
    control = local_table(table_root)
    player = LinePlayer(control, name, players, seed=3, scan=scan)
    god = player.play_match()
    table = control.state()
    assert god.is_over() and table["mode"] == "over"
    assert table["scores"] == table_scores(god)  # Buki: chips
    header, actions = journal_sessions(table_root)[-1]
    assert header["ruleset"] == name and len(header["players"]) == players
    assert replay(header, actions).scores == god.scores


# seat 0: four doubles; seat 2: five doubles and five singles (MORE-GAMES TV-LAT-10)
_SHOWN = (
    "1-1 2-2 4-4 6-6 1-2 1-3 1-4 1-5 1-6 1-7",
    "2-3 2-4 2-5 2-6 2-7 2-8 2-9 3-4 3-5 3-6",
    "0-0 3-3 5-5 8-8 9-9 0-1 0-2 0-3 0-4 0-5",
    "3-7 3-8 3-9 4-5 4-6 4-7 4-8 4-9 5-6 5-7",
)


def test_cuban_side_lot_leader_and_shown_doubles_through_pads_and_buttons(table_root):
    """The side lot's tiles laid on the pads of seats 1 and 2, the side's leader laying the
    first tile on its own pad, a long press of seat 3 (its scanned hand holds five doubles)
    throwing the deal in; then the match goes on to its end."""
    control = local_table(table_root)
    player = LinePlayer(control, "cuban", 4, seed=3, scan=(2,), show_rate=1.0)
    god = player.god
    choose_game(control, "cuban", 4)
    while god.phase == P_LOT:
        player._move()
    dealt = [parse_tile(text) for hand in _SHOWN for text in hand.split()]
    player._deal(dealt + [t for t in god.tiles if t not in dealt])
    assert god.phase == P_DECLARE and control.state()["prompt"] == "the setter lays the first tile"
    player._move()  # before the side names its leader, seat 3 long-presses
    assert god.hand_number == 0 and god.phase == P_LOT and god.scores == [0] * 4
    table = control.state()
    assert table["hand"] == 0 and table["prompt"].startswith("lot") and table["actions"] == len(god.history)
    while not god.is_over():
        player.play_hand()
    assert control.state()["scores"] == table_scores(god)
    header, actions = journal_sessions(table_root)[-1]
    assert replay(header, actions).scores == god.scores
