"""The Moon, column-game and Da San presets are found by their aliases.

CPython only: ``find_ruleset`` resolves an alias by importing every family module,
more than a 192 KB MicroPython heap holds next to a loaded family.
"""
import pytest

from tiletable.engine.rulesets import find_ruleset


@pytest.mark.parametrize(
    "alias, name",
    [
        ("moon-dominoes", "moon"),
        ("three-columns", "columns"),
        ("column-battle", "columns"),
        ("da-san", "dasan"),
        ("big-three", "dasan"),
        ("Dig-A-Hole", "dasan"),
    ],
)
def test_alias_finds_the_preset(alias, name):
    ruleset = find_ruleset(alias)
    assert ruleset.name == name and ruleset.hash == find_ruleset(name).hash
