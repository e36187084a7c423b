"""Heap the line engine needs on MicroPython: every line preset loaded, a 4-player Muggins hand in play.

    .venv/bin/micropython -X heapsize=192K bench/engine/heap_mpy.py [engine-dir]

Prints ``name bytes`` lines of ``gc.mem_alloc()`` after ``gc.collect()``: ``baseline``
(before importing anything), then, above the baseline, ``engine`` (after importing the
line family), ``presets`` (the eight line rulesets loaded) and ``in_play`` (a 4-player
Muggins hand with 8 tiles down). ``engine-dir`` may point at ``.mpy`` files instead of
``firmware/``. ``bench/engine/__main__.py`` runs it under the unix port (64-bit objects) and the
WebAssembly port (32-bit, as the RP2040; ``tools/mpy-wasm.mjs``, which collects garbage only
between the top-level chunks marked below, so every figure is taken on a collected heap).
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
sys.path.insert(0, ARGV[1] if len(ARGV) > 1 else "firmware")

import random  # noqa: E402

import tiletable.engine.line  # noqa: E402,F401
from tiletable.engine.rulesets import find_ruleset  # noqa: E402
from tiletable.engine.state import CHANCE  # noqa: E402

gc.collect()
# ---- top level ----
ENGINE = gc.mem_alloc()
NAMES = ("block", "draw", "sebastopol", "bergen", "muggins", "sniff", "matador", "buki")
rulesets = [find_ruleset(name) for name in NAMES]
gc.collect()
# ---- top level ----
PRESETS = gc.mem_alloc()

random.seed(7)
state = rulesets[NAMES.index("muggins")].new_state(4)
while state.layout.tiles < 8:
    options = state.chance_outcomes() if state.current_player() == CHANCE else state.generate_legal_actions()
    state.apply(options[random.randrange(len(options))])
options = None
gc.collect()
# ---- top level ----
IN_PLAY = gc.mem_alloc()
print("baseline %d" % BASELINE)
print("engine %d" % (ENGINE - BASELINE))
print("presets %d" % (PRESETS - BASELINE))
print("in_play %d" % (IN_PLAY - BASELINE))
print("actions %d" % len(state.history))
