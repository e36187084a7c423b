"""`tiletable simulate` at scale: seconds for N hands of every preset, and whether the time
per hand stays flat as N grows (linear in hands) or climbs (each hand costs more than the last).

    .venv/bin/python bench/simulate_scale.py [--hands 25,50,100] [--presets moon,dasan]

Measured in this process with the command's own ``simulate`` (greedy,random players, seed 1);
one line per preset and N, then the ratio of the per-hand time at the largest N to the smallest.
"""
import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]

from tiletable.engine.rulesets import find_ruleset, preset_names  # noqa: E402
from tiletable_host.simulate import simulate  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", default="25,50,100", help="hand counts, comma-separated (default: %(default)s)")
    parser.add_argument("--presets", default=",".join(preset_names()), help="presets, comma-separated (default: all)")
    args = parser.parse_args()
    counts = [int(n) for n in args.hands.split(",")]
    for name in args.presets.split(","):
        per_hand = []
        for hands in counts:
            started = time.perf_counter()
            simulate(find_ruleset(name), hands, seed=1)
            seconds = time.perf_counter() - started
            per_hand.append(seconds / hands)
            print("%-10s %5d hands  %8.2f s  %7.1f ms/hand" % (name, hands, seconds, 1000 * seconds / hands), flush=True)
        print("%-10s per-hand time at %d hands / at %d hands: x%.2f (1.0 = linear)" % (name, counts[-1], counts[0], per_hand[-1] / per_hand[0]), flush=True)


if __name__ == "__main__":
    main()
