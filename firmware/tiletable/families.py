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
# The name game() looked for last without the list, what it found (an entry or None) and the
# families it looked in: a start looks its game up several times (ruleset, profile, menu)
_FOUND = [None, None, ()]


def games():
    """The preset games in the menu's order, each ``(name, family, label, tray, ...)``, read once
    from every family's ``PRESETS``. The menu browses them without importing any family's play
    code; each family's schema module is imported in turn (a stock build's caller unloads them
    again, and the names they interned stay: a table reads the whole list only when it needs
    it, runtime/menu.py)."""
    if not _listed():
        found = []
        for family in FAMILIES:
            presets = _presets(family)
            for name in presets:
                found.append((presets[name]["order"], _entry(name, family, presets[name])))
        found.sort()
        _GAMES[1] = [entry for _, entry in found]
        _GAMES[0] = tuple(FAMILIES)  # last: a thread that reads the key finds its list
    return _GAMES[1]


def game(name):
    """The preset ``name`` as ``(name, family, label, tray, ...)``, or None. Unless the whole
    list was read, the families' schema modules are imported in turn up to the one that has it:
    on a stock build each one's names stay interned in the heap."""
    if _listed():
        for entry in _GAMES[1]:
            if entry[0] == name:
                return entry
        return None
    if _FOUND[0] != name or _FOUND[2] != tuple(FAMILIES):
        found = None
        for family in sorted(FAMILIES, key=_search_rank):
            presets = _presets(family)
            if name in presets:
                found = _entry(name, family, presets[name])
                break
        _FOUND[1] = found
        _FOUND[2] = tuple(FAMILIES)
        _FOUND[0] = name  # last, as in games()
    return _FOUND[1]


def stand_in(family):
    """The family's first preset in the menu (``(name, family, label, tray, ...)``), whose trays a
    ruleset installed under a name of its own plays on; None for a family without presets. Read
    from that family's schema module alone unless the whole list was read."""
    if _listed():
        for entry in _GAMES[1]:
            if entry[1] == family:
                return entry
        return None
    if family not in FAMILIES:
        return None
    presets = _presets(family)
    first = None
    for name in presets:
        if first is None or (presets[name]["order"], name) < (presets[first]["order"], first):
            first = name
    return None if first is None else _entry(first, family, presets[first])


def _search_rank(family):
    """Where ``game`` looks first: the line family, which has most presets and whose schema
    any line game reads anyway (a MicroPython dict keeps no order: FAMILIES' own would put
    others first)."""
    return family != "line"


def _listed():
    """Whether ``games()`` read the list for the families registered now."""
    return _GAMES[0] is not None and _GAMES[0] == tuple(FAMILIES)


def _presets(family):
    return __import__(module(family, "_params"), None, None, ["PRESETS"]).PRESETS


def _entry(name, family, doc):
    return (name, family, doc["label"]) + tuple(doc["trays"])


def module(family, part):
    """The name of one of a family's modules: ``part`` "" its engine, "_params" its schema,
    "play_" its table controller."""
    if part == "play_":
        return "tiletable.runtime.play_" + family
    return "tiletable.engine." + family + part
