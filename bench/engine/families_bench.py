"""Moon, column-game and Da San figures: random hands per second, and MicroPython heap.

``run()`` prints:

* random hands per second on CPython for each game, deal to the end of the hand with
  random legal choices: through ``apply`` (unchecked, what ``simulate`` uses) and through
  ``play`` (every action checked, what the table does). A Moon hand is a deal to its
  seventh trick (or to an all-pass redeal), a column-game hand a whole game, a Da San
  hand a deal to the first player out (the cut included);
* the MicroPython heap (``families_heap_mpy.py`` under the unix port, ``-X heapsize=192K``)
  of each engine with a live hand, from the sources and from ``mpy-cross`` output
  (what the Pico loads), one fresh process per game.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
BIN = os.path.dirname(sys.executable)
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


def _micropython():
    candidate = os.path.join(BIN, "micropython")
    return candidate if os.path.exists(candidate) else shutil.which("micropython")


def _heap_figures(micropython, name, engine_dir):
    proc = subprocess.run(
        [micropython, "-X", "heapsize=192K", os.path.join("bench", "engine", "families_heap_mpy.py"), name, engine_dir],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    figures = {}
    for line in proc.stdout.split("\n"):
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            figures[parts[0]] = int(parts[1])
    if "in_play" not in figures:
        return "failed: " + (proc.stdout + proc.stderr)[-300:]
    return figures


def _mpy_tree(out):
    """The engine package compiled with mpy-cross into ``out``, as the Pico loads it; None without mpy-cross."""
    compiler = os.path.join(BIN, "mpy-cross")
    if not os.path.exists(compiler):
        compiler = shutil.which("mpy-cross")
    if not compiler:
        return None
    source = os.path.join(FIRMWARE, "tiletable")
    for folder in ("", "engine"):
        os.makedirs(os.path.join(out, "tiletable", folder), exist_ok=True)
        for name in sorted(os.listdir(os.path.join(source, folder))):
            if name.endswith(".py"):
                target = os.path.join(out, "tiletable", folder, name[:-3] + ".mpy")
                subprocess.run([compiler, "-o", target, os.path.join(source, folder, name)], check=True)
    return out


def heap():
    micropython = _micropython()
    if not micropython:
        print("micropython heap: the MicroPython unix port is not installed")
        return
    print("micropython heap (unix port, 64-bit objects, -X heapsize=192K; gc.mem_alloc after gc.collect, above the baseline):")
    with tempfile.TemporaryDirectory() as tmp:
        for source, engine_dir in (("sources", "firmware"), (".mpy", _mpy_tree(tmp))):
            if engine_dir is None:
                print("  %-7s mpy-cross not installed" % source)
                continue
            for name, label in GAMES:
                figures = _heap_figures(micropython, name, engine_dir)
                if isinstance(figures, str):
                    print("  %-7s %-12s %s" % (source, label, figures))
                    continue
                print(
                    "  %-7s %-12s engine + preset %6d B, with a live hand %6d B (hand state %5d B, %d actions)"
                    % (source, label, figures["engine"], figures["in_play"], figures["in_play"] - figures["engine"],
                       figures["actions"])
                )


def run():
    speed()
    heap()


if __name__ == "__main__":
    run()
