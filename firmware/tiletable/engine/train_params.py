"""The Mexican Train family's parameters, presets and cross-field checks (MORE-GAMES.md §5).

The family's schema module (tiletable/families.py): validating a ruleset imports this, not the
play code in ``tiletable.engine.train``.
"""

PARAMS = {
    # tiles each by player count: 15/12/10 (HTF, Pagat), celko 15/12/11, pagat_copy 15/11/10,
    # sliding 16..10 (GoodSam)
    "deal": ("choice", "standard", ("standard", "celko", "pagat_copy", "sliding")),
    "own_train_first": ("bool", False),  # no play elsewhere before one's own train has a tile
    "double_rule": ("choice", "must_cover", ("must_cover", "pagat_free_second")),
    "last_double": ("choice", "ends_round", ("ends_round", "cover_first")),
    "first_turn": ("choice", "single", ("single", "run")),
    "double_blank": ("int", 0, 0, 50),  # what [0|0] left in hand counts
    "engine_max": ("int", 12, 6, 12),  # the set (double-n) and round 1's engine [n|n]
    "rounds": ("int", 13, 1, 13),  # round r's engine is [engine_max + 1 - r | same]
    "max_players": ("int", 4, 2, 8),  # the reference table seats 4 (board/pins.py)
}

PRESETS = {
    "mexican-train": {
        "version": 1,
        "label": "trAn",
        "order": 97,
        "trays": ["train-2p", "train-3p", "train-4p"],
        "description": "Mexican Train: double-twelve, a train each and a public one, 13 rounds, lowest wins",
        "params": {},
    },
}


def check_params(name, params):
    """A match cannot have more rounds than engines from [engine_max|engine_max] down to [0|0].

    :raises RulesetError: naming the field and why."""
    if params["rounds"] > params["engine_max"] + 1:
        from tiletable.engine.errors import RulesetError

        raise RulesetError(name, "params.rounds", "at most engine_max + 1 = %d rounds (got %d)" % (
            params["engine_max"] + 1, params["rounds"]))
