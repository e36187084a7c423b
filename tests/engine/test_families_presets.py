"""Every preset is found by its name and by each of its aliases, through ``PRESET_ALIAS``.

The alias table lives in rulesets.py so that finding a preset imports only its own family
(on a 192 KB MicroPython heap there is no room for all four at once); this test keeps the
table equal to the aliases each preset document declares. CPython only: it imports every
family. test_dasan.py checks an alias under MicroPython.
"""
import pytest

from tiletable.engine.rulesets import PRESET_ALIAS, PRESET_FAMILY, find_ruleset, schema_module


def _declared_aliases():
    declared = {}
    for preset, family in PRESET_FAMILY.items():
        for alias in schema_module(family).PRESETS[preset].get("aliases", ()):
            declared[alias] = preset
    return declared


def test_alias_table_matches_the_presets():
    assert PRESET_ALIAS == _declared_aliases()


@pytest.mark.parametrize("alias", sorted(_declared_aliases()))
def test_alias_finds_the_preset(alias):
    ruleset = find_ruleset(alias.title())
    assert ruleset.name == PRESET_ALIAS[alias] and ruleset.hash == find_ruleset(ruleset.name).hash


def test_unknown_name():
    with pytest.raises(ValueError, match="unknown ruleset: 'dominoes'"):
        find_ruleset("dominoes")
