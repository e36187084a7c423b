"""Mexican Train on the simulated table, through zones and buttons only (docs/TABLE.md "Mexican
Train"): whole matches whose scores equal the player's engine and an engine replay of the
journal, and the table's answers to single plays: a tile goes on its seat's own train unless the
button chooses another, a drawn tile is shown and played, an open double must be covered, and
the markers and the open double are shown on the displays and LEDs."""
import pytest

import player
from player import TrainPlayer, at_budget, choose_game, journal_sessions, local_table, reads, replay
from tiletable.drivers.status_leds import StatusLeds
from tiletable.engine.errors import E_MUST_PLAY
from tiletable.engine.rulesets import canonical_json, find_ruleset, load_ruleset
from tiletable.engine.tiles import parse_tile, tile_set
from tiletable.families import games

AMBER = at_budget(StatusLeds.draw_colour)
SHORT = "train-3"  # a house ruleset: three rounds (engines 12-12, 11-11, 10-10)
SHORT_DOCUMENT = canonical_json({"family": "train", "name": SHORT, "version": 1, "params": {"rounds": 3}}).encode()
PAD = {0: 0, 1: 2}  # train-2p: seat -> its pad's zone
HUB, MEXICAN = 4, 8


def _ruleset(name):
    return load_ruleset(SHORT_DOCUMENT) if name == SHORT else find_ruleset(name)


@pytest.fixture
def short_rules(monkeypatch):
    """The players' engine and the journal's replay know the three-round house ruleset; the menu
    lists it after the presets."""
    monkeypatch.setattr(player, "find_ruleset", _ruleset)
    monkeypatch.setattr(player, "choose_game", lambda control, name, players: choose_game(
        control, name, players, label="trA3", listed=len(games()) + 1))


def _installed(table_root):
    control = local_table(table_root)
    control.device.app.table.rulestore.put(SHORT_DOCUMENT, _ruleset(SHORT).hash)
    return control


def _match_equals_the_engine_and_the_journal(control, table_root, god, name):
    table = control.state()
    assert god.is_over() and table["mode"] == "over"
    assert table["scores"] == list(god.scores)
    header, actions = journal_sessions(table_root)[-1]
    assert header["ruleset"] == name
    assert player.replay(header, actions).scores == god.scores
    return actions


@pytest.mark.parametrize("players,scan", [(2, (0, 1)), (3, (1,)), (4, ())])
def test_a_short_match_scores_equal_the_engine_and_the_journal(short_rules, table_root, players, scan):
    control = _installed(table_root)
    play = TrainPlayer(control, SHORT, players, seed=players, scan=scan)
    god = play.play_match()
    actions = _match_equals_the_engine_and_the_journal(control, table_root, god, SHORT)
    assert god.round == 3 and len(god.score_events) == 3 * players
    assert "draw" in actions and any(a.endswith(">M") for a in actions)
    assert any(a.startswith("R") for a in actions) == (len(scan) < players)  # unseen hands shown


def test_a_whole_thirteen_round_match(table_root):
    control = local_table(table_root)
    play = TrainPlayer(control, "mexican-train", 4, seed=7, scan=(0, 2))
    god = play.play_match()
    _match_equals_the_engine_and_the_journal(control, table_root, god, "mexican-train")
    assert god.round == 13 and reads(control.display()[0], "1St") == (0 in god.outcome().winners)
