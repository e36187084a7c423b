"""A ruleset installed under a name of its own (a house ruleset) of each family is in the table's
menu after the presets, with a label of its own; it is chosen with the seat and OK buttons only
and a whole match is played through zones and buttons on its family's stand-in trays. The
journal names it, and an engine replay with its document gives the table's scores; switched off
and on, the table's menu opens on it."""
import pytest

import player
from player import ClimbPlayer, ColumnPlayer, LinePlayer, MoonPlayer, choose_game, journal_sessions, local_table, reads, table_scores
from tiletable.engine.rulesets import canonical_json, find_ruleset, load_ruleset
from tiletable.families import games

# name -> (player class, family, params, players)
HOUSE = {
    "pub-61": (LinePlayer, "line", {"stock_after_deal": "boneyard", "draw_policy": "when_unable", "per_move_scoring": "fives", "target": 61}, 3),
    "moon-7": (MoonPlayer, "trick", {"target": 7}, 3),
    "columns-club": (ColumnPlayer, "column", {"end": "hands_empty"}, 2),
    "dasan-2": (ClimbPlayer, "climb", {"hands": 2}, 3),
}
# what the menu's first group shows for each (runtime/menu.py house_label)
LABELS = {"pub-61": "PU61", "moon-7": "MOO7", "columns-club": "COLU", "dasan-2": "dAS2"}


def _document(name):
    _, family, params, _ = HOUSE[name]
    return canonical_json({"family": family, "name": name, "version": 1, "params": params}).encode()


def _ruleset(name):
    """A house ruleset by its document, else a preset: what the players' engine plays."""
    return load_ruleset(_document(name)) if name in HOUSE else find_ruleset(name)


def choose_with_buttons(control, name, players):
    """The menu by its buttons only: seat 1 steps to the game whose label shows (after the
    presets), a long press to the player count, OK starts it."""
    choose_game(control, name, players, label=LABELS[name], listed=len(games()) + len(HOUSE))


@pytest.mark.parametrize("name", sorted(HOUSE))
def test_a_house_ruleset_of_each_family_is_chosen_by_buttons_and_played_whole(monkeypatch, table_root, name):
    player_class, family, _, players = HOUSE[name]
    control = local_table(table_root)
    store = control.device.app.table.rulestore
    for other in sorted(HOUSE):  # as a sync installs them, the table already in its menu
        store.put(_document(other), _ruleset(other).hash)
    monkeypatch.setattr(player, "find_ruleset", _ruleset)
    monkeypatch.setattr(player, "choose_game", choose_with_buttons)
    god = player_class(control, name, players, seed=3).play_match()
    table = control.state()
    assert god.is_over() and table["mode"] == "over" and table["scores"] == table_scores(god)
    header, actions = journal_sessions(table_root)[-1]
    assert header["ruleset"] == name and header["hash"] == _ruleset(name).hash
    assert player.replay(header, actions).scores == god.scores
    restarted = local_table(table_root)  # switched off and on: the menu opens on the game played last
    assert restarted.state()["menu"] == [name, players] and reads(restarted.display()[0], LABELS[name])
