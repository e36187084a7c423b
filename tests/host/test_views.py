"""Every family of the registry has a view on the PC, for ``tiletable watch`` and the browser,
and a board on the live page."""
import json
import os

import pytest

from engine.families_play import Rng, choose
from tiletable.engine.rulesets import find_ruleset
from tiletable.families import FAMILIES, games
from tiletable_host.serve.app import STATIC, boards
from tiletable_host.views import table_lines, table_picture, view_of

ENGINE_FAMILIES = [family for family in FAMILIES if family != "toy"]  # not a test's
# Families whose view and board are still being written (issue 39: Mexican Train's PC views)
WITHOUT_A_VIEW_YET = ("train",)


@pytest.mark.parametrize("family", [family for family in ENGINE_FAMILIES if family not in WITHOUT_A_VIEW_YET])
def test_every_family_of_the_registry_has_a_view_and_a_board(family):
    assert view_of(family) is not None
    assert family in boards()
    with open(os.path.join(STATIC, "boards", family + ".js")) as board:
        assert "function %sBoard(t, table)" % family in board.read()


def test_a_family_without_a_view_has_a_plain_picture_and_no_lines():
    assert view_of("toy") is None

    class _ToyState:
        family = "toy"

    assert table_picture(_ToyState(), None) == {"family": "toy"} and table_lines(_ToyState(), []) == []


@pytest.mark.parametrize("name", [game[0] for game in games()])
def test_each_presets_view_shows_a_match_in_progress(name):
    ruleset = find_ruleset(name)
    state = ruleset.new_state()
    rng = Rng(19)
    for _ in range(60):  # a few plays in: deals, bids, the first tiles or cards
        if state.is_over():
            break
        state.play(choose(state, rng, bid_rarely=True))
    names = ["Ann", "Bob", "Cy", "Di"][: state.players]
    assert all(isinstance(line, str) for line in table_lines(state, names))
    picture = table_picture(state, _Replay(state))
    assert picture["family"] == ruleset.family
    json.dumps(picture)  # what the browser is sent


class _Replay:
    """The replay a picture may look back into (the play to beat): its state, no journal."""

    def __init__(self, state):
        self.state = state

    def actions(self):
        return []
