"""A new game of an existing family is one document (docs/CONTRIBUTING.md): added to the line
family's PRESETS with its label, menu place and trays, it is in the table's menu, in the order
its document gives, and is played on the simulated table; nothing else names it."""
from player import LinePlayer, journal_sessions, local_table, reads, replay, table_scores
from tiletable.engine import line_params
from tiletable.engine.rulesets import find_ruleset
from tiletable.families import games

THREES = {
    "version": 1,
    "label": "tHrE",
    "order": 51,  # right after Muggins
    "trays": ["line-2p", "line-3p"],
    "description": "Threes: Muggins counting multiples of 3, to 61",
    "params": {"stock_after_deal": "boneyard", "draw_policy": "when_unable", "per_move_scoring": "fives", "score_multiple": 3, "target": 61},
}


def test_a_line_game_added_as_one_document_is_in_the_menu_and_plays(monkeypatch, table_root):
    monkeypatch.setitem(line_params.PRESETS, "threes", THREES)
    monkeypatch.setattr("tiletable.families._GAMES", [None, ()])  # the registry reads the documents again
    names = [preset[0] for preset in games()]
    assert names[names.index("muggins") + 1] == "threes"
    assert find_ruleset("threes").params["score_multiple"] == 3
    control = local_table(table_root)
    assert reads(control.display()[0], "MUGG")  # a new table's menu opens on Muggins
    control.press(0)
    assert reads(control.display()[0], "tHrE")
    player = LinePlayer(control, "threes", 3, seed=5)
    god = player.play_match()
    table = control.state()
    assert god.is_over() and table["mode"] == "over" and table["scores"] == table_scores(god)
    header, actions = journal_sessions(table_root)[-1]
    assert header["ruleset"] == "threes" and replay(header, actions).scores == god.scores
    assert any(event.rule == "fives" and event.points % 3 == 0 for event in god.score_events)
