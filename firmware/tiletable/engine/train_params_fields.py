"""The Mexican Train family's parameters (MORE-GAMES.md §5), read through ``train_params.PARAMS``
only when a ruleset of the family is validated: every string of a module a stock build loads
stays interned in its heap, and the menu imports ``train_params`` for its presets alone.
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
