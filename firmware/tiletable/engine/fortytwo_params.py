"""The Texas 42 family's parameters, presets and cross-field checks (MORE-GAMES.md §4; rulesets.py).

The family's schema module (tiletable/families.py): validating a ruleset imports this, not the
play code in ``tiletable.engine.fortytwo``.
"""

PARAMS = {
    "target": ("int", 7, 1, 99),  # marks
    "all_pass": ("choice", "redeal", ("redeal", "shaker_forced")),
    "max_opening_marks": ("int", 2, 1, 7),
    "mark_raise": ("choice", "one", ("one", "any")),
    "nt_doubles": ("choice", "high", ("high", "low", "own_suit")),
    "stop_when_decided": ("bool", True),
    "nello": ("bool", False),
    "nello_doubles": ("choice", "high", ("high", "low", "own_suit")),
    "nello_value": ("choice", "bid", ("bid", "one_mark")),  # the marks of the bid, or 1 (§X-7)
    "plunge": ("bool", False),
    "plunge_min_marks": ("int", 4, 2, 7),
    "plunge_opening": ("bool", True),  # a plunge may be the auction's first bid (§X-7)
    "sevens": ("bool", False),
}

PRESETS = {
    "texas-42": {
        "version": 1,
        "label": "t 42",
        "order": 95,
        "trays": ["trick-4p"],
        "aliases": ["42"],
        "description": "Texas 42: two sides, bids 30-41 or marks, the bidder names trumps, 7 marks",
        "params": {},
    },
}


def check_params(name, params):
    """Every combination of 42's parameters is playable; nothing spans fields."""
    return None
