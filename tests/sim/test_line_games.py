"""Whole matches of every line game played on the simulated table by a scripted player.

The player lays virtual tiles on the pads and presses the buttons; the table only sees
tags and buttons. At the end the table's scores must equal the player's own engine state
(which knew every hand) and an engine replay of the table's journal.
"""
import pytest

from player import LinePlayer, journal_sessions, local_table, replay, table_scores

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
