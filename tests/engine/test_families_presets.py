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


def test_validating_a_ruleset_imports_its_familys_schema_not_its_play_code():
    """On a stock UF2 a family module's import took about 150 ms of each ruleset's put: every
    family's PARAMS, PRESETS and check_params are in a schema module of their own."""
    import sys

    from tiletable.engine.rulesets import FAMILIES, SCHEMA_MODULES, load_ruleset, loaded_modules, release_modules

    for preset, family in sorted(PRESET_FAMILY.items()):
        document = find_ruleset(preset).to_json()
        names = (FAMILIES[family], SCHEMA_MODULES[family])
        saved = {name: sys.modules.pop(name) for name in names if name in sys.modules}
        loaded = loaded_modules()
        try:
            load_ruleset(document, keep_schema=True)  # what it imports stays, to be looked at
            assert SCHEMA_MODULES[family] in sys.modules and FAMILIES[family] not in sys.modules, preset
        finally:
            release_modules(loaded)
            sys.modules.update(saved)
