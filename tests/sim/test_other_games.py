"""Whole matches of Moon, the column battle game and Da San on the simulated table, played by
scripted players through zones and buttons only; the table's scores must equal the players'
own engine state and an engine replay of the table's journal."""
import pytest

from player import ClimbPlayer, ColumnPlayer, MoonPlayer, journal_sessions, local_table, replay

GAMES = [(MoonPlayer, "moon", 3), (ColumnPlayer, "columns", 2), (ClimbPlayer, "dasan", 3)]


@pytest.mark.parametrize("player_class,name,players", GAMES, ids=[g[1] for g in GAMES])
def test_whole_match_scores_equal_the_engine_and_the_journal(table_root, player_class, name, players):
    control = local_table(table_root)
    god = player_class(control, name, players, seed=1).play_match()
    table = control.state()
    assert god.is_over() and table["mode"] == "over"
    assert table["scores"] == list(god.scores)
    header, actions = journal_sessions(table_root)[-1]
    assert header["ruleset"] == name
    assert replay(header, actions).scores == god.scores
