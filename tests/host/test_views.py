"""Every family of the registry has a view on the PC, for ``tiletable watch`` and the browser,
and a board on the live page."""
import json
import os

import pytest

from engine.families_play import Rng, choose
from engine.train_setup import position
from tiletable.engine.rulesets import find_ruleset
from tiletable.families import FAMILIES, games
from tiletable_host.serve.app import STATIC, boards
from tiletable_host.views import TrainView, table_lines, table_picture, view_of

ENGINE_FAMILIES = [family for family in FAMILIES if family != "toy"]  # not a test's


@pytest.mark.parametrize("family", ENGINE_FAMILIES)
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


def test_mexican_trains_lines_name_each_train_its_open_value_marker_and_the_double_to_cover():
    state = position(3, ["9-9 1-2", "6-9 3-12", "2-11"], {3: "9-12"}, markers=(1,), boneyard=15)
    state.play("9-9>M")
    assert table_lines(state, ["ann", "bob", "cy"]) == [
        "round 1 of 13, engine 12-12, boneyard 15, ann to play",
        "  ann's train: not started, open at 12",
        "  bob's train: not started, open at 12, marker out",
        "  cy's train: not started, open at 12",
        "  Mexican train: 2 tiles, open at 9",
        "open double 9-9 on the Mexican train, laid by ann",
        "tiles in hand: ann 1, bob 2, cy 1",
    ]
    picture = table_picture(state, None)
    mexican = picture["trains"][3]
    assert mexican == {"seat": None, "laid": 2, "tail": [[12, 9], [9, 9]], "open": 9, "marker": False, "double": True}
    assert picture["trains"][1]["marker"] and not picture["trains"][0]["marker"] and picture["trains"][1]["seat"] == 1
    assert (picture["cover"], picture["turn"], picture["hands"], picture["engine"]) == (3, 0, [1, 2, 1], 12)


def test_a_long_train_is_pictured_by_its_last_tiles_and_its_length():
    laid = "1-12 1-2 2-3 3-4 4-5 5-6 6-7 7-8 8-9 9-10"
    state = position(2, ["0-1"], {0: laid})
    [train] = [t for t in table_picture(state, None)["trains"] if t["seat"] == 0]
    assert train["laid"] == 10 and len(train["tail"]) == TrainView.TAIL < 10
    assert train["tail"][0] == [2, 3] and train["tail"][-1] == [9, 10] and train["open"] == 10
    assert "  ann's train: 10 tiles, open at 10" in table_lines(state, ["ann", "bob"])
