"""`tiletable simulate` at scale: seconds for N hands of every preset, and whether the time
per hand stays flat as N grows (linear in hands) or climbs (each hand costs more than the last).

    .venv/bin/python bench/simulate_scale.py [--hands 25,50,100] [--presets moon,dasan] [--before main]

Measured in this process with the command's own ``simulate`` (greedy,random players, seed 1);
one line per preset and N, then the ratio of the per-hand time at the largest N to the smallest.
``--before REF`` also runs the ``simulate`` of git revision REF (host/tiletable_host/simulate.py
as it was there, on today's engine), each N right before today's, for a side-by-side figure.
"""
import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]

from tiletable.engine.rulesets import find_ruleset, preset_names  # noqa: E402
from tiletable_host.simulate import simulate  # noqa: E402


def simulate_of(revision):
    """The ``simulate`` function of host/tiletable_host/simulate.py at git ``revision``."""
    source = subprocess.run(
        ["git", "-C", ROOT, "show", "%s:host/tiletable_host/simulate.py" % revision], capture_output=True, text=True, check=True
    ).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
    try:
        spec = importlib.util.spec_from_file_location("simulate_" + revision.replace("/", "_"), f.name)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        os.unlink(f.name)
    return module.simulate


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", default="25,50,100", help="hand counts, comma-separated (default: %(default)s)")
    parser.add_argument("--presets", default=",".join(preset_names()), help="presets, comma-separated (default: all)")
    parser.add_argument("--before", metavar="REF", help="also time the simulate of this git revision, side by side")
    args = parser.parse_args()
    counts = [int(n) for n in args.hands.split(",")]
    before = simulate_of(args.before) if args.before else None
    for name in args.presets.split(","):
        per_hand = []
        for hands in counts:
            if before is not None:
                started = time.perf_counter()
                before(find_ruleset(name), hands, seed=1)
                seconds = time.perf_counter() - started
                print("%-10s %5d hands  %8.2f s  %7.1f ms/hand  (%s)" % (name, hands, seconds, 1000 * seconds / hands, args.before), flush=True)
            started = time.perf_counter()
            simulate(find_ruleset(name), hands, seed=1)
            seconds = time.perf_counter() - started
            per_hand.append(seconds / hands)
            print("%-10s %5d hands  %8.2f s  %7.1f ms/hand" % (name, hands, seconds, 1000 * seconds / hands), flush=True)
        print("%-10s per-hand time at %d hands / at %d hands: x%.2f (1.0 = linear)" % (name, counts[-1], counts[0], per_hand[-1] / per_hand[0]), flush=True)


if __name__ == "__main__":
    main()
