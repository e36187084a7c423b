"""Every preset is in the registry and is found by its name and by each of its aliases.

A preset is named once, by its document in its family's ``PRESETS``, which also carries its
menu label, menu order and trays; the registry (tiletable/families.py) reads them once, so that
finding a preset by name imports only its own family's schema module after that (on a 192 KB
MicroPython heap there is no room for all four at once); an alias is looked up in the presets'
documents, one schema module at a time. CPython only: it imports every family. test_dasan.py
checks an alias under MicroPython.
"""
import sys

import pytest

from tiletable.drivers.segments import glyph
from tiletable.engine.rulesets import DOC_KEYS, find_ruleset, preset_document, preset_names, schema_module
from tiletable.families import FAMILIES, game, games, module
from tiletable.profiles import profile_names


def _declared_aliases():
    declared = {}
    for preset in games():
        for alias in schema_module(preset[1]).PRESETS[preset[0]].get("aliases", ()):
            declared[alias] = preset[0]
    return declared


def test_the_registry_lists_every_preset_of_every_family_in_the_menus_order():
    documents = {(name, family): doc for family in FAMILIES for name, doc in schema_module(family).PRESETS.items()}
    assert sorted((preset[0], preset[1]) for preset in games()) == sorted(documents)
    orders = [documents[preset[:2]]["order"] for preset in games()]
    assert orders == sorted(set(orders)), "each preset has a menu place of its own"
    assert preset_names() == sorted(preset[0] for preset in games())


def test_each_presets_document_gives_its_label_and_trays():
    for name, family, label, *trays in games():
        document = schema_module(family).PRESETS[name]
        assert (label, trays) == (document["label"], document["trays"]), name
        assert len(label) == 4 and [glyph(ch) for ch in label], "a 4-digit group draws %r" % label
        assert trays and set(trays) <= set(profile_names()), name


def test_a_presets_ruleset_document_leaves_the_menus_fields_out():
    document = preset_document("muggins", "line")
    assert set(document) <= set(DOC_KEYS) and document["family"] == "line" and document["name"] == "muggins"
    assert find_ruleset("muggins").to_doc()["params"]["target"] == 200


def test_a_family_added_to_the_registry_brings_its_presets():
    """The registry reads the presets again when its families change (a test's toy family)."""
    toy = type(sys)("tiletable.engine.toy_params")
    toy.PRESETS = {"toy-game": {"version": 1, "label": "tOY ", "order": 5, "trays": ["line-2p"], "params": {}}}
    sys.modules[toy.__name__] = toy
    FAMILIES["toy"] = None
    try:
        assert games()[0] == ("toy-game", "toy", "tOY ", "line-2p") and game("toy-game")[1] == "toy"
    finally:
        del FAMILIES["toy"]
        del sys.modules[toy.__name__]
    assert game("toy-game") is None


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
    from tiletable.heap import StockHeap

    for preset in games():
        document = find_ruleset(preset[0]).to_json()
        engine, schema = module(preset[1], ""), module(preset[1], "_params")
        names = (engine, schema)
        saved = {name: sys.modules.pop(name) for name in names if name in sys.modules}
        loaded = set(sys.modules)
        try:
            load_ruleset(document)
            assert schema in sys.modules and engine not in sys.modules, preset[0]
        finally:
            StockHeap().release(loaded)
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


def test_a_preset_is_found_reading_the_schemas_up_to_its_familys_only():
    """A start after a restart looks its game up before anything read the menu's whole list:
    on a stock build every schema module read leaves its names interned in the heap, so the
    lookup stops at the game's family (the line family first, which has most presets)."""
    from tiletable import families

    schemas = [module(family, "_params") for family in FAMILIES]
    saved_list, saved_found = list(families._GAMES), list(families._FOUND)
    saved = {name: sys.modules.pop(name) for name in schemas if name in sys.modules}
    try:
        families._GAMES[:] = [None, ()]
        families._FOUND[:] = [None, None, ()]
        assert game("buki")[1] == "line"
        assert [name for name in schemas if name in sys.modules] == [module("line", "_params")]
        assert game("moon")[1] == "trick" and module("train", "_params") not in sys.modules
        assert game("no-such-game") is None  # unknown: every family's is read
    finally:
        for name in schemas:
            sys.modules.pop(name, None)
        sys.modules.update(saved)
        families._GAMES[:], families._FOUND[:] = saved_list, saved_found
