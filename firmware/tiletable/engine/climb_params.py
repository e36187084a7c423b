"""The climb family's parameters, presets and cross-field checks (Da San's rules; rulesets.py).

The family's schema module (``engine/<family>_params.py``, tiletable/families.py): validating a
ruleset imports this, not the play code in ``tiletable.engine.climb``; on a stock build that
import took 150 ms of a sync's device time per ruleset.
"""

from tiletable.engine.errors import RulesetError

PARAMS = {
    "forced_bid_house_rule": ("bool", False),
    "chips": ("int", 20, 0, 1000),
    "hands": ("int", 0, 0, 1000),
}

PRESETS = {
    "dasan": {
        "version": 1,
        "label": "dASA",
        "order": 110,
        "trays": ["climb-3p"],
        "aliases": ["da-san", "big-three", "dig-a-hole"],
        "description": "Da San (seed 003): 3 players, bid 1-3 for the kitty, climb with combinations",
        "params": {},
    },
}


def check_params(name, params):
    """A match must be able to end: by a number of hands, or by a player running out of chips."""
    if params["chips"] == 0 and params["hands"] == 0:
        raise RulesetError(name, "params.hands", "the match needs an end: a number of hands, or chips to lose")
