"""The Mexican Train family's presets, parameters and cross-field checks (MORE-GAMES.md §5).

The family's schema module (tiletable/families.py). The menu imports it for ``PRESETS``, so the
parameters themselves are in ``train_params_fields``, imported when ``PARAMS`` is first asked
for (a ruleset validated): on a stock build the 2 KB their strings take (64-bit unix port) would
stay in the heap of every game started after the menu was drawn. The play code is
``tiletable.engine.train``.
"""


def __getattr__(name):
    """``PARAMS``, from ``train_params_fields`` (see above)."""
    if name == "PARAMS":
        from tiletable.engine.train_params_fields import PARAMS

        return PARAMS
    raise AttributeError(name)


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
