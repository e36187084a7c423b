"""Every preset is in the registry and is found by its name and by each of its aliases.

The registry (tiletable/families.py) names each preset's family, so that finding a preset by
name imports only its own family's schema module (on a 192 KB MicroPython heap there is no room
for all four at once); an alias is looked up in the presets' documents, one schema module at a
time. CPython only: it imports every family. test_dasan.py checks an alias under MicroPython.
"""
import sys

import pytest

from tiletable.engine.rulesets import find_ruleset, schema_module
from tiletable.families import FAMILIES, GAMES, module


def _declared_aliases():
    declared = {}
    for preset in GAMES:
        for alias in schema_module(preset.family).PRESETS[preset.name].get("aliases", ()):
            declared[alias] = preset.name
    return declared


def test_the_registry_lists_every_preset_of_every_family():
    presets = set(name for family in FAMILIES if family != "toy" for name in schema_module(family).PRESETS)
    assert sorted(game.name for game in GAMES) == sorted(presets)
    assert all(game.family in FAMILIES for game in GAMES)


@pytest.mark.parametrize("alias", sorted(_declared_aliases()))
def test_alias_finds_the_preset(alias):
    ruleset = find_ruleset(alias.title())
    assert ruleset.name == _declared_aliases()[alias] and ruleset.hash == find_ruleset(ruleset.name).hash


def test_unknown_name():
    with pytest.raises(ValueError, match="unknown ruleset: 'dominoes'"):
        find_ruleset("dominoes")


def test_validating_a_ruleset_imports_its_familys_schema_not_its_play_code():
    """On a stock UF2 a family module's import took about 150 ms of each ruleset's put: every
    family's PARAMS, PRESETS and check_params are in a schema module of their own."""
    from tiletable.engine.rulesets import load_ruleset
    from tiletable.heap import loaded_modules, release_modules

    for preset in GAMES:
        document = find_ruleset(preset.name).to_json()
        engine, schema = module(preset.family, ""), module(preset.family, "_params")
        names = (engine, schema)
        saved = {name: sys.modules.pop(name) for name in names if name in sys.modules}
        loaded = loaded_modules()
        try:
            load_ruleset(document)
            assert schema in sys.modules and engine not in sys.modules, preset.name
        finally:
            release_modules(loaded)
            sys.modules.update(saved)


def test_a_player_count_the_rules_do_not_allow_is_refused_naming_those_they_do():
    from tiletable.engine.errors import RulesetError

    muggins = find_ruleset("muggins")
    assert muggins.player_counts() == [2, 3, 4] and muggins.new_state().players == 2
    with pytest.raises(RulesetError) as refused:
        muggins.new_state(5)
    assert (refused.value.field, refused.value.reason) == ("players", "the rules are for 2, 3 or 4 players, not 5")
    with pytest.raises(RulesetError, match="the rules are for 4 players, not 3"):
        find_ruleset("buki").new_state(3)
