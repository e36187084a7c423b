"""Moon, column-game and Da San figures: random hands per second, and MicroPython heap.

``run()`` prints:

* random hands per second on CPython for each game, deal to the end of the hand with
  random legal choices: through ``apply`` (unchecked, what ``simulate`` uses) and through
  ``play`` (every action checked, what the table does). A Moon hand is a deal to its
  seventh trick (or to an all-pass redeal), a column-game hand a whole game, a Da San
  hand a deal to the first player out (the cut included);
* the MicroPython heap (``families_heap_mpy.py``) of each engine with a live hand, from
  ``mpy-cross`` output (what the Pico loads), under the unix port and the WebAssembly port
  (``line_bench`` runs the ports), one fresh process per game.
"""
import os
import random
import sys
import tempfile
import time

import line_bench

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)

SECONDS = 2.0
GAMES = (("moon", "Moon"), ("columns", "column game"), ("dasan", "Da San"))


def hands_per_second(name, checked, seconds=SECONDS, seed=1):
    """Random hands per second of a preset, through ``play`` when ``checked`` else ``apply``."""
    from tiletable.engine.rulesets import find_ruleset
    from tiletable.engine.state import CHANCE

    ruleset = find_ruleset(name)
    rng = random.Random(seed)
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = ruleset.new_state()
        while state.hand_number == 0 and not state.is_over():
            if state.current_player() == CHANCE:
                options = state.chance_outcomes()
            else:
                options = list(state.generate_legal_actions())
            action = options[rng.randrange(len(options))]
            if checked:
                state.play(action)
            else:
                state.apply(action)
        hands += 1
    return hands / (time.perf_counter() - start)


def speed():
    print("random hands/s on CPython %s (unchecked apply / checked play):" % sys.version.split()[0])
    for name, label in GAMES:
        print("  %-12s %7.0f / %7.0f" % (label, hands_per_second(name, False), hands_per_second(name, True)))


def heap():
    print("micropython heap (gc.mem_alloc after gc.collect, above the baseline; compiled .mpy as the Pico loads them):")
    with tempfile.TemporaryDirectory() as tmp:
        if line_bench._mpy_tree(tmp) is None:
            print("  mpy-cross not installed")
            return
        script = os.path.join(ROOT, "bench", "engine", "families_heap_mpy.py")
        for label, argv, cwd in line_bench._micropython_commands(tmp, script):
            print("  %s:" % label)
            for name, game in GAMES:
                figures = line_bench._heap_figures(argv + [name, "firmware"], cwd)
                if isinstance(figures, str):
                    print("    %-12s %s" % (game, figures))
                    continue
                print(
                    "    %-12s engine + preset %6d B, with a live hand %6d B (hand state %5d B, %d actions)"
                    % (game, figures["engine"], figures["in_play"], figures["in_play"] - figures["engine"], figures["actions"])
                )


def run():
    speed()
    heap()


if __name__ == "__main__":
    run()
