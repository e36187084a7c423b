"""Whole matches of every game on the simulated table, with the table-level properties checked
at every step (random undos, power cuts and refused pieces: tests/sim/chaos.py), and the
button presses the players needed per hand.

    .venv/bin/python bench/table_matches.py                 (200 matches of each game)
    .venv/bin/python bench/table_matches.py --matches 5 --games buki,dasan
    .venv/bin/python bench/table_matches.py --jobs 2        (matches in 2 processes)

Each match is a scripted player (tests/sim/player.py) laying pieces on zones and pressing
buttons; "presses/hand" counts the players' own presses (not the chaos's UNDOs; a double
press is one), which is what docs/TABLE.md's table of presses reports. A match that breaks
a property stops the run with the failing check, its game and seed. A game's row is printed
when all its matches are done; "cpu s" is the CPU time its matches took, summed over the
processes.
"""
import argparse
import multiprocessing
import os
import shutil
import sys
import tempfile
import time

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [_ROOT + "/tests", _ROOT + "/tests/sim", _ROOT + "/sim/cpython", _ROOT + "/sim", _ROOT + "/firmware"]

from test_table_properties import MATCHES, play_chaotic_match  # noqa: E402

COUNTED = ("presses", "undos", "cuts", "refusals")


def play_one(task):
    """One match in a fresh simulated table: (game index, hands, counts, cpu seconds)."""
    index, seed, max_moves, calm = task
    player_class, name, players, options = MATCHES[index]
    started = time.process_time()
    root = tempfile.mkdtemp(prefix="bench-table-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        chances = {"undo": 0, "cut": 0, "refuse": 0} if calm else {}
        try:
            god, counts = play_chaotic_match(root, player_class, name, players, options, seed, max_moves, **chances)
        except AssertionError as exc:
            raise AssertionError("%s, seed %d: %s" % (name, seed, exc)) from None
    finally:
        shutil.rmtree(root, ignore_errors=True)
    # the hands dealt (a last one may be cut short)
    return index, god.hand_number + 1, [counts[key] for key in COUNTED], time.process_time() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="matches per game (default: %(default)s)")
    parser.add_argument("--games", default="", help="comma-separated games, played in that order (default: all)")
    parser.add_argument("--max-moves", type=int, default=3000, help="steps before a match is cut short")
    parser.add_argument("--calm", action="store_true", help="no undos, power cuts or refused pieces: presses only")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing matches at once (default: %(default)s)")
    args = parser.parse_args()
    wanted = args.games.split(",") if args.games else []
    unknown = [name for name in wanted if name not in [m[1] for m in MATCHES]]
    if unknown or args.matches < 1 or args.jobs < 1:
        parser.error("no game %s" % ", ".join(unknown) if unknown else "--matches and --jobs must be at least 1")
    names = [m[1] for m in MATCHES]
    chosen = [names.index(name) for name in wanted] if wanted else list(range(len(MATCHES)))  # in the order given
    tasks = [(i, seed, args.max_moves, args.calm) for i in chosen for seed in range(args.matches)]
    print("%-11s %7s %6s %12s %6s %5s %9s %7s" % ("game", "matches", "hands", "presses/hand", "undos", "cuts", "refusals", "cpu s"))
    sys.stdout.flush()
    totals = {i: [0, 0, [0] * len(COUNTED), 0.0] for i in chosen}  # matches, hands, counts, cpu
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    results = pool.imap_unordered(play_one, tasks) if pool else map(play_one, tasks)
    try:
        for index, hands, counts, cpu in results:
            total = totals[index]
            total[0] += 1
            total[1] += hands
            total[2] = [a + b for a, b in zip(total[2], counts)]
            total[3] += cpu
            if total[0] == args.matches:
                _report(MATCHES[index][1], total)
    finally:
        if pool:
            pool.terminate()


def _report(name, total):
    matches, hands, (presses, undos, cuts, refusals), cpu = total
    print("%-11s %7d %6d %12.1f %6d %5d %9d %7.1f" % (name, matches, hands, presses / max(hands, 1), undos, cuts, refusals, cpu))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
