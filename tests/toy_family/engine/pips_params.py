"""Pips race's parameters and its one preset (the toy family's schema module)."""

PARAMS = {"target": ("int", 20, 1, 200)}

PRESETS = {
    "pips-race": {
        "version": 1,
        "label": "PIPS",
        "order": 115,
        "trays": ["line-2p"],
        "description": "Pips race: lay a tile in turn, score its pips, first to 20",
        "params": {},
    },
}


def check_params(name, params):
    """One parameter: nothing spans fields."""
