"""Heap one of the Moon / column-game / Da San engines needs on MicroPython, with a hand in play.

    .venv/bin/micropython -X heapsize=192K bench/engine/families_heap_mpy.py FAMILY [engine-dir]

FAMILY is ``moon``, ``columns`` or ``dasan``. Prints ``name bytes`` lines of
``gc.mem_alloc()`` after ``gc.collect()``: ``baseline`` (before importing anything), then,
above it, ``engine`` (the family module and the engine base imported, its preset
loaded) and ``in_play`` (a live hand: Moon after the auction and three tricks, the
column game after its first battle and refill, Da San after the auction and twelve
card plays). ``engine-dir`` may point at ``.mpy`` files instead of ``firmware/``.
``families_bench.py`` runs it once per family, each in a fresh process, under the unix port
and the WebAssembly port (which collects garbage only between the top-level chunks marked
below: tools/mpy-wasm.mjs).
"""
import gc
import sys

gc.collect()
# ---- top level ----
BASELINE = gc.mem_alloc()
try:  # the WebAssembly port has no usable sys.argv: tools/mpy-wasm.mjs writes this module
    from _mpy_argv import ARGV
except ImportError:
    ARGV = sys.argv
FAMILY = ARGV[1]
sys.path.insert(0, ARGV[2] if len(ARGV) > 2 else "firmware")

import random  # noqa: E402

from tiletable.engine.rulesets import find_ruleset  # noqa: E402
from tiletable.engine.state import CHANCE  # noqa: E402

ruleset = find_ruleset(FAMILY)
state = ruleset.new_state()  # imports the family module
gc.collect()
# ---- top level ----
ENGINE = gc.mem_alloc()


def in_play():
    if FAMILY == "moon":
        return state.phase == 4 and state.trick_number >= 3
    if FAMILY == "columns":
        return state.last_battle and state.current_player() != CHANCE
    return state.phase == 4 and state.cards_played >= 12


random.seed(7)
while not in_play():
    if state.current_player() == CHANCE:
        options = state.chance_outcomes()
    else:
        options = list(state.generate_legal_actions())
    state.apply(options[random.randrange(len(options))])
options = None
gc.collect()
# ---- top level ----
IN_PLAY = gc.mem_alloc()
print("baseline %d" % BASELINE)
print("engine %d" % (ENGINE - BASELINE))
print("in_play %d" % (IN_PLAY - BASELINE))
print("actions %d" % len(state.history))
