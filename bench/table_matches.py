"""Whole matches of every game on the simulated table, with the table-level properties checked
at every step (random undos, power cuts and refused pieces: tests/sim/chaos.py), and the
button presses the players needed per hand.

    .venv/bin/python bench/table_matches.py                 (200 matches of each game)
    .venv/bin/python bench/table_matches.py --matches 5 --games buki,dasan

Each match is a scripted player (tests/sim/player.py) laying pieces on zones and pressing
buttons; "presses/hand" counts the players' own presses (not the chaos's UNDOs), which is
what docs/TABLE.md's table of presses reports. A match that breaks a property stops the run
with the failing check.
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [_ROOT + "/tests", _ROOT + "/tests/sim", _ROOT + "/sim/cpython", _ROOT + "/sim", _ROOT + "/firmware"]

from test_table_properties import MATCHES, play_chaotic_match  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="matches per game (default: %(default)s)")
    parser.add_argument("--games", default="", help="comma-separated games (default: all)")
    parser.add_argument("--max-moves", type=int, default=3000, help="steps before a match is cut short")
    parser.add_argument("--calm", action="store_true", help="no undos, power cuts or refused pieces: presses only")
    args = parser.parse_args()
    chosen = [m for m in MATCHES if not args.games or m[1] in args.games.split(",")]
    print("%-11s %7s %6s %12s %6s %5s %9s %7s" % ("game", "matches", "hands", "presses/hand", "undos", "cuts", "refusals", "cpu s"))
    for player_class, name, players, options in chosen:
        totals = {"hands": 0, "presses": 0, "undos": 0, "cuts": 0, "refusals": 0}
        started = time.perf_counter()
        for seed in range(args.matches):
            root = tempfile.mkdtemp(prefix="bench-table-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
            try:
                calm = {"undo": 0, "cut": 0, "refuse": 0} if args.calm else {}
                god, counts = play_chaotic_match(root, player_class, name, players, options, seed, args.max_moves, **calm)
            finally:
                shutil.rmtree(root, ignore_errors=True)
            totals["hands"] += god.hand_number + 1  # the hands dealt (a last one may be cut short)
            for key in ("presses", "undos", "cuts", "refusals"):
                totals[key] += counts[key]
        print(
            "%-11s %7d %6d %12.1f %6d %5d %9d %7.1f"
            % (
                name,
                args.matches,
                totals["hands"],
                totals["presses"] / max(totals["hands"], 1),
                totals["undos"],
                totals["cuts"],
                totals["refusals"],
                time.perf_counter() - started,
            )
        )
        sys.stdout.flush()


if __name__ == "__main__":
    main()
