"""The registry: every game family, declared once, and the preset games read from its documents.

A family ``<f>`` is a line of ``FAMILIES`` and three modules, found by their names
(``module``): ``engine/<f>.py`` (its ``State`` and ``player_counts``), ``engine/<f>_params.py``
(its ``PARAMS``, ``PRESETS`` and ``check_params``) and ``runtime/play_<f>.py`` (its table
controller: zones and buttons to engine actions). The Pico imports them only when a game of
the family needs them. A preset game is named once, by its document in ``PRESETS``, which
also carries what the table needs of it: its menu ``label`` (four characters a 4-digit group
can draw), its menu ``order`` and the ``trays`` it plays on (tiletable/profiles.py). The PC
derives the ruleset schema's family list, its views and the browser's boards from
``FAMILIES``; docs/CONTRIBUTING.md lists the files a new game or family touches.

Kept to plain data: on a stock build this module's objects are heap a game needs (a named
tuple type for the games took 540 bytes of it on the 64-bit unix port).
"""

# family -> its table controller's class in runtime/play_<family>.py. A ruleset of the family
# installed from the PC under a name of its own plays on the trays of the family's first preset.
FAMILIES = {
    "line": "LineController",
    "trick": "TrickController",
    "column": "ColumnController",
    "climb": "ClimbController",
    "fortytwo": "FortytwoController",
    "train": "TrainController",
}

# Each preset as (name, family, label, tray, ...) in the menu's order, and the families it was
# read for (a test may register a family of its own)
_GAMES = [None, ()]


def games():
    """The preset games in the menu's order, each ``(name, family, label, tray, ...)``, read once
    from every family's ``PRESETS``. The menu browses them without importing any family's play
    code; each family's schema module is imported in turn (a stock build's caller unloads them
    again: runtime/table.py)."""
    if _GAMES[0] is None or _GAMES[0] != tuple(FAMILIES):
        found = []
        for family in FAMILIES:
            presets = __import__(module(family, "_params"), None, None, ["PRESETS"]).PRESETS
            for name in presets:
                doc = presets[name]
                found.append((doc["order"], (name, family, doc["label"]) + tuple(doc["trays"])))
        found.sort()
        _GAMES[1] = [entry for _, entry in found]
        _GAMES[0] = tuple(FAMILIES)  # last: a thread that reads the key finds its list
    return _GAMES[1]


def game(name):
    """The preset ``name`` as ``(name, family, label, tray, ...)``, or None."""
    for entry in games():
        if entry[0] == name:
            return entry
    return None


def stand_in(family):
    """The family's first preset in the menu (``(name, family, label, tray, ...)``), whose trays a
    ruleset installed under a name of its own plays on; None for a family without presets."""
    for entry in games():
        if entry[1] == family:
            return entry
    return None


def module(family, part):
    """The name of one of a family's modules: ``part`` "" its engine, "_params" its schema,
    "play_" its table controller."""
    if part == "play_":
        return "tiletable.runtime.play_" + family
    return "tiletable.engine." + family + part
