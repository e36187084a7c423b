"""Heap of the running table firmware, on a 32-bit MicroPython as the Pico's and on 64-bit.

    python tools/build_mpy.py build/mpy && cd build/mpy && \\
        node ../../tools/mpy-wasm.mjs -X heapsize=240K ../../bench/table_heap.py     (32-bit)
        ../../.venv/bin/micropython -X heapsize=2M ../../bench/table_heap.py        (64-bit)

The firmware boots as main.py boots it (board, App, every preset installed in the rule
store as a sync leaves them, nothing attached to the virtual pins), idles, then plays each
game family in turn through the link's GAME_START handler. Figures are ``gc.mem_alloc()``
after a collection, above what the port itself holds before the firmware is imported
(``binascii`` and ``collections``, built into the rp2 port, and the simulated ``machine`` are
in that baseline):

* code: the modules main.py imports (bytecode, qstrs, module dicts): in the heap when the
  .mpy files are copied onto the stock firmware, in flash with the frozen build;
* data: what the running firmware holds besides (drivers' buffers, tray, journal, link,
  table; then a game's state and controller, and its family's modules on top);
* the ratio of the 64-bit figures to the 32-bit ones, which scales the Pico's heap for the
  tests that run the firmware on the 64-bit unix port (tests/sim/test_main_boot.py,
  tests/sim/test_device_micropython.py).

The WebAssembly port collects garbage only between top-level calls (tools/mpy-wasm.mjs runs
each chunk below as one), so each figure is taken at the start of a chunk; on that port the
heap grows instead of failing, so the games' figures are what they take, not what fits.
"""
import gc
import json
import sys

sys.path[:0] = ["firmware", "sim", "tests"]


def used():
    gc.collect()
    return gc.mem_alloc()


from runtime.scratch import empty_dir  # noqa: E402  (tests/runtime/scratch.py)
import binascii  # noqa: E402,F401  (built into the rp2 port: in the baseline)
import collections  # noqa: E402,F401  (built in there too; a Python package on the WebAssembly port)
import machine  # noqa: E402  (the simulated one, built in on the Pico)
import time  # noqa: E402


def run_services(app, rounds):
    """Every one of ``app``'s services (``App.services``) ``rounds`` times over, back to back;
    defined before the baseline, as the Pico's asyncio is, and a call of its own, so that what
    it leaves on its stack is gone before the heap is measured."""
    for _ in range(rounds):
        for step, _, _ in app.services():
            step(time.ticks_ms())


gc.collect()
# ---- top level ----
BASE = used()
figures = {}
from tiletable.board.setup import build  # noqa: E402
from tiletable.engine.rulesets import find_ruleset, preset_names  # noqa: E402
from tiletable.heap import build_policy  # noqa: E402
from tiletable.runtime.app import assemble  # noqa: E402

FIRMWARE_MODULES = set(sys.modules)  # what main.py imports; a sync's imports go again after it

gc.collect()
# ---- top level ----
figures["code"] = used() - BASE
ROOT = "/tmp/table-heap-%d" % (64 if sys.maxsize > 2**32 else 32)




empty_dir(ROOT)
with open(ROOT + "/selftest.done", "w") as done:
    done.write("TEST OK")  # no first-run self test


class Sink:
    """The USB serial port's PC side: takes the event frames."""

    def write(self, data):
        return len(data)


POLICY = build_policy()  # a stock build's here: the bytecode is in the heap
PRESETS = POLICY.releasing(preset_names)


def install_next():
    """Install the next preset as a sync would (one per chunk: its garbage is collected), the
    family's schema module unloaded after, as the link server does at the end of a sync."""
    from tiletable.runtime.rulestore import RuleStore

    name = PRESETS[len(RuleStore(ROOT + "/rulesets").names())]
    ruleset = POLICY.releasing(find_ruleset, name)
    RuleStore(ROOT + "/rulesets").put(ruleset.to_json().encode(), ruleset.hash)
    POLICY.release(FIRMWARE_MODULES)
    gc.collect()


install_next()
# ---- top level ----
install_next()
# ---- top level ----
install_next()
# ---- top level ----
install_next()
# ---- top level ----
install_next()
# ---- top level ----
install_next()
# ---- top level ----
install_next()
# ---- top level ----
install_next()
# ---- top level ----
install_next()
# ---- top level ----
install_next()
# ---- top level ----
install_next()
# ---- top level ----
install_next()
# ---- top level ----
install_next()
# ---- top level ----
install_next()
# ---- top level ----
assert len(PRESETS) == 14, "one install_next() chunk per preset"
app = assemble(build(machine), open(ROOT + "/selftest.done", "rb"), Sink(), time.ticks_ms, root=ROOT, unique_id=b"TTSIM\x00\x00\x01", policy=POLICY)
run_services(app, 20)
gc.collect()
# ---- top level ----
figures["idle"] = used() - BASE
GAMES = (("muggins", 4), ("buki", 4), ("moon", 3), ("columns", 2), ("dasan", 3))  # one chunk each below
progress = [0]


def play_next():
    """Start the next game (the one before is stopped: its family is unloaded if it differs)."""
    name, players = GAMES[progress[0]]
    if app.table.session is not None:
        app._game_stop({})
    for _ in app._game_start({"ruleset": name, "players": ["P%d" % seat for seat in range(players)]}):
        pass  # the link's steps, taken back to back
    run_services(app, 20)
    gc.collect()


def note_game():
    figures[GAMES[progress[0]][0]] = used() - BASE
    progress[0] += 1


play_next()
# ---- top level ----
note_game()
play_next()
# ---- top level ----
note_game()
play_next()
# ---- top level ----
note_game()
play_next()
# ---- top level ----
note_game()
play_next()
# ---- top level ----
note_game()
bits = 64 if sys.maxsize > 2**32 else 32
print("running firmware, %d-bit %s port (gc.mem_alloc above the port's own %d bytes):" % (bits, sys.platform, BASE))
print("  code: what main.py imports                         %7d bytes" % figures["code"])
print("  data at idle (all %d presets installed)             %7d bytes (target <= 65536)" % (len(PRESETS), figures["idle"] - figures["code"]))
print("  code + data at idle                                %7d bytes" % figures["idle"])
for name, _ in GAMES:
    print("  with a %-8s match in progress (+ its family)    %7d bytes" % (name, figures[name]))
print("figures " + json.dumps(figures))
