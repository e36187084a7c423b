"""Every family of the registry has a view on the PC, for ``tiletable watch`` and the browser."""
import json

import pytest

from engine.families_play import Rng, choose
from tiletable.engine.rulesets import find_ruleset
from tiletable.families import FAMILIES, games
from tiletable_host.views import VIEWS, table_lines, table_picture


def test_every_family_of_the_registry_has_a_view():
    assert sorted(set(game[1] for game in games())) == sorted(VIEWS)
    assert set(VIEWS) <= set(FAMILIES)


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
