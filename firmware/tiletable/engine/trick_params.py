"""The trick family's parameters, presets and cross-field checks (Moon's rules; rulesets.py).

The family's schema module (``engine/<family>_params.py``, tiletable/families.py): validating a
ruleset imports this, not the play code in ``tiletable.engine.trick``; on a stock build that
import took 150 ms of a sync's device time per ruleset.
"""

PARAMS = {
    "target": ("int", 21, 1, 999),
    "widow": ("choice", "optional_faceup", ("optional_faceup", "mandatory_facedown")),
    "trumps": ("choice", "none", ("none", "bidder_declares")),
    "lead_suit_rule": ("choice", "leader_declares", ("leader_declares", "higher_end")),
    "fail": ("choice", "bid_minus_taken", ("bid_minus_taken", "full_bid")),
    "exact_tie": ("choice", "replay", ("replay", "bidder_out")),
    "all_pass": ("choice", "redeal", ("redeal", "dealer_forced")),
    "redeal_dealer": ("choice", "next", ("next", "same")),
}

PRESETS = {
    "moon": {
        "version": 1,
        "label": "MOON",
        "order": 90,
        "trays": ["trick-3p"],
        "aliases": ["moon-dominoes"],
        "description": "Moon (seed 002): 3 players, no trumps, the leader names the suit, game 21",
        "params": {},
    },
}


def check_params(name, params):
    """Every combination of Moon's parameters is playable; nothing spans fields."""
    return None
