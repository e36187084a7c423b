"""The column family's parameters, presets and cross-field checks (the column battle game's rules; rulesets.py).

The family's schema module (``engine/<family>_params.py``, tiletable/families.py): validating a
ruleset imports this, not the play code in ``tiletable.engine.column``; on a stock build that
import took 150 ms of a sync's device time per ruleset.
"""

PARAMS = {
    "fig1_override": ("bool", False),
    "end": ("choice", "field_deck_empty_after_battle", ("field_deck_empty_after_battle", "hands_empty")),
}

PRESETS = {
    "columns": {
        "version": 1,
        "label": "COLS",
        "order": 100,
        "trays": ["column-2p"],
        "aliases": ["three-columns", "column-battle"],
        "description": "Three Columns (seed 001): 2 players, private decks of 10, three score columns",
        "params": {},
    },
}


def check_params(name, params):
    """The column game's two parameters are independent; nothing spans fields."""
    return None
