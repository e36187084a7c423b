"""A whole Mexican Train match of the preset's thirteen rounds on the simulated table, through
zones and buttons only (38 s of the suite's time: ``make soak`` plays it, ``make test`` plays
the three-round matches of tests/sim/test_train_table.py)."""
import pytest

from player import TrainPlayer, local_table
from soak import SOAK
from test_train_table import _match_equals_the_engine_and_the_journal, assert_places_shown


@pytest.mark.skipif(not SOAK, reason="a soak: make soak plays the thirteen rounds")
def test_a_whole_thirteen_round_match(table_root):
    control = local_table(table_root)
    play = TrainPlayer(control, "mexican-train", 4, seed=7, scan=(0, 2))
    god = play.play_match()
    _match_equals_the_engine_and_the_journal(control, table_root, god, "mexican-train")
    assert god.round == 13
    assert_places_shown(control, god)
