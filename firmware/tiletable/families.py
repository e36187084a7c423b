"""The registry: every game family and every preset game, declared in one place.

A family ``<f>`` is three modules, found by their names (``module``): ``engine/<f>.py`` (its
``State`` and ``player_counts``), ``engine/<f>_params.py`` (its ``PARAMS``, ``PRESETS`` and
``check_params``) and ``runtime/play_<f>.py`` (its table controller: zones and buttons to
engine actions). The Pico imports them only when a game of
the family needs them. The PC shows a family's state with the view of the same name in
host/tiletable_host/views.py (never on the Pico). The tray zones a game uses are in
tiletable/profiles.py; docs/CONTRIBUTING.md lists the files a new game touches.

Kept to plain data: on a stock build this module's objects are heap a game needs (a named
tuple type for the families took 540 bytes of it on the 64-bit unix port).
"""
from collections import namedtuple

# family -> (its table controller's class in runtime/play_<family>.py, the preset whose tray a
# ruleset of the family installed from the PC under a name of its own plays on)
FAMILIES = {
    "line": ("LineController", "block"),
    "trick": ("TrickController", "moon"),
    "column": ("ColumnController", "columns"),
    "climb": ("ClimbController", "dasan"),
}

# The preset games in the menu's order (the rule book's: line games from the simplest, then
# Moon, the column game and Da San): name, family, and the four characters the menu shows (what
# a 4-digit group can draw). Aliases are in the presets' documents (``rulesets.find_ruleset``
# looks them up there).
Game = namedtuple("Game", ("name", "family", "label"))

GAMES = (
    Game("block", "line", "bLOC"),
    Game("draw", "line", "drAW"),
    Game("sebastopol", "line", "SEbA"),
    Game("bergen", "line", "bErG"),
    Game("muggins", "line", "MUGG"),
    Game("sniff", "line", "SNIF"),
    Game("matador", "line", "MAtA"),
    Game("buki", "line", "bUKI"),
    Game("moon", "trick", "MOON"),
    Game("columns", "column", "COLS"),
    Game("dasan", "climb", "dASA"),
)


def game(name):
    """The preset ``name`` (a ``Game``), or None."""
    for entry in GAMES:
        if entry.name == name:
            return entry
    return None


def module(family, part):
    """The name of one of a family's modules: ``part`` "" its engine, "_params" its schema,
    "play_" its table controller."""
    if part == "play_":
        return "tiletable.runtime.play_" + family
    return "tiletable.engine." + family + part
