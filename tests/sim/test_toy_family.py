"""A new game family is its own files plus one line of the registry (docs/CONTRIBUTING.md).

The toy family "pips" (tests/toy_family/: its engine, its schema module with one preset, its
table controller) is put where the registry looks for a family's modules, registered with one
line, and played on the simulated table through its menu and pads; the PC's ruleset schema
knows the family, and its view and the browser show scores and turns only (it brings no view
or board of its own)."""
import os
import sys

import pytest

from player import choose_game, journal_sessions, local_table, reads, replay
from tiletable.engine.rulesets import find_ruleset, preset_names
from tiletable.families import FAMILIES, game, games

TOY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "toy_family")
TOY_MODULES = ("tiletable.engine.pips", "tiletable.engine.pips_params", "tiletable.runtime.play_pips")


@pytest.fixture
def pips_family(monkeypatch):
    """The toy family's files where a family's modules are found (the packages' folders), and
    its line in the registry; neither after the test."""
    import tiletable.engine
    import tiletable.runtime

    monkeypatch.setattr(tiletable.engine, "__path__", list(tiletable.engine.__path__) + [os.path.join(TOY, "engine")])
    monkeypatch.setattr(tiletable.runtime, "__path__", list(tiletable.runtime.__path__) + [os.path.join(TOY, "runtime")])
    monkeypatch.setitem(FAMILIES, "pips", "PipsController")  # the one registry line
    yield
    for name in TOY_MODULES:
        sys.modules.pop(name, None)
        package, _, attr = name.rpartition(".")
        if hasattr(sys.modules[package], attr):
            delattr(sys.modules[package], attr)


def test_a_toy_family_in_its_own_files_plays_on_the_simulated_table(pips_family, table_root):
    assert game("pips-race") == ("pips-race", "pips", "PIPS", "line-2p") and games()[-1][0] == "pips-race"
    assert "pips-race" in preset_names()
    control = local_table(table_root)
    choose_game(control, "pips-race", 2)  # the menu shows its label, the tray its seat pads
    assert control.state()["prompt"] == "P1 to lay a tile"
    laid = ["0-1", "1-1", "6-6", "5-6", "5-5"]  # P1 reaches the target of 20 with its third: 1 + 12 + 10
    pads = {0: 0, 1: 2}  # line-2p: P1's pad is zone 0, P2's zone 2
    control.place(pads[1], "0-1")  # out of turn: refused, nothing changes
    assert "last_error" in control.state() and control.state()["scores"] == [0, 0]
    control.remove(pads[1])
    for turn, tile in enumerate(laid):
        seat = turn % 2
        control.place(pads[seat], tile)
        control.remove(pads[seat])
    table = control.state()
    assert table["mode"] == "over" and table["scores"] == [23, 13]
    assert reads(control.display()[0], "1St") and reads(control.display()[1], "2nd")
    header, actions = journal_sessions(table_root)[-1]
    assert header["ruleset"] == "pips-race" and actions == ["%d:%s" % (turn % 2, tile) for turn, tile in enumerate(laid)]
    assert replay(header, actions).scores == [23, 13]


def test_the_pc_knows_a_registered_family(pips_family):
    from tiletable_host.schema import problems, ruleset_schema
    from tiletable_host.views import table_lines, table_picture

    schema = ruleset_schema()
    assert "pips" in schema["properties"]["family"]["enum"]
    assert problems({"family": "pips", "name": "house", "params": {"target": 30}}, schema) == []
    assert problems({"family": "pips", "name": "house", "params": {"target": 0}}, schema) != []
    state = find_ruleset("pips-race").new_state()
    assert table_picture(state, None) == {"family": "pips"} and table_lines(state, ["ann", "bob"]) == []
